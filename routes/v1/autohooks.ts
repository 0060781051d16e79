import type { FastifyInstance } from 'fastify'

/**
 * Hooks of every route under /v1. The bearer-token guard (SPEC §8) belongs here; for now the
 * records are private data that a cache may keep only to revalidate.
 */
export default async function v1Hooks (fastify: FastifyInstance) {
  fastify.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'private, no-cache')
  })
}
