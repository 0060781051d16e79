import type { FastifyInstance } from 'fastify'

/**
 * Hooks of every route under /v1: a valid bearer token with the route's scope, writes
 * that ask for it queued as background jobs (§9), and records that a cache may keep only to
 * revalidate.
 */
export default async function v1Hooks (fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.requireToken)
  // A preHandler runs after validation: a write refused for its token, scope or body is refused
  // at once, not queued to fail later.
  fastify.addHook('preHandler', fastify.respondAsync)
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'private, no-cache')
    done(null, payload)
  })
}
