import type { FastifyInstance } from 'fastify'
import { ErrorSchema } from '../schemas/common.ts'
import { HttpError } from './errors.ts'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
export type Method = typeof METHODS[number]

/**
 * Answers 405 with `Allow` for every method a path does not serve (a GET path serves HEAD too).
 * Returns the `Allow` value.
 */
export function allowOnly (fastify: FastifyInstance, url: string, served: Method[]): string {
  const allowed = METHODS.filter(m => served.includes(m) || (m === 'HEAD' && served.includes('GET')))
  const allow = allowed.join(', ')
  const refuse = async (request: { method: string }): Promise<never> => {
    throw new HttpError(405, `${request.method} is not allowed here; allowed: ${allow}`, {}, { Allow: allow })
  }
  fastify.route({
    method: METHODS.filter(m => !allowed.includes(m)),
    url,
    schema: { hide: true, response: { 405: ErrorSchema } },
    // Refused before the body is read: a 405 wins over a 415 or 400 about a body nobody wants.
    onRequest: refuse,
    handler: refuse
  })
  return allow
}
