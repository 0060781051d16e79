import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify'
import type { ErrorBody } from '../schemas/common.ts'
import { StoreError, type RefusalKind } from '../model/refusal.ts'
import { fieldErrors } from './validation.ts'

/** An answer other than success, raised anywhere in a request and rendered by `errorHandler`. */
export class HttpError extends Error {
  override name = 'HttpError'
  readonly statusCode: number
  readonly extra: Omit<ErrorBody, 'error'>
  readonly headers: Record<string, string>

  constructor (
    statusCode: number,
    message: string,
    extra: Omit<ErrorBody, 'error'> = {},
    headers: Record<string, string> = {}
  ) {
    super(message)
    this.statusCode = statusCode
    this.extra = extra
    this.headers = headers
  }
}

/**
 * The refusal of a request part that failed its schema: a body that is not even the right kind of
 * JSON value (400), a body with faulty fields (422, each listed), a query parameter or header (400).
 */
export function validationRefusal (part: 'body' | 'querystring' | 'headers', errors: FastifySchemaValidationError[]): HttpError {
  const fields = fieldErrors(errors, part)
  const said = fields.map(f => f.message).join('; ')
  if (part !== 'body') return new HttpError(400, `Invalid ${part === 'headers' ? 'headers' : 'query'}: ${said}`, { errors: fields })
  // Not even the right kind of JSON value: there are no fields to list.
  const whole = fields.find(f => f.field === '' && f.code === 'type')
  if (whole !== undefined) return new HttpError(400, whole.message)
  return new HttpError(422, `Validation failed: ${fields.map(f => f.message).join('; ')}`, { errors: fields })
}

/** A path that names nothing: an identifier in it is no positive integer, or nothing is served there. */
export const nothingAt = (path: string, why = ''): HttpError => new HttpError(404, `Nothing at ${path}${why}`)

function validationError (request: FastifyRequest, error: FastifyError): HttpError {
  const part = error.validationContext
  if (part === 'params') return nothingAt(request.url.split('?')[0] ?? '', ': identifiers are positive integers')
  return validationRefusal(part === 'body' ? 'body' : part === 'headers' ? 'headers' : 'querystring', error.validation ?? [])
}

/** The status that says why the data refused an operation. */
const REFUSAL_STATUS: Record<RefusalKind, number> = {
  not_found: 404, gone: 410, conflict: 409, invalid: 422, forbidden: 403, bad_query: 400, timed_out: 503
}

/** What an error answers when it is a refusal (an HttpError, or what the store refused); undefined for a fault. */
export function refusalOf (error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error
  if (error instanceof StoreError) {
    return new HttpError(REFUSAL_STATUS[error.kind], error.message, error.errors.length > 0 ? { errors: error.errors } : {})
  }
  return undefined
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The media types of a body the route takes besides application/json (a PATCH's merge patch). */
    bodyTypes?: readonly string[]
  }
}

/**
 * The 415 of a JSON route, on the API and the local tool server alike: Fastify's own says only
 * "Unsupported Media Type", and a client needs to know what to send.
 */
export function unsupportedMediaType (request: FastifyRequest): HttpError {
  const received = request.headers['content-type']
  const message = `Content-Type must be ${['application/json', ...request.routeOptions.config.bodyTypes ?? []].join(' or ')}`
  return new HttpError(415, received === undefined ? `${message}; the request had none` : `${message}; got ${received}`)
}

const tooLarge = (request: FastifyRequest): HttpError =>
  new HttpError(413, `The body is larger than the ${request.routeOptions.bodyLimit} bytes this server accepts`)

/** Renders every failure as `{"error": ...}` with its status; a 500 shows no stack and no SQL. */
export function errorHandler (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const failure = failureOf(error, request)
  return reply.code(failure.statusCode).headers(failure.headers).send({ error: failure.message, ...failure.extra })
}

function failureOf (error: FastifyError, request: FastifyRequest): HttpError {
  const refusal = refusalOf(error)
  if (refusal !== undefined) return refusal
  if (error.validation !== undefined) return validationError(request, error)
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return unsupportedMediaType(request)
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge(request)
  const status = error.statusCode
  if (status !== undefined && status >= 400 && status < 500) return new HttpError(status, error.message)
  request.log.error({ err: error }, 'request failed')
  return new HttpError(500, 'Internal server error', { request_id: String(request.id) })
}

export function notFoundHandler (request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ error: nothingAt(request.url.split('?')[0] ?? '').message })
}
