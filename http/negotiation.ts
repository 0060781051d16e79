import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { HttpError } from './errors.ts'
import { DOCUMENTATION_PREFIX } from './links.ts'
import { isNavigation } from './pages.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route also answers a person's browser with an HTML page (http/pages.ts). */
    page?: true
    /** The route also answers a stream of Server-Sent Events (a change feed). */
    stream?: true
  }
}

/**
 * The JSON resources answer only application/json: a request whose Accept header rules it out
 * gets 406. A route with a page for people (`config.page`: `/`, `/login`) also answers text/html
 * to a browser's navigation. The documentation UI serves HTML, scripts, styles and YAML, each its
 * own type, so it is left out: a browser asking only for text/html gets the page.
 */
export function negotiate (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const accept = request.headers.accept
  const page = request.routeOptions.config.page === true && isNavigation(request)
  const stream = request.routeOptions.config.stream === true
  const types = ['application/json', ...(page ? ['text/html'] : []), ...(stream ? ['text/event-stream'] : [])]
  if (accept !== undefined && request.accepts().type(types) === false && !isDocumentation(request)) {
    throw new HttpError(406, `This API answers only ${types.join(' or ')}; Accept was "${accept}"`)
  }
  done()
}

function isDocumentation (request: FastifyRequest): boolean {
  const route = request.routeOptions.url
  const documentation = `${request.server.config.apiPrefix}${DOCUMENTATION_PREFIX}`
  return route !== undefined && (route === documentation || route.startsWith(`${documentation}/`))
}
