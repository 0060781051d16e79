import type { FastifyInstance } from 'fastify'

/**
 * Hooks of every route under /v1: a valid bearer token with the route's scope (SPEC §8), and
 * records that a cache may keep only to revalidate.
 */
export default async function v1Hooks (fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.requireToken)
  fastify.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'private, no-cache')
  })
}
