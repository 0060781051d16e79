import { Type, type TSchema } from '@sinclair/typebox'
import { scopesFor } from '../auth/scopes.ts'
import { HttpError, nothingAt, refusalOf, validationRefusal } from '../http/errors.ts'
import { versionRoot } from '../http/links.ts'
import { validatorCompiler } from '../http/validation.ts'
import { SafeInteger } from '../model/values.ts'
import { accepted, BEARER, errors, GUARDED, requestHeaders, withHeaders } from '../schemas/responses.ts'
import { NoQuerySchema } from '../schemas/common.ts'
import { BatchRefusal } from '../store/contract.ts'
import type { Instance } from './collection.ts'
import type { Mount } from './request.ts'
import { inputsOf, planWrite, refuseNullBytes, WRITE_METHODS, writesServed, type PlannedWrite, type WriteMethod } from './write-plan.ts'

const OperationSchema = Type.Object({
  method: Type.Unsafe<WriteMethod>(Type.String({ enum: [...WRITE_METHODS] })),
  path: Type.String({
    minLength: 1,
    maxLength: 2048,
    pattern: '^/',
    description: 'A collection or record path under the API, nested ones included, with a query for a change of many records; ' +
      'a segment {<index>.<field>} takes a field of an earlier operation\'s answer: /v1/zoos/{0.id}/animals'
  }),
  body: Type.Optional(Type.Unknown({
    description: 'The body the operation would carry alone; a value {"$ref": "<index>.<field>"} takes a field of an earlier ' +
      'operation\'s answer: {"zoo_id": {"$ref": "0.id"}}'
  })),
  headers: Type.Optional(Type.Record(Type.String({ pattern: '^[Ii][Ff]-[Mm][Aa][Tt][Cc][Hh]$' }), Type.String(), {
    additionalProperties: false,
    description: 'If-Match, the only header an operation takes'
  }))
}, { additionalProperties: false })

type Operation = { method: WriteMethod, path: string, body?: unknown, headers?: Record<string, string> }

const ResultSchema = Type.Object({
  status: SafeInteger({ minimum: 100, maximum: 599, description: 'The status the operation would have answered alone' }),
  headers: Type.Object({
    location: Type.Optional(Type.String({ format: 'uri' })),
    etag: Type.Optional(Type.String())
  }, { additionalProperties: false }),
  body: Type.Optional(Type.Unknown({ description: 'The body it would have answered alone: a record, records, or {"affected"}' }))
}, { additionalProperties: false })

const REF = /^(\d+)\.(.+)$/
/** A path segment that names a field of an earlier operation's answer. */
const REFERENCE = /^\{[^}]*\}$/
/** Every such name in a path. */
const REFERENCES = /\{([^}]*)\}/g

/**
 * `POST /v1/batch`: writes of any collections that succeed or fail together. Each operation is
 * checked as it would be alone: its path and scopes before the batch runs or is queued, its query,
 * body and plan before the transaction begins, unless it uses an earlier operation's answer
 * (`$ref`, `{<index>.<field>}`), when it is planned in the transaction once that answer is known;
 * what the store refuses, in order, inside the batch's one transaction. The first refusal undoes
 * them all and is answered with its own status and the operation's index.
 */
export function batchRoute (fastify: Instance): void {
  const { mounts } = fastify
  const apiPrefix = fastify.config.apiPrefix
  const max = fastify.config.batchMaxOperations
  const maxRecords = fastify.config.writeMaxRecords
  const BodySchema = Type.Object({ operations: Type.Array(OperationSchema, { minItems: 1, maxItems: max }) },
    { additionalProperties: false })
  const validBody = validatorCompiler({ schema: BodySchema, method: 'POST', url: '', httpPart: 'body' })
  const isBatch = (body: unknown): body is { operations: Operation[] } => validBody(body) === true

  fastify.post('/', {
    config: { write: true, standingAlongside: true },
    schema: {
      operationId: 'runBatch',
      summary: 'Run several writes in one transaction: all or none',
      description: `Up to ${max} operations (BATCH_MAX_OPERATIONS), each POST, PUT, PATCH or DELETE of a collection or record ` +
        'path, checked as it would be alone (scope, body, If-Match, references, 404, 409, 410, 412, 422) and run in order in ' +
        'one transaction. A later operation may use an earlier one\'s answer: {"$ref": "<index>.<field>"} as a value in its ' +
        'body, {<index>.<field>} as a segment of its path. 200 with every answer in order, or the first refusal\'s status with ' +
        'its error and the index of the operation, and nothing written. Every operation\'s path, method and scopes are checked ' +
        'before any runs or the batch is queued (Prefer: respond-async). Together the operations may write at most ' +
        `${fastify.config.writeMaxRecords} records (WRITE_MAX_RECORDS), counted as each runs. Idempotency-Key applies to the ` +
        'batch as a whole.',
      tags: ['batch'],
      // Each operation needs the scopes of its own collection, checked before the batch runs or is queued.
      security: BEARER,
      querystring: NoQuerySchema,
      headers: requestHeaders('Idempotency-Key', 'Prefer'),
      body: BodySchema,
      response: {
        200: withHeaders(Type.Object({ results: Type.Array(ResultSchema) }, {
          additionalProperties: false,
          description: 'Every operation done, in one transaction: their answers, in order'
        }), 'Idempotent-Replayed'),
        ...accepted,
        ...errors(...GUARDED, 400, 404, 405, 409, 410, 412, 413, 415, 422)
      }
    },
    // Before the batch is run or queued as a job (jobs/respond-async.ts): what its token may not
    // do is refused at once, as each of its operations would be alone.
    // A body its schema refuses is left to the validation that follows, which answers it.
    preValidation: async request => {
      const { body } = request
      if (!isBatch(body)) return
      body.operations.forEach(({ method, path }, index) => {
        try {
          const { mount, bulk } = addressed(mounts, apiPrefix, method, path.split('?')[0] as string)
          request.server.requireScopes(request, scopesFor(mount.resource.name, method, bulk))
        } catch (err) {
          throw answered(new BatchRefusal(index, err))
        }
      })
    }
  }, async (request, reply) => {
    const { operations } = request.body
    const root = versionRoot(request)
    // Every operation that names no earlier answer is planned before the transaction begins, in
    // order, the first refusal answered; inside it, only the writes run, and the operations that
    // name an answer are planned once it is known.
    const planned = operations.map((operation, index) => {
      try {
        return referencing(operation) ? undefined : plan(mounts, apiPrefix, root, operation)
      } catch (err) {
        throw answered(new BatchRefusal(index, err))
      }
    })
    /** What each operation answered a `$ref` of a later one, once it has run. */
    const bodies: unknown[] = []
    try {
      const results = await request.records.batch(done => {
        const index = done.length
        if (index > 0) bodies[index - 1] = (planned[index - 1] as PlannedWrite).body(done[index - 1])
        const operation = operations[index]
        if (operation === undefined) return undefined
        const write = planned[index] ??= plan(mounts, apiPrefix, root, resolved(operation, bodies, index))
        return write.write
      }, { records: maxRecords })
      return reply.send({ results: results.map((result, index) => (planned[index] as PlannedWrite).answer(result)) })
    } catch (err) {
      throw err instanceof BatchRefusal ? answered(err) : err
    }
  })
}

/** The answer to a batch whose operation was refused: that operation's refusal, naming its index. */
function answered (err: BatchRefusal): unknown {
  const refusal = refusalOf(err.reason)
  if (refusal === undefined) return err.reason
  // Allow would name the methods of the operation's path as if they were the batch's own.
  const { Allow: _allow, ...headers } = refusal.headers
  return new HttpError(refusal.statusCode, `Operation ${err.index}: ${refusal.message}`,
    { ...refusal.extra, operation: err.index }, headers)
}

/** Whether an operation names an earlier one's answer, in its path or its body. */
function referencing (operation: Operation): boolean {
  let found = operation.path.search(REFERENCES) !== -1
  substituted(operation.body, () => {
    found = true
    return null
  })
  return found
}

/**
 * A body with every `{"$ref": ...}` replaced by what `named` gives for it: a record's values, or
 * those of the records of an array; deeper, no value is a field's.
 */
function substituted (body: unknown, named: (ref: string) => unknown): unknown {
  const replace = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return depth === 0 ? value.map(item => replace(item, depth + 1)) : value
    if (value === null || typeof value !== 'object') return value
    const members = Object.entries(value)
    if (members.length === 1 && members[0]?.[0] === '$ref' && typeof members[0][1] === 'string') return named(members[0][1])
    return depth > 1 ? value : Object.fromEntries(members.map(([name, member]) => [name, replace(member, depth + 1)]))
  }
  return replace(body, 0)
}

/** The operation with every `$ref` of its body and every `{<index>.<field>}` of its path replaced by what it names. */
function resolved (operation: Operation, bodies: readonly unknown[], index: number): Operation {
  const named = (ref: string): unknown => {
    const match = REF.exec(ref)
    const from = match === null ? NaN : Number(match[1])
    if (!(from < index)) throw new HttpError(400, `"${ref}" names no earlier operation: write <index>.<field> with an index below ${index}`)
    let value: unknown = bodies[from]
    for (const member of (match?.[2] as string).split('.')) {
      value = value !== null && typeof value === 'object' && Object.hasOwn(value, member)
        ? (value as Record<string, unknown>)[member]
        : undefined
    }
    if (value === undefined) throw new HttpError(422, `"${ref}" names nothing in the answer of operation ${from}`)
    return value
  }
  const path = operation.path.replace(REFERENCES, (_, ref: string) => {
    const value = named(ref)
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new HttpError(422, `"{${ref}}" in a path must name a number or a text`)
    }
    return encodeURIComponent(String(value))
  })
  return { ...operation, path, ...(operation.body === undefined ? {} : { body: substituted(operation.body, named) }) }
}

/** What an operation's path names: a mounted collection, its parent's id when nested, and a record's id when it names one. */
function target (mounts: readonly Mount[], apiPrefix: string, path: string) {
  const within = apiPrefix !== '' && path.startsWith(`${apiPrefix}/`) ? path.slice(apiPrefix.length) : path
  const segments = within.replace(/\/$/, '').split('/').slice(1).map(segment => {
    try {
      return decodeURIComponent(segment)
    } catch {
      throw nothingAt(path)
    }
  })
  for (const mount of mounts) {
    const rest = segments.length - mount.segments.length
    if (rest !== 0 && rest !== 1) continue
    const params: number[] = []
    const matches = mount.segments.every((segment, i) => {
      if (!segment.startsWith(':')) return segment === segments[i]
      params.push(idOf(path, segments[i] as string))
      return true
    })
    if (!matches) continue
    return { mount, parentId: params[0], id: rest === 1 ? idOf(path, segments.at(-1) as string) : undefined }
  }
  throw nothingAt(path)
}

/**
 * A path segment that stands for an id: a positive integer, else the path names nothing. Before
 * the batch runs, a segment `{<index>.<field>}` stands for the id an earlier answer will give
 * (any id names the same collection); once it runs, every such segment has been replaced.
 */
function idOf (path: string, segment: string): number {
  const id = /^\d{1,16}$/.test(segment) ? Number(segment) : REFERENCE.test(segment) ? 1 : 0
  if (id < 1 || id > Number.MAX_SAFE_INTEGER) throw nothingAt(path, ': identifiers are positive integers')
  return id
}

/** A request part checked against its schema, as the route's own validation would: the validator compiled once per schema. */
function checked (part: 'body' | 'querystring', schema: TSchema, value: unknown): unknown {
  const validate = validatorCompiler({ schema, method: 'POST', url: '', httpPart: part })
  if (validate(value) !== true) throw validationRefusal(part, (validate as { errors?: [] }).errors ?? [])
  return value
}

/** A query string as Fastify reads one: a repeated name gives an array. */
function queryOf (search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {}
  for (const [name, value] of new URLSearchParams(search)) {
    const held = query[name]
    query[name] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value]
  }
  return query
}

/**
 * What an operation's path names, as its route would find it: a collection or a record (404),
 * which serves the method (405). Its scopes are checked before the batch runs or is queued.
 */
function addressed (mounts: readonly Mount[], apiPrefix: string, method: WriteMethod, path: string) {
  const found = target(mounts, apiPrefix, path)
  const served = writesServed(found.mount, found.id !== undefined)
  if (!served.includes(method)) {
    const allow = ['GET', 'HEAD', ...served, 'OPTIONS'].join(', ')
    throw new HttpError(405, `${method} is not allowed at ${path}; allowed: ${allow}`, {}, { Allow: allow })
  }
  return { ...found, bulk: found.id === undefined && method !== 'POST' }
}

/** One operation checked as its route would check it alone, and planned as its route plans it (collections/write-plan.ts). */
function plan (mounts: readonly Mount[], apiPrefix: string, root: string, operation: Operation): PlannedWrite {
  const [path = '', search] = operation.path.split(/\?(.*)/s)
  const { method } = operation
  const { mount, parentId, id } = addressed(mounts, apiPrefix, method, path)
  const inputs = inputsOf(mount, method, id !== undefined)
  const query = checked('querystring', inputs.query, queryOf(search ?? '')) as Record<string, unknown>
  if ((inputs.body !== undefined) !== (operation.body !== undefined)) {
    throw new HttpError(400, inputs.body !== undefined ? `${method} ${path} takes a body` : `DELETE ${path} takes no body`)
  }
  if (inputs.body !== undefined) refuseNullBytes(operation.body)
  const body = inputs.body === undefined ? undefined : checked('body', inputs.body, operation.body)
  return planWrite({ mount, root, method, parentId, id, query, body, ifMatch: ifMatchOf(operation), prefer: undefined })
}

/** The If-Match of an operation, whatever the case of its name. */
const ifMatchOf = (operation: Operation): string | undefined =>
  Object.entries(operation.headers ?? {}).find(([name]) => name.toLowerCase() === 'if-match')?.[1]
