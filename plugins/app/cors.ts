import cors, { type FastifyCorsOptions } from '@fastify/cors'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

const isPreflight = (request: FastifyRequest): boolean =>
  request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined

/**
 * CORS for browser clients of the origins in CORS_ORIGINS. A preflight is answered here, before
 * the bearer guard (a browser sends none with it); every other OPTIONS request reaches the
 * routes, where it describes a collection. An app plugin rather than an external one:
 * it must come after helmet and the HTTPS guard, so a preflight gets their headers and refusal.
 */
export default fp(async function corsPolicy (fastify) {
  const origins = fastify.config.corsOrigins
  const options: FastifyCorsOptions = {
    // An empty list still answers preflights, with no Access-Control-Allow-Origin: refused.
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'Idempotency-Key', 'Prefer'],
    exposedHeaders: ['Location', 'ETag', 'Link', 'X-Total-Count', 'X-Request-Id', 'Retry-After', 'WWW-Authenticate'],
    maxAge: 600
  }
  await fastify.register(cors, {
    delegator: (request, callback) => {
      const applies = isPreflight(request) || (request.method !== 'OPTIONS' && (origins === '*' || origins.length > 0))
      callback(null, applies ? options : { origin: false })
    }
  })
}, { name: 'cors', dependencies: ['https-only'] })
