import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { BoundStores } from '../../store/bound.ts'
import { openStorage } from '../../store/open.ts'
import type { Storage } from '../../store/storage.ts'

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage
  }
  interface FastifyRequest {
    /**
     * The collections' records as the request's token may use them (store/bound.ts): the only
     * way a route, a batch, the feed or an embed reaches them, so that each meets the access rules.
     */
    readonly records: BoundStores
  }
}

const bound = new WeakMap<FastifyRequest, BoundStores>()

/**
 * Where everything is kept: SQLite in DATA_DIR, or PostgreSQL when DATABASE_URL names it
 * (store/open.ts), with the tables of the collections served. Migrated at start-up, closed with
 * the instance.
 */
export default fp(async function storage (fastify) {
  const storage = await openStorage(fastify.config, fastify.collections)
  fastify.decorate('storage', storage)
  // Made when first asked, once the token and its standing are known: its bindings are made as its rules are met.
  fastify.decorateRequest('records', {
    getter (this: FastifyRequest): BoundStores {
      let records = bound.get(this)
      if (records === undefined) {
        const standing = this.standing ?? undefined
        bound.set(this, records = new BoundStores(storage.collections, fastify.collections.resources, this.principal, standing))
      }
      return records
    }
  })
  fastify.addHook('onClose', async () => { await storage.close() })
}, { name: 'storage' })
