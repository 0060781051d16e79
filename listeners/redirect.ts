import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { hostNameOf } from '../http/host.ts'
import { equipInstance, instanceOptions, type InstanceSettings } from './instance-options.ts'

export interface RedirectOptions {
  settings: InstanceSettings
  /** The port the HTTPS API listens on: every redirect points there. */
  httpsPort: number
  /** For a request whose Host header names no usable host (HTTP/1.0 without one, or garbage). */
  fallbackHost: string
}

/** The request target as a path: absolute-form (`GET http://host/x`) and `*` keep only their path. */
function pathOf (url: string): string {
  if (url.startsWith('/')) return url
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return '/'
  }
}

/**
 * The listener of HTTP_REDIRECT_PORT: plain HTTP that answers every request, whatever
 * its method, path or body, with 308 to the same path and query on the HTTPS API, and serves
 * nothing else. 308 rather than 301: a client must repeat a POST as a POST, body included.
 */
export function buildRedirectListener (options: RedirectOptions): FastifyInstance {
  const fastify = Fastify({
    ...instanceOptions(options.settings, 'redirect'),
    frameworkErrors: (_error, request, reply) => { redirect(request, reply) }
  })
  equipInstance(fastify, options.settings)
  const port = options.httpsPort === 443 ? '' : `:${options.httpsPort}`
  function redirect (request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const host = hostNameOf(request.headers.host) ?? options.fallbackHost
    return reply.redirect(`https://${host}${port}${pathOf(request.url)}`, 308)
  }
  // No routes: every request reaches the not-found route, whose onRequest hook answers it
  // before any body is read or any content type is looked at.
  fastify.addHook('onRequest', async (request, reply) => redirect(request, reply))
  return fastify
}
