import fp from 'fastify-plugin'
import { BackupSchedule } from '../../backups/schedule.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The scheduled backups, when BACKUP_DIR is set (SQLite only: config/load.ts refuses it with DATABASE_URL). */
    backups: BackupSchedule | undefined
  }
}

/** Scheduled backups into BACKUP_DIR (backups/schedule.ts), from the moment the API is ready until it closes. */
export default fp(async function backups (fastify) {
  const { config, storage } = fastify
  const schedule = config.backupDir === undefined || storage.backUp === undefined
    ? undefined
    : new BackupSchedule({
      dir: config.backupDir,
      interval: config.backupInterval,
      keep: config.backupKeep,
      backUp: storage.backUp,
      log: fastify.log.child({ component: 'backups' })
    })
  fastify.decorate('backups', schedule)
  if (schedule === undefined) return
  fastify.addHook('onReady', async () => { schedule.start() })
  fastify.addHook('preClose', async () => { await schedule.stop() })
}, { name: 'backups', dependencies: ['storage'] })
