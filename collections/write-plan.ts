import { Type, type TSchema } from '@sinclair/typebox'
import { HttpError } from '../http/errors.ts'
import { recordHref } from '../http/links.ts'
import { bulkPreferences, returnPreference } from '../http/prefer.ts'
import type { Resource, ResourceRecord } from '../model/resource.ts'
import { NoQuerySchema } from '../schemas/common.ts'
import type { Precondition, Versioned, Write, WriteResult } from '../store/contract.ts'
import { etagOf, ifMatch } from './conditional.ts'
import { parseFilters } from './list-query.ts'
import type { CollectionRequest, Mount } from './request.ts'

/*
 * The one place a write is planned. A request to write, from a collection's route, an operation
 * of a batch, or a job replaying either, is read here into the write the store runs and the answer
 * it gives: which methods a path serves, what its body and query must be, what a nested path adds,
 * what a change of many records needs, what If-Match and Prefer ask. A precondition added here
 * holds on every surface that writes.
 */

export const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const
export type WriteMethod = typeof WRITE_METHODS[number]

/**
 * The writes a path serves: a collection takes a create and a change of many records (PATCH,
 * DELETE); a record a replace, a change and a delete, of which a nested record takes only the
 * delete (its parent's field is the path's, and a change could move it out).
 */
export function writesServed ({ nesting }: Mount, item: boolean): WriteMethod[] {
  if (!item) return ['POST', 'PATCH', 'DELETE']
  return nesting === undefined ? ['PUT', 'PATCH', 'DELETE'] : ['DELETE']
}

/** The most records a create's array holds. */
const MAX_CREATED = 1000
/** The most records the answer of a change of many records holds (Prefer: return=representation). */
export const MAX_REPRESENTED = 1000

const createBodies = new WeakMap<Resource, Map<string, TSchema>>()

/**
 * The body of a POST to a collection: one record, or an array of up to MAX_CREATED created all or
 * none; without the parent's field when nested (the path names the parent). One object for the
 * same resource and field, which the validator compiles once.
 */
function createBody (resource: Resource, parentField: string | undefined): TSchema {
  let ofResource = createBodies.get(resource)
  if (ofResource === undefined) createBodies.set(resource, ofResource = new Map())
  const key = parentField ?? ''
  let schema = ofResource.get(key)
  if (schema === undefined) {
    const create = parentField === undefined
      ? resource.schemas.create
      : Type.Omit(resource.schemas.create, [parentField], { additionalProperties: false })
    schema = Type.Union([create, Type.Array(create, { minItems: 1, maxItems: MAX_CREATED })])
    ofResource.set(key, schema)
  }
  return schema
}

/** The schemas a write's body and query must match, whichever surface it comes from; no body for a delete. */
export function inputsOf (mount: Mount, method: Exclude<WriteMethod, 'DELETE'>, item: boolean): { body: TSchema, query: TSchema }
export function inputsOf (mount: Mount, method: WriteMethod, item: boolean): { body?: TSchema, query: TSchema }
export function inputsOf ({ resource, nesting }: Mount, method: WriteMethod, item: boolean): { body?: TSchema, query: TSchema } {
  const query = !item && method !== 'POST' ? resource.schemas.filters : NoQuerySchema
  switch (method) {
    case 'POST': return { body: createBody(resource, nesting?.field), query }
    case 'PUT': return { body: resource.schemas.replace, query }
    case 'PATCH': return { body: resource.schemas.patch, query }
    case 'DELETE': return { query }
  }
}

/** The most records a create may make at once: the array's bound, or WRITE_MAX_RECORDS when lower. */
export const createdAtMost = (records: number): number => Math.min(MAX_CREATED, records)

/**
 * Text holding U+0000, which PostgreSQL's text cannot store (SQLite would), is refused on either
 * engine with a 422 naming each field. Asked before validation, so that such a write is never
 * queued as a job.
 */
export function refuseNullBytes (body: unknown): void {
  const records = Array.isArray(body) ? body as unknown[] : [body]
  const errors = records.flatMap((record, i) => record === null || typeof record !== 'object'
    ? []
    : Object.entries(record)
      .filter(([, value]) => typeof value === 'string' && value.includes('\u0000'))
      .map(([name]) => {
        const field = Array.isArray(body) ? `${i}.${name}` : name
        return { field, code: 'pattern', message: `${field} must not contain a null byte` }
      }))
  if (errors.length > 0) throw new HttpError(422, `Validation failed: ${errors.map(e => e.message).join('; ')}`, { errors })
}

/** A nested path's record must belong to the parent the path names (404 otherwise), then pass If-Match. */
export function belongingTo (
  resource: Resource, nesting: { parent: Resource, field: string }, parentId: number, matches: Precondition | undefined
): Precondition {
  return current => {
    if (current.record[nesting.field] !== parentId) {
      throw new HttpError(404, `${resource.singular} ${current.record.id} is not in ${nesting.parent.singular} ${parentId}`)
    }
    matches?.(current)
  }
}

/** A write as a request asks for it, its body and query validated against `inputsOf`. */
export type WriteRequest = CollectionRequest & { method: WriteMethod }

/** What a write answers, as the route would alone: a batch answers each operation's in its results. */
export interface WriteAnswer {
  status: number
  headers: { location?: string, etag?: string, 'preference-applied'?: string }
  body?: unknown
}

/**
 * A write ready to run (`write`, with every check it holds), whether it is only tried (Prefer:
 * tx=rollback), what it answers to a `$ref` of a later operation of its batch (`body`) and to its
 * client (`answer`).
 */
export interface PlannedWrite {
  write: Write
  dryRun: boolean
  body: (result: WriteResult) => unknown
  answer: (result: WriteResult) => WriteAnswer
}

/**
 * A write request made into the write the store runs: its parent (a nested path's, which must be
 * live when it runs), the parent's field of a nested create, If-Match and a nested record's
 * parent as its precondition, the filters of a change of many records and what Prefer bounds
 * it by, and the answer. The access rules of the request's token are the records view's, which
 * runs it (store/bound.ts): what its body may give, what it sees, the guard of the records.
 */
export function planWrite (asked: WriteRequest): PlannedWrite {
  const { mount: { resource, nesting }, method, parentId, id } = asked
  const base = {
    collection: resource.name,
    // Within what the token sees there: the records view of the request fills that in (store/bound.ts).
    ...(nesting === undefined
      ? {}
      : { parent: { collection: nesting.parent.name, id: parentId as number, field: nesting.field, within: [] } })
  }
  const returned = returnPreference(asked.prefer)
  const applied = returned === undefined ? {} : { 'preference-applied': `return=${returned}` }
  const withBody = (body: unknown): { body?: unknown } => returned === 'minimal' ? {} : { body }
  const answered = (versioned: Versioned): WriteAnswer => ({
    status: 201,
    headers: { location: recordHref(asked.root, resource, versioned.record.id as number), etag: etagOf(versioned.version), ...applied },
    ...withBody(versioned.record)
  })

  if (id !== undefined) {
    const matches = ifMatch(asked.ifMatch, `${resource.singular} ${id}`)
    const precondition = nesting === undefined ? matches : belongingTo(resource, nesting, parentId as number, matches)
    if (method === 'DELETE') {
      const write: Write = { ...base, op: 'delete', id, precondition }
      return { write, dryRun: false, body: () => undefined, answer: () => ({ status: 204, headers: {} }) }
    }
    return {
      write: { ...base, op: method === 'PUT' ? 'replace' : 'update', id, values: asked.body as ResourceRecord, precondition },
      dryRun: false,
      body: result => (result as Versioned).record,
      answer: result => answered(result as Versioned)
    }
  }
  if (method === 'POST') {
    const many = Array.isArray(asked.body)
    const inputs = (many ? asked.body as ResourceRecord[] : [asked.body as ResourceRecord])
      .map(input => nesting === undefined ? input : { ...input, [nesting.field]: parentId as number })
    const body = (result: WriteResult): unknown => many
      ? (result as Versioned[]).map(created => created.record)
      : (result as Versioned[])[0]?.record
    return {
      write: { ...base, op: 'create', inputs, many },
      dryRun: false,
      body,
      answer: result => many
        ? { status: 201, headers: applied, ...withBody(body(result)) }
        : answered((result as Versioned[])[0] as Versioned)
    }
  }
  const filters = parseFilters(resource, asked.query)
  if (filters.length === 0) {
    throw new HttpError(400, `Invalid query: a change of many ${resource.name} needs at least one filter; ` +
      `to change every one, say so with a filter every ${resource.singular} matches, such as id_gte=1`)
  }
  const bulk = bulkPreferences(asked.prefer)
  const max = bulk.max === undefined ? {} : { max: bulk.max }
  const affected = (result: WriteResult): unknown => {
    const { records } = result as { records: ResourceRecord[] }
    return { affected: records.length, ...(bulk.representation ? { records: records.slice(0, MAX_REPRESENTED) } : {}) }
  }
  const headers = bulk.applied.length === 0 ? {} : { 'preference-applied': bulk.applied.join(', ') }
  const write: Write = method === 'PATCH'
    ? { ...base, op: 'updateWhere', filters, values: asked.body as ResourceRecord, ...max }
    : { ...base, op: 'deleteWhere', filters, ...max }
  return { write, dryRun: bulk.dryRun, body: affected, answer: result => ({ status: 200, headers, body: affected(result) }) }
}
