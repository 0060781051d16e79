import fp from 'fastify-plugin'
import { openStorage } from '../../store/open.ts'
import type { Storage } from '../../store/storage.ts'

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage
  }
}

/**
 * Where everything is kept: SQLite in DATA_DIR, or PostgreSQL when DATABASE_URL names it
 * (store/open.ts), with the tables of the collections served. Migrated at start-up, closed with
 * the instance.
 */
export default fp(async function storage (fastify) {
  const storage = await openStorage(fastify.config, fastify.collections)
  fastify.decorate('storage', storage)
  fastify.addHook('onClose', async () => { await storage.close() })
}, { name: 'storage' })
