import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { HttpError } from './errors.ts'

/** Where the documentation UI lives under API_PREFIX: its page, scripts and the document in YAML. */
export const DOCUMENTATION_PREFIX = '/documentation'

/**
 * The JSON resources answer only application/json: a request whose Accept header rules it out
 * gets 406. The documentation UI serves HTML, scripts, styles and YAML, each its own type, so it
 * is left out: a browser asking only for text/html gets the page.
 */
export function negotiate (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const accept = request.headers.accept
  if (accept !== undefined && request.accepts().type(['application/json']) === false && !isDocumentation(request)) {
    throw new HttpError(406, `This API answers only application/json; Accept was "${accept}"`)
  }
  done()
}

function isDocumentation (request: FastifyRequest): boolean {
  const route = request.routeOptions.url
  const documentation = `${request.server.config.apiPrefix}${DOCUMENTATION_PREFIX}`
  return route !== undefined && (route === documentation || route.startsWith(`${documentation}/`))
}
