import fp from 'fastify-plugin'
import { RESOURCES } from '../../schemas/index.js'
import { SqliteStore } from '../../store/sqlite.js'
import type { Store } from '../../collections/store.js'

declare module 'fastify' {
  interface FastifyInstance {
    store: Store
  }
}

/** The collections' storage, behind the engine-neutral Store interface. */
export default fp(async function store (fastify) {
  fastify.decorate('store', new SqliteStore(fastify.db, RESOURCES))
}, { name: 'store', dependencies: ['sqlite'] })
