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
    /** `records` once made. */
    recordsView: BoundStores | null
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
  // Made when first asked, once the token and its standing are known: its bindings are made as its
  // rules are met. Kept on the request itself: in a WeakMap keyed by the request, the view (whose
  // standing refers back to the request) kept every request alive through the young generation's
  // collections, each promoted and the heap grown until a full collection (docs/benchmarks.md).
  fastify.decorateRequest('recordsView', null)
  fastify.decorateRequest('records', {
    getter (this: FastifyRequest): BoundStores {
      this.recordsView ??= new BoundStores(storage.collections, fastify.collections.resources, this.principal, this.standing ?? undefined)
      return this.recordsView
    }
  })
  fastify.addHook('onClose', async () => { await storage.close() })
}, { name: 'storage' })
