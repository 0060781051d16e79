import type { FastifyInstance } from 'fastify'
import { allowOnly } from '../../http/method-not-allowed.ts'

/**
 * The documentation is served by @fastify/swagger-ui (plugins/external/swagger-ui.ts), GET only:
 * here, as on every other path, another method is 405 with Allow.
 */
export default async function documentation (fastify: FastifyInstance) {
  for (const url of ['/', '/json', '/yaml', '/static/*']) allowOnly(fastify, url, ['GET'])
}
