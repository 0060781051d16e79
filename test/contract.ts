import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Test } from 'tap'
import { ErrorSchema } from '../schemas/common.ts'

/** The parts of an OpenAPI 3.1 document the check reads. */
interface HeaderSchema { type?: string, $ref?: string }
interface Header { schema?: HeaderSchema }
interface Response { content?: Record<string, { schema?: object }>, headers?: Record<string, Header> }
interface Operation { responses: Record<string, Response> }
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, HeaderSchema> }
}

/** One answer as the client gets it. */
export interface Answer {
  method: string
  /** The matched route's URL pattern (`/v1/zoos/:id`), API_PREFIX included; undefined for an unknown path. */
  route: string | undefined
  /**
   * Whether the answer is none of the document's: a route left out of it (`schema.hide`: 405
   * catch-alls, the documentation UI), or a page for a person's browser (http/pages.ts), which
   * the document mentions in words only.
   */
  hidden: boolean
  status: number
  headers: Record<string, string | undefined>
  /** The body as sent; for HEAD, the GET body Fastify computes and then leaves out. */
  body: string
}

const DOCUMENT_ID = 'https://zoo-api.test/openapi.json'

function ajv (): Ajv2020 {
  const instance = new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
  addFormats.default(instance)
  return instance
}

const errorBody = ajv().compile(ErrorSchema)

function parsed (text: string, what: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return { problem: `${what} is not JSON: ${text.slice(0, 200)}` }
  }
}

/**
 * What the document leaves out is checked against the general status rules only: an unknown path (404), a method
 * a known path does not serve (405, a hidden route), the documentation UI itself and the pages for people answer no
 * documented operation, so an error of theirs must be an `Error` body, and nothing more is asked.
 */
export function undocumentedViolations (answer: Answer): string[] {
  if (answer.status < 400) return []
  const what = `${answer.method} ${answer.route ?? '(no route)'} answered ${answer.status}`
  const body = parsed(answer.body, `${what}: body`)
  if ('problem' in body) return [body.problem]
  return errorBody(body.value) ? [] : [`${what}: not an Error body: ${answer.body.slice(0, 500)}`]
}

/** JSON Pointer (RFC 6901) to a member, as a URI fragment. */
const pointer = (...segments: string[]): string =>
  `#/${segments.map(s => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')}`

/**
 * Checks answers of documented routes against an OpenAPI 3.1 document: the operation is
 * documented, the status is one of its responses, the body is empty where the response has no
 * content and otherwise has a documented media type and matches its schema (Ajv, JSON Schema
 * 2020-12), and the documented headers that are present match theirs.
 */
export class ContractCheck {
  readonly #ajv: Ajv2020
  readonly #validators = new Map<string, ValidateFunction>()

  readonly document: OpenApiDocument
  readonly apiPrefix: string

  constructor (document: OpenApiDocument, apiPrefix: string) {
    this.document = document
    this.apiPrefix = apiPrefix
    this.#ajv = ajv()
    this.#ajv.addSchema(document, DOCUMENT_ID)
  }

  /** The problems of one answer; none when it is as documented. */
  violations (answer: Answer): string[] {
    if (answer.route === undefined || answer.hidden) return undocumentedViolations(answer)
    const what = `${answer.method} ${answer.route} answered ${answer.status}`
    const path = this.#path(answer.route)
    // HEAD answers what GET answers, without the body (@fastify/swagger leaves HEAD routes out).
    const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase()
    const operation = this.document.paths[path]?.[method]
    if (operation === undefined) return [`${what}: no operation ${method.toUpperCase()} ${path} in the document`]
    const status = String(answer.status)
    const key = [status, `${status[0]}XX`, 'default'].find(k => operation.responses[k] !== undefined)
    if (key === undefined) {
      const documented = Object.keys(operation.responses).join(', ')
      return [`${what}: status not documented for ${method.toUpperCase()} ${path} (documented: ${documented})`]
    }
    const response = operation.responses[key] as Response
    const at = (...segments: string[]) => pointer('paths', path, method, 'responses', key, ...segments)
    const problems: string[] = []
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const text = answer.headers[name.toLowerCase()]
      if (text === undefined || header.schema === undefined) continue
      // A header is text: a number is compared as one.
      const { type } = this.#shared(header.schema)
      const value = type === 'integer' || type === 'number' ? Number(text) : text
      problems.push(...this.#validate(at('headers', name, 'schema'), value, `${what}: header ${name}: ${text}`))
    }
    if (response.content === undefined) {
      if (answer.body !== '') problems.push(`${what}: a body where the document has none`)
      return problems
    }
    // Prefer: return=minimal leaves the documented body out, and the answer says so.
    if (answer.body === '' && answer.headers['preference-applied'] === 'return=minimal') return problems
    const mediaType = answer.headers['content-type']?.split(';')[0]?.trim()
    const media = mediaType === undefined ? undefined : response.content[mediaType]
    if (media === undefined) {
      const documented = Object.keys(response.content).join(', ')
      return [...problems, `${what}: content type ${mediaType ?? '(none)'} not documented (documented: ${documented})`]
    }
    // A stream (Server-Sent Events) is read as it comes: its events are checked by the tests that read them.
    if (media.schema === undefined || answer.body === STREAMED) return problems
    const body = parsed(answer.body, `${what}: body`)
    if ('problem' in body) return [...problems, body.problem]
    const schemaAt = at('content', mediaType as string, 'schema')
    return [...problems, ...this.#validate(schemaAt, body.value, `${what}: body ${answer.body.slice(0, 500)}`)]
  }

  /** A schema, or the shared one it names (the headers of the rate limit are). */
  #shared (schema: HeaderSchema): HeaderSchema {
    const name = schema.$ref?.replace(/^#\/components\/schemas\//, '')
    return name === undefined ? schema : this.document.components?.schemas?.[name] ?? schema
  }

  /** `/api/v1/zoos/:id/` -> `/v1/zoos/{id}`: the document's paths are relative to its server URL, which holds API_PREFIX. */
  #path (route: string): string {
    const path = route.slice(this.apiPrefix.length).replace(/\/$/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    return path === '' ? '/' : path
  }

  #validate (ref: string, value: unknown, what: string): string[] {
    let validate = this.#validators.get(ref)
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: `${DOCUMENT_ID}${ref}` })
      this.#validators.set(ref, validate)
    }
    if (validate(value)) return []
    return [`${what} does not match ${ref}: ${this.#ajv.errorsText(validate.errors)}`]
  }
}

/** One check per document: most test apps share one, and compiled schemas are worth keeping. */
const checks = new Map<string, ContractCheck>()
/**
 * The check of each document object an app gave: @fastify/swagger makes an app's document once
 * and answers that object after, so the document is read as text once per app, not once per
 * answer (JSON.stringify of the whole document on every answer cost the route tests about 4 %
 * of their CPU).
 */
const checksByDocument = new WeakMap<object, Map<string, ContractCheck>>()

function checkFor (document: object, apiPrefix: string): ContractCheck {
  let byPrefix = checksByDocument.get(document)
  if (byPrefix === undefined) checksByDocument.set(document, byPrefix = new Map())
  let check = byPrefix.get(apiPrefix)
  if (check === undefined) {
    const text = JSON.stringify(document)
    const key = `${apiPrefix} ${text}`
    check = checks.get(key)
    if (check === undefined) {
      check = new ContractCheck(JSON.parse(text) as OpenApiDocument, apiPrefix)
      checks.set(key, check)
    }
    byPrefix.set(apiPrefix, check)
  }
  return check
}

/** What `answerOf` says of a body sent as a stream. */
const STREAMED = '(stream)'

function answerOf (request: FastifyRequest, reply: FastifyReply, payload: unknown): Answer {
  const headers = Object.fromEntries(Object.entries(reply.getHeaders())
    .map(([name, value]) => [name.toLowerCase(), value === undefined ? undefined : String(value)]))
  return {
    method: request.method,
    route: request.routeOptions.url,
    hidden: request.routeOptions.schema?.hide === true ||
      (request.routeOptions.config.page === true && String(reply.getHeader('content-type')).startsWith('text/html')),
    status: reply.statusCode,
    headers,
    body: payload === null || payload === undefined
      ? ''
      : typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : STREAMED
  }
}

/**
 * Checks every answer `app` gives against its own OpenAPI document, before it is sent: each
 * problem fails `t` (the test that made the request) with a message naming the request. Call
 * before `ready()`: the hook sits at the root, so it sees every answer, 404s of unknown paths
 * included.
 */
export function checkContract<T extends FastifyInstance> (t: Test, app: T): T {
  // The local tool server has no configuration decorated, and no API_PREFIX.
  const apiPrefix = (app as Partial<Pick<FastifyInstance, 'config'>>).config?.apiPrefix ?? ''
  app.addHook('onSend', async (request, reply, payload) => {
    // The document is generated by the app's own @fastify/swagger, decorated where the routes live.
    const swagger = (request.server as FastifyInstance & { swagger?: () => unknown }).swagger
    const document = typeof swagger === 'function' ? swagger.call(request.server) as object : undefined
    const answer = answerOf(request, reply, payload)
    // No document: outside API_PREFIX, where the root instance answers every path 404.
    const violations = document === undefined ? undocumentedViolations(answer) : checkFor(document, apiPrefix).violations(answer)
    for (const violation of violations) t.fail(violation)
    return payload
  })
  return app
}
