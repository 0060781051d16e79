import { fileURLToPath } from 'node:url'
import fp from 'fastify-plugin'
import { openDatabase, type SqliteDatabase } from '../../store/sqlite.js'

declare module 'fastify' {
  interface FastifyInstance {
    db: SqliteDatabase
  }
}

// Beside this file's folder in the source tree and in dist/ alike (the build copies migrations/).
const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url))

/** The SQLite database under DATA_DIR, migrated at start-up and closed with the instance. */
export default fp(async function sqlite (fastify) {
  const db = openDatabase(fastify.config.dataDir, MIGRATIONS)
  fastify.decorate('db', db)
  fastify.addHook('onClose', async () => { db.close() })
}, { name: 'sqlite' })
