import { Type, type TSchema } from '@sinclair/typebox'
import { ErrorSchema } from './common.ts'
import { JobAcceptedSchema, JobSchema } from './job.ts'
import { capitalize, type Resource } from '../model/resource.ts'
import { SafeInteger } from '../model/values.ts'

/**
 * The response side of every route schema: shared bodies, the statuses the layers in front of
 * the routes answer, and the headers of each answer. Fastify serializes with these schemas and
 * @fastify/swagger turns them into the OpenAPI document (served at /documentation/json), so the
 * document says what the service answers.
 */

const componentName = (resource: Resource): string => capitalize(resource.singular)

const components = new WeakMap<readonly Resource[], TSchema[]>()

/**
 * Bodies the document shows once, under components.schemas, by their $id: added with
 * fastify.addSchema (plugins/app/components.ts), named by `$ref` in the route schemas, and
 * resolved by the serializers (http/serialization.ts). The same for the same resources.
 */
export function componentsOf (resources: readonly Resource[]): TSchema[] {
  let made = components.get(resources)
  if (made === undefined) {
    made = [
      { ...ErrorSchema, $id: 'Error' },
      ...resources.map(resource => ({ ...resource.schemas.record, $id: componentName(resource) })),
      { ...JobAcceptedSchema, $id: 'JobAccepted' },
      { ...JobSchema, $id: 'Job' },
      ...Object.entries(RATE_LIMIT_HEADERS).map(([name, schema]) => ({ ...schema, $id: componentOfHeader(name) }))
    ]
    components.set(resources, made)
  }
  return made
}

export const ErrorRef = Type.Ref('Error')
export const JobRef = Type.Ref('Job')
export const recordRef = (resource: Resource) => Type.Ref(componentName(resource))

/** One preference a route applies (RFC 7240 §3). */
const PREFERENCE = '(respond-async|count=(exact|none)|return=(minimal|representation)|max-affected=[0-9]+|tx=(commit|rollback))'

const HEADERS = {
  Allow: Type.String({ description: 'The methods this path serves' }),
  ETag: Type.String({
    description: 'The version of the record, or (weak) of the list page: send it back in If-None-Match (GET) or ' +
      'If-Match (PUT, PATCH, DELETE)'
  }),
  Location: Type.String({ format: 'uri', description: 'Where the record (201) or the job (202) is' }),
  Link: Type.String({
    description: 'RFC 8288 links to the first, previous, next and last pages, the other query parameters kept; next ' +
      'carries a keyset cursor'
  }),
  'X-Total-Count': SafeInteger({ minimum: 0, description: 'Records matching the filters, on every page (not with Prefer: count=none)' }),
  'Idempotent-Replayed': Type.String({
    enum: ['true'],
    description: 'This is the recorded answer to an earlier request with the same ' +
      'Idempotency-Key'
  }),
  'Preference-Applied': Type.String({
    pattern: `^${PREFERENCE}(, ${PREFERENCE})*$`,
    description: 'What of Prefer was applied, comma-separated: the write was queued (respond-async), the list counted or not ' +
      '(count), the write answered without its body or with it (return), a change of many records capped (max-affected) ' +
      'or undone (tx=rollback)'
  }),
  'Retry-After': SafeInteger({ minimum: 0, description: 'Seconds to wait before asking again' }),
  'WWW-Authenticate': Type.String({
    description: 'Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and ' +
      'the scope needed (RFC 6750)'
  })
}
type Header = keyof typeof HEADERS

/** Said of each header of the rate limit: when an answer carries them. */
const COUNTED = 'on every answer to a request the rate limit counted; not with RATE_LIMIT=0, ' +
  'nor on what is refused before the count: a 406 for Accept, the bearer check\'s 401, 403 and 503, an overloaded ' +
  'server\'s 503, a request not over HTTPS behind a proxy, a CORS preflight'

/** The headers of the rate limit; its 429 also carries Retry-After. Shared components: hundreds of answers carry them. */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': SafeInteger({
    minimum: 1,
    description: `The requests a minute this client address may make (RATE_LIMIT), ${COUNTED}`
  }),
  'X-RateLimit-Remaining': SafeInteger({ minimum: 0, description: `How many of them are left in the current minute, ${COUNTED}` }),
  'X-RateLimit-Reset': SafeInteger({
    minimum: 0,
    maximum: 60,
    description: `Seconds until the current minute ends and the count starts again, ${COUNTED}`
  })
}
/** `X-RateLimit-Limit` -> `XRateLimitLimit`: the name of its component. */
const componentOfHeader = (name: string): string => name.replaceAll('-', '')
// Written as the document names a component: @fastify/swagger resolves no reference in a header.
const RATE_LIMIT_REFS = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS)
  .map(name => [name, { $ref: `#/components/schemas/${componentOfHeader(name)}` }]))

/** The request headers that change what a write or a read does. */
const REQUEST_HEADERS = {
  'If-None-Match': Type.String({ description: 'The ETag of the copy the client holds: 304 while it is current' }),
  'If-Match': Type.String({
    description: 'The ETag the client read: the write goes ahead only if the record is still at that version, ' +
      'else 412'
  }),
  'Idempotency-Key': Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '^[!-~]+$',
    description: '1 to 255 visible ASCII characters naming this request: a retry with the same key and ' +
      'body gets the first answer again (keys live 24 hours)'
  }),
  Prefer: Type.String({
    description: 'On a write, respond-async: queue it as a background job and answer 202 at once; return=minimal: answer ' +
      'without the body. On a list, count=none: answer without X-Total-Count and the last link, sparing the count ' +
      '(count=exact, the default, counts). On a change of many records, max-affected=N: refuse it when more match; ' +
      'tx=rollback: answer what it would do and change nothing; return=representation: answer the records too'
  })
}

const headerSchemas = new Map<string, TSchema>()

/**
 * The optional request headers a route reads, for its `headers` schema: one object for the same
 * names, which the validator compiles once (it keeps what it compiled by the schema object) however
 * many routes and instances use it.
 */
export function requestHeaders (...names: (keyof typeof REQUEST_HEADERS)[]) {
  const key = names.join(',')
  let schema = headerSchemas.get(key)
  if (schema === undefined) {
    schema = Type.Object(Object.fromEntries(names.map(name => [name, Type.Optional(REQUEST_HEADERS[name])])))
    headerSchemas.set(key, schema)
  }
  return schema
}

/** A response schema with headers, where @fastify/swagger looks for them. */
export const withHeaders = <T extends object>(schema: T, ...names: Header[]): T =>
  names.length === 0 ? schema : { ...schema, headers: Object.fromEntries(names.map(name => [name, HEADERS[name]])) }

/**
 * The responses of an operation the rate limit counts, each with the limit's headers: what the
 * document says of every route but those that turn the limit off (plugins/external/swagger.ts).
 */
export const counted = (responses: Record<string, { headers?: object }>): Record<string, { headers: object }> =>
  Object.fromEntries(Object.entries(responses).map(([status, response]) =>
    [status, { ...response, headers: { ...response.headers, ...RATE_LIMIT_REFS } }]))

/** An answer without a body. */
export const empty = (description: string, ...headers: Header[]) =>
  withHeaders(Type.Unsafe<undefined>(Type.Null({ description })), ...headers)

/** The 202 of a write sent with `Prefer: respond-async` (jobs/respond-async.ts). */
export const accepted = {
  202: withHeaders({ ...Type.Ref('JobAccepted'), description: 'Queued as a background job: follow Location' },
    'Location', 'Preference-Applied', 'Idempotent-Replayed')
}

/** What each error status means, whichever route answers it (also the status table of docs/resources.md). */
export const ERRORS: Record<number, { description: string, headers?: Header[] }> = {
  400: {
    description: 'Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which; ' +
      'errors lists each parameter and header that fails its schema (its type, range, length or pattern, or a name not listed)'
  },
  401: { description: 'No bearer token, or one that is not valid', headers: ['WWW-Authenticate'] },
  403: {
    description: 'The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over ' +
      'HTTPS',
    headers: ['WWW-Authenticate']
  },
  404: { description: 'No such record or path, or a nested record of another parent' },
  405: { description: 'The path does not serve the method (in a batch: an operation\'s); Allow lists those it does', headers: ['Allow'] },
  406: { description: 'Accept rules out application/json' },
  409: {
    description: 'A record that records of another collection still name (nothing is deleted), or a request with the same ' +
      'Idempotency-Key still in progress'
  },
  410: { description: 'The record existed and was deleted; or the change feed no longer keeps the changes after a position' },
  412: { description: 'If-Match does not name the current ETag: the record changed since it was read' },
  413: { description: 'The body is larger than the server accepts' },
  415: { description: 'The body is not application/json (nor, on PATCH of a record, application/merge-patch+json)' },
  422: {
    description: 'Well-formed JSON that fails validation (errors lists each field; nothing is written), more matches than ' +
      'Prefer: max-affected allows, or an Idempotency-Key already used with another request'
  },
  429: {
    description: 'Too many requests from this address, too many jobs of the caller waiting to run, or too many change streams ' +
      'of the client open',
    headers: ['Retry-After']
  },
  500: { description: 'Server fault, logged under request_id' },
  502: { description: 'The sign-in provider could not be reached, or answered what cannot be used' },
  503: {
    description: 'The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer ' +
      'are unavailable; or an aggregate ran longer than AGGREGATE_TIMEOUT allows',
    headers: ['Retry-After']
  }
}

/** Answered by the layers in front of every route: HTTPS (TLS=proxy), Accept, overload, faults. */
const ANYWHERE = [403, 406, 500, 503]
/** What the bearer guard of /v1 answers (plugins/app/bearer-guard.ts). */
export const GUARDED = [401, 403, 503]
/**
 * What Fastify may answer before the handler of a method it reads a body for (POST, PUT, PATCH,
 * DELETE, OPTIONS), whether the route takes one or not; a route whose body has a schema adds 422.
 */
export const BODY_READ = [400, 413, 415]
/**
 * The OpenAPI security schemes, one per grant a token can come from (plugins/external/swagger.ts):
 * each its own, so that the documentation UI says which one was authorized. A route takes a
 * token of either.
 */
export const SECURITY_SCHEMES = ['clientCredentials', 'password'] as const
/**
 * How a client authenticates to the token and revocation endpoints (RFC 6749 §2.3.1): by HTTP
 * Basic, the `clientSecretBasic` scheme, or by client_id and client_secret in the body, which no
 * security scheme can say (the empty requirement); a public client sends its client_id alone.
 */
export const CLIENT_SCHEME = 'clientSecretBasic'
export const CLIENT_AUTHENTICATION: Record<string, string[]>[] = [{ [CLIENT_SCHEME]: [] }, {}]
/** The security requirement of a route whose token needs `scopes`. */
export const security = (scopes: string[]): Record<string, string[]>[] => SECURITY_SCHEMES.map(scheme => ({ [scheme]: scopes }))
/** The security requirement of a route that needs a token but no scope; collection routes get theirs from their scope. */
export const BEARER = security([])

/** Error answers with `body`, each with its meaning. */
export function errorResponses (body: TSchema, codes: number[]): Record<number, TSchema> {
  return Object.fromEntries([...new Set(codes)].sort((a, b) => a - b).map(code => {
    const meaning = ERRORS[code]
    if (meaning === undefined) throw new Error(`no meaning documented for status ${code}`)
    return [code, withHeaders({ ...body, description: meaning.description }, ...(meaning.headers ?? []))]
  }))
}

/** The error answers of a route: `codes`, those every route may give and the rate limit's 429. */
export const errors = (...codes: number[]): Record<number, TSchema> => errorResponses(ErrorRef, [...codes, ...ANYWHERE, 429])

/** The error answers of a route the rate limit never counts: a health probe (http/probes.ts). */
export const uncountedErrors = (): Record<number, TSchema> => errorResponses(ErrorRef, ANYWHERE)
