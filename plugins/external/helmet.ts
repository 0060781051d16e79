import helmet, { type FastifyHelmetOptions } from '@fastify/helmet'
import Fastify from 'fastify'
import fp from 'fastify-plugin'

const OPTIONS: FastifyHelmetOptions = {
  // A JSON API serves no documents to frame or scripts to run: the strictest policy costs nothing.
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  hsts: { maxAge: 31536000, includeSubDomains: true }
}

/**
 * The headers @fastify/helmet sets with OPTIONS, found by asking it once: a private instance
 * answers one request through helmet and one without, and the difference is helmet's.
 */
async function helmetHeaders (options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify()
  await probe.register(helmet, options)
  probe.get('/with', async () => '')
  probe.get('/without', { helmet: false }, async () => '')
  const [secured, plain] = await Promise.all([probe.inject('/with'), probe.inject('/without')])
  await probe.close()
  const added = Object.entries(secured.headers).filter(([name]) => !(name in plain.headers))
  return Object.fromEntries(added.map(([name, value]) => [name, String(value)]))
}

/**
 * helmet's security headers on every answer. @fastify/helmet builds helmet's middleware chain
 * again for every request (the policy parsed, a dozen functions made), which took half the CPU
 * of a GET. With these options no header depends on the request, so they are computed once at
 * start-up, by @fastify/helmet itself, and set by one hook. Routes that need another policy (the
 * documentation UI) set their own header, which replaces this one.
 */
export default fp(async function securityHeaders (fastify) {
  const headers = await helmetHeaders(OPTIONS)
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
}, { name: 'security-headers' })
