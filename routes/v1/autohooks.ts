import type { FastifyInstance } from 'fastify'
import { privateNoCache } from '../../http/cache-control.ts'

/**
 * Hooks of every route under /v1: the bearer guard (plugins/app/bearer-guard.ts), writes that
 * ask for it queued as background jobs (jobs/respond-async.ts), and records that a cache may keep
 * only to revalidate.
 */
export default async function v1Hooks (fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.requireToken)
  fastify.addHook('preHandler', fastify.respondAsync)
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    privateNoCache(reply)
    done(null, payload)
  })
}
