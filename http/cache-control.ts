import type { FastifyReply } from 'fastify'

/** Token answers must never be cached (RFC 6749 §5.1). */
export function noStore (reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache')
}

/** Records a cache may keep only to revalidate: every /v1 answer that sets no Cache-Control of its own. */
export function privateNoCache (reply: FastifyReply): void {
  if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'private, no-cache')
}

/** Adds `names` to the Vary header (RFC 9110 §12.5.5): the request headers the answer depends on, for caches. */
export function vary (reply: FastifyReply, ...names: string[]): void {
  const listed = String(reply.getHeader('Vary') ?? '')
  const named = new Set(listed.split(',').map(name => name.trim().toLowerCase()))
  const missing = names.filter(name => !named.has(name.toLowerCase()))
  if (missing.length > 0) reply.header('Vary', [...(listed === '' ? [] : [listed]), ...missing].join(', '))
}
