import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify'
import type { ErrorBody, FieldError } from '../schemas/common.js'
import { StoreError } from '../collections/refusals.js'

/** An answer other than success, raised anywhere in a request and rendered by `errorHandler`. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor (
    readonly statusCode: number,
    message: string,
    readonly extra: Omit<ErrorBody, 'error'> = {},
    readonly headers: Record<string, string> = {}
  ) {
    super(message)
  }
}

type AjvError = FastifySchemaValidationError & {
  schemaPath: string
  parentSchema?: { description?: string }
}

/** How each format is written, for a message that says what to send. */
const FORMATS: Record<string, string> = {
  date: 'a date written YYYY-MM-DD',
  'date-time': 'an RFC 3339 timestamp such as 2024-05-01T12:00:00Z',
  email: 'an email address',
  uri: 'an absolute URI'
}

function lengthRule (keyword: string, limit: number): string {
  const unit = keyword.endsWith('Items') ? 'item' : 'character'
  if (keyword.startsWith('min')) return limit === 1 ? 'must not be empty' : `must have at least ${limit} ${unit}s`
  return `must have at most ${limit} ${unit}${limit === 1 ? '' : 's'}`
}

/** `/0/name` -> `0.name` */
const dotted = (instancePath: string): string => instancePath.split('/').slice(1).join('.')
const join = (path: string, member: string): string => path === '' ? member : `${path}.${member}`

function toFieldError (e: AjvError): FieldError {
  const path = dotted(e.instancePath)
  const params = e.params as Record<string, unknown>
  const subject = path === '' ? 'value' : path
  switch (e.keyword) {
    case 'required': {
      const field = join(path, String(params.missingProperty))
      return { field, code: 'required', message: `${field} is required` }
    }
    case 'additionalProperties': {
      const field = join(path, String(params.additionalProperty))
      return { field, code: 'unknown', message: `${field} is not a known field` }
    }
    case 'type': return { field: path, code: 'type', message: `${subject} must be ${String(params.type).split(',').join(' or ')}` }
    case 'format': {
      const format = String(params.format)
      return { field: path, code: 'format', message: `${subject} must be ${FORMATS[format] ?? `a valid ${format}`}` }
    }
    case 'minLength': case 'maxLength': case 'minItems': case 'maxItems':
      return { field: path, code: 'length', message: `${subject} ${lengthRule(e.keyword, Number(params.limit))}` }
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
      return { field: path, code: 'range', message: `${subject} ${e.message ?? 'is out of range'}` }
    case 'enum': case 'const': {
      // A field with many allowed values says in its description what they are.
      const rule = e.parentSchema?.description
      const message = rule === undefined ? `${subject} is not one of the allowed values` : `${subject} must be ${rule}`
      return { field: path, code: 'enum', message }
    }
    case 'pattern':
      return { field: path, code: 'pattern', message: `${subject}: ${e.parentSchema?.description ?? e.message ?? 'bad value'}` }
    default: return { field: path, code: e.keyword, message: `${subject} ${e.message ?? 'is invalid'}` }
  }
}

/**
 * Ajv reports every branch of an `anyOf` (a nullable field, or a POST body that is an object or
 * an array). Of a union, keep the errors of the branches whose type the value has; when it has
 * none of their types, one error names them all ("must be integer or null").
 */
function simplify (errors: AjvError[]): AjvError[] {
  const unions = errors.filter(e => e.keyword === 'anyOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length)
  let rest = errors.filter(e => e.keyword !== 'anyOf')
  for (const union of unions) {
    const inBranch = (e: AjvError): boolean => e.schemaPath.startsWith(`${union.schemaPath}/`)
    const branchOf = (e: AjvError): string => e.schemaPath.slice(union.schemaPath.length + 1).split('/')[0] ?? ''
    const branch = rest.filter(inBranch)
    // Empty when the union sits inside a branch an outer union already set aside.
    if (branch.length === 0) continue
    rest = rest.filter(e => !inBranch(e))
    const wrongType = branch.filter(e => e.keyword === 'type' && e.instancePath === union.instancePath)
    const mismatched = new Set(wrongType.map(branchOf))
    const matched = branch.filter(e => !mismatched.has(branchOf(e)))
    if (matched.length > 0) rest.push(...matched)
    else {
      const types = wrongType.map(e => String((e.params as { type?: unknown }).type)).join(',')
      rest.push({ ...union, keyword: 'type', params: { type: types } })
    }
  }
  return rest
}

function validationError (request: FastifyRequest, error: FastifyError): HttpError {
  const errors = simplify((error.validation ?? []) as AjvError[])
  const fields = errors.map(toFieldError)
  switch (error.validationContext) {
    case 'body': {
      const whole = errors.find(e => e.instancePath === '' && e.keyword === 'type')
      if (whole !== undefined) {
        const expected = String((whole.params as { type?: unknown }).type).split(',').join(' or ')
        return new HttpError(400, `Request body must be a JSON ${expected}`)
      }
      return new HttpError(422, `Validation failed: ${fields.map(f => f.message).join('; ')}`, { errors: fields })
    }
    case 'params':
      return new HttpError(404, `Nothing at ${request.url.split('?')[0] ?? ''}: identifiers are positive integers`)
    default: {
      const named = errors.map((e, i) => {
        const f = fields[i] as FieldError
        return f.code === 'unknown'
          ? { ...f, message: `unknown query parameter ${f.field}; ${e.parentSchema?.description ?? ''}`.trim() }
          : { ...f, message: `query parameter ${f.message}` }
      })
      return new HttpError(400, `Invalid query: ${named.map(f => f.message).join('; ')}`, { errors: named })
    }
  }
}

/** What a JSON route answers a body of another type (415). */
export const JSON_ONLY = 'Content-Type must be application/json'

/** Fastify's own 415 says only "Unsupported Media Type": a client needs to know what to send. */
function unsupportedMediaType (request: FastifyRequest): HttpError {
  const received = request.headers['content-type']
  return new HttpError(415, received === undefined ? `${JSON_ONLY}; the request had none` : `${JSON_ONLY}; got ${received}`)
}

/** Renders every failure as `{"error": ...}` with its status; a 500 shows no stack and no SQL. */
export function errorHandler (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let failure: HttpError
  if (error instanceof HttpError) failure = error
  else if (error instanceof StoreError) {
    failure = new HttpError(error.status, error.message, error.errors.length > 0 ? { errors: error.errors } : {})
  } else if (error.validation !== undefined) failure = validationError(request, error)
  else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') failure = unsupportedMediaType(request)
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
