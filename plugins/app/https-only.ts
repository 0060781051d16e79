import type { FastifyRequest } from 'fastify'
import '../../http/probes.ts'
import fp from 'fastify-plugin'

/**
 * Every proxy on the way appends the scheme it was reached by: all of them must say `https`, or a
 * client could have spoken plain HTTP to the first. Exact and lower-case, as the hrefs built
 * from it (http/links.ts) must be.
 */
function forwardedOverHttps (request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-proto']
  if (forwarded === 'https') return true
  if (forwarded === undefined) return false
  return [forwarded].flat().join(',').split(',').every(scheme => scheme.trim() === 'https')
}

// Serialized here: route error handlers with a format of their own (RFC 6749 at /oauth) must not
// reshape it, since every path gets this one body.
const REFUSAL = JSON.stringify({ error: 'HTTPS required' })

/**
 * TLS=proxy: the API listens in plain HTTP behind a TLS-terminating proxy and refuses
 * every request the proxy did not receive over HTTPS, before any other check: no resource, no
 * token error, no hint of what is there. The health probes (http/probes.ts) are the exception:
 * a load balancer asks them of the instance itself. With TLS=on the listener itself is HTTPS only.
 */
export default fp(async function httpsOnly (fastify) {
  if (fastify.config.tls !== 'proxy') return
  fastify.addHook('onRequest', (request, reply, done) => {
    if (forwardedOverHttps(request) || request.routeOptions.config.probe === true) return done()
    reply.code(403).type('application/json; charset=utf-8').send(REFUSAL)
  })
}, { name: 'https-only' })
