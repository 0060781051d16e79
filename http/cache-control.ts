import type { FastifyReply } from 'fastify'

/** Token answers must never be cached (RFC 6749 §5.1). */
export function noStore (reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache')
}

/** Records a cache may keep only to revalidate: every /v1 answer that sets no Cache-Control of its own. */
export function privateNoCache (reply: FastifyReply): void {
  if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'private, no-cache')
}
