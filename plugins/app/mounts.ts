import fp from 'fastify-plugin'
import type { Mount } from '../../collections/request.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Every collection the URL tree serves, as its routes mount it: what an operation of a batch may name. */
    mounts: Mount[]
  }
  interface FastifyContextConfig {
    /**
     * A write outside a collection's own routes (a batch): Idempotency-Key and Prefer: respond-async
     * apply to it as to a collection's writes.
     */
    write?: true
  }
}

/** Where the collections' routes say where they are mounted (collections/collection.ts), for POST /v1/batch (collections/batch.ts). */
export default fp(async function mounts (fastify) {
  fastify.decorate('mounts', [])
}, { name: 'mounts' })
