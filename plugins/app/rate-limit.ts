import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import { HttpError } from '../../http/errors.js'
import { INTERNAL_ADDRESS } from '../../jobs/replay.js'

/**
 * At most RATE_LIMIT requests a minute from one client address (429 with Retry-After):
 * every request to a public path (the token endpoint included, so guessing secrets is slow) and
 * every request that passed the bearer check. Behind a proxy (TLS=proxy) the address is the one
 * the proxy forwards. A background job's replay is not counted again.
 */
export default fp(async function rateLimits (fastify) {
  const max = fastify.config.rateLimit
  if (max === 0) return
  await fastify.register(rateLimit, {
    max,
    timeWindow: 60_000,
    allowList: request => request.socket.remoteAddress === INTERNAL_ADDRESS,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many requests: at most ${context.max} a minute; retry in ${context.after}`)
  })
}, { name: 'rate-limit', dependencies: ['https-only'] })
