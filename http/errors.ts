import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorBody } from '../schemas/common.ts'
import { StoreError } from '../collections/refusals.ts'
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

function validationError (request: FastifyRequest, error: FastifyError): HttpError {
  const fields = fieldErrors(error.validation ?? [], error.validationContext)
  switch (error.validationContext) {
    case 'body': {
      // Not even the right kind of JSON value: there are no fields to list.
      const whole = fields.find(f => f.field === '' && f.code === 'type')
      if (whole !== undefined) return new HttpError(400, whole.message)
      return new HttpError(422, `Validation failed: ${fields.map(f => f.message).join('; ')}`, { errors: fields })
    }
    case 'params':
      return new HttpError(404, `Nothing at ${request.url.split('?')[0] ?? ''}: identifiers are positive integers`)
    default:
      return new HttpError(400, `Invalid query: ${fields.map(f => f.message).join('; ')}`, { errors: fields })
  }
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
  let failure: HttpError
  if (error instanceof HttpError) failure = error
  else if (error instanceof StoreError) {
    failure = new HttpError(error.status, error.message, error.errors.length > 0 ? { errors: error.errors } : {})
  } else if (error.validation !== undefined) failure = validationError(request, error)
  else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') failure = unsupportedMediaType(request)
  else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') failure = tooLarge(request)
  else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    failure = new HttpError(error.statusCode, error.message)
  } else {
    request.log.error({ err: error }, 'request failed')
    failure = new HttpError(500, 'Internal server error', { request_id: String(request.id) })
  }
  return reply.code(failure.statusCode).headers(failure.headers).send({ error: failure.message, ...failure.extra })
}

export function notFoundHandler (request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ error: `Nothing at ${request.url.split('?')[0] ?? ''}` })
}
