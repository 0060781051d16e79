import { Type, type TSchema } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { HttpError } from '../http/errors.ts'
import { recordUrl } from '../http/links.ts'
import { bulkPreferences, returnPreference } from '../http/prefer.ts'
import type { Resource, ResourceRecord } from '../model/resource.ts'
import { NoQuerySchema } from '../schemas/common.ts'
import type { Alongside, BatchResult, BatchWrite, Precondition, CollectionStores, Versioned } from '../store/contract.ts'
import { ensureSeen } from '../store/refusals.ts'
import { bindingOf, bodyOf, guardOf, parentSeen, refuseHiddenParameters, replacedBy, shown } from './access.ts'
import { etagOf, ifMatch } from './conditional.ts'
import { parseFilters } from './list-query.ts'

/*
 * The one place a write is planned. A request to write, from a collection's route, an operation
 * of a batch, or a job replaying either, is read here into the write the store runs and the answer
 * it gives: which methods a path serves, what its body and query must be, what a nested path adds,
 * what a change of many records needs, what If-Match and Prefer ask. A precondition added here
 * holds on every surface that writes.
 */

/** A collection as the URL tree serves it: what a route is, and what an operation of a batch may name. */
export interface Mount {
  /** The path segments of the collection under API_PREFIX: `v1`, `zoos`, `:zoo_id`, `animals`. */
  segments: string[]
  resource: Resource
  /** When nested: the parent, and the field (also the path parameter) that names it. */
  nesting: { parent: Resource, field: string } | undefined
}

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
export interface WriteRequest {
  mount: Mount
  method: WriteMethod
  /** The parent's id of a nested path. */
  parentId: number | undefined
  /** The record's id of a record path; undefined for a collection path. */
  id: number | undefined
  query: Record<string, unknown>
  body: unknown
  ifMatch: string | undefined
  /** Prefer: what a route's request may ask of its answer (a batch's operations ask nothing). */
  prefer: string | string[] | undefined
}

/** What a write answers, as the route would alone: a batch answers each operation's in its results. */
export interface WriteAnswer {
  status: number
  headers: { location?: string, etag?: string, 'preference-applied'?: string }
  body?: unknown
}

/** A write ready to run, what bounds a change of many records (Prefer), and how to answer what it did. */
export interface PlannedWrite {
  write: BatchWrite
  limits?: { max?: number, dryRun: boolean }
  answer: (result: BatchResult) => WriteAnswer
}

/**
 * A write request made into the write the store runs: its parent (a nested path's, which must be
 * live when it runs), the parent's field of a nested create, If-Match and a nested record's
 * parent as its precondition, the filters of a change of many records and what Prefer bounds
 * it by, the access rules of the request's token (collections/access.ts: what its body may give,
 * and the guard the store checks the records against), and the answer.
 */
export function planWrite (request: FastifyRequest, asked: WriteRequest): PlannedWrite {
  const { mount: { resource, nesting }, method, parentId, id } = asked
  const binding = bindingOf(request, resource)
  const guard = guardOf(request, resource, binding)
  const base = {
    collection: resource.name,
    ...(nesting === undefined
      ? {}
      : { parent: { collection: nesting.parent.name, id: parentId as number, within: parentSeen(request, nesting) } }),
    ...(guard === undefined ? {} : { guard })
  }
  const returned = returnPreference(asked.prefer)
  const applied = returned === undefined ? {} : { 'preference-applied': `return=${returned}` }
  const withBody = (body: unknown): { body?: unknown } => returned === 'minimal' ? {} : { body }
  const answered = (versioned: Versioned): WriteAnswer => ({
    status: 201,
    headers: { location: recordUrl(request, resource, versioned.record.id as number), etag: etagOf(versioned.version), ...applied },
    ...withBody(shown(versioned.record, binding))
  })

  if (id !== undefined) {
    const matches = ifMatch(asked.ifMatch, `${resource.singular} ${id}`)
    const precondition = nesting === undefined ? matches : belongingTo(resource, nesting, parentId as number, matches)
    if (method === 'DELETE') return { write: { ...base, op: 'delete', id, precondition }, answer: () => ({ status: 204, headers: {} }) }
    const body = asked.body as ResourceRecord
    // A bound token's replace leaves what it may not see or give as it is: a change of every other field.
    const replacing = method === 'PUT' && binding === undefined
    const values = binding === undefined
      ? body
      : method === 'PUT' ? replacedBy(resource, binding, body) : bodyOf(resource, binding, body, false)
    return {
      write: { ...base, op: replacing ? 'replace' : 'update', id, values, precondition },
      answer: result => answered(result as Versioned)
    }
  }
  if (method === 'POST') {
    const many = Array.isArray(asked.body)
    const inputs = (many ? asked.body as ResourceRecord[] : [asked.body as ResourceRecord])
      .map(input => bodyOf(resource, binding, nesting === undefined ? input : { ...input, [nesting.field]: parentId as number }, true))
    return {
      write: { ...base, op: 'create', inputs, many },
      answer: result => many
        ? { status: 201, headers: applied, ...withBody((result as Versioned[]).map(created => shown(created.record, binding))) }
        : answered((result as Versioned[])[0] as Versioned)
    }
  }
  refuseHiddenParameters(resource, binding, asked.query)
  const filters = parseFilters(resource, asked.query)
  if (filters.length === 0) {
    throw new HttpError(400, `Invalid query: a change of many ${resource.name} needs at least one filter; ` +
      `to change every one, say so with a filter every ${resource.singular} matches, such as id_gte=1`)
  }
  if (nesting !== undefined) filters.push({ field: nesting.field, op: 'eq', value: parentId as number })
  const bulk = bulkPreferences(asked.prefer)
  const limits = { ...(bulk.max === undefined ? {} : { max: bulk.max }), dryRun: bulk.dryRun }
  const affected = (result: BatchResult): WriteAnswer => {
    const { records } = result as { records: ResourceRecord[] }
    return {
      status: 200,
      headers: bulk.applied.length === 0 ? {} : { 'preference-applied': bulk.applied.join(', ') },
      body: {
        affected: records.length,
        ...(bulk.representation ? { records: records.slice(0, MAX_REPRESENTED).map(record => shown(record, binding)) } : {})
      }
    }
  }
  return method === 'PATCH'
    ? {
        write: { ...base, op: 'updateWhere', filters, values: bodyOf(resource, binding, asked.body as ResourceRecord, false) },
        limits,
        answer: affected
      }
    : { write: { ...base, op: 'deleteWhere', filters }, limits, answer: affected }
}

/**
 * Runs one planned write alone, as its route does: a nested path's parent must be live (404,
 * 410), then the store's write of its kind, at most `records` records (WRITE_MAX_RECORDS).
 * A batch hands its writes to the store's batch instead, which asks the same of each.
 */
export async function runWrite (
  stores: CollectionStores, { resource, nesting }: Mount, { write, limits }: PlannedWrite, records: number,
  alongside: Alongside | undefined
): Promise<BatchResult> {
  const { parent } = write
  if (parent !== undefined && nesting !== undefined) await ensureSeen(stores.collection(nesting.parent), parent.id, parent.within)
  const store = stores.collection(resource)
  const bounds = { ...limits, dryRun: limits?.dryRun ?? false, records }
  const { guard } = write
  switch (write.op) {
    case 'create': return await store.create(write.inputs, write.many, records, alongside, guard)
    case 'replace': return await store.replace(write.id, write.values, write.precondition, alongside, guard)
    case 'update': return await store.update(write.id, write.values, write.precondition, alongside, guard)
    case 'delete':
      await store.delete(write.id, write.precondition, alongside, guard)
      return undefined
    case 'updateWhere': {
      const written = await store.updateWhere(write.filters, write.values, bounds, alongside, guard)
      return { records: written.map(versioned => versioned.record) }
    }
    case 'deleteWhere': return { records: await store.deleteWhere(write.filters, bounds, alongside, guard) }
  }
}
