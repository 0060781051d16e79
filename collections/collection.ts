import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TInteger, type TObject, type TSchema, type TUnsafe } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { versionRoot } from '../http/links.ts'
import { serializerFor } from '../http/serialization.ts'
import { capitalize, type Resource, type ResourceRecord } from '../model/resource.ts'
import { IdSchema } from '../model/values.ts'
import { componentsOf, recordRef } from '../schemas/responses.ts'
import type { BoundStores } from '../store/bound.ts'
import type { Versioned } from '../store/contract.ts'
import { embeddedProperties, type Answered, type Embed } from './embedding.ts'
import type { Mount } from './request.ts'
import { belongingTo, planWrite, type WriteMethod } from './write-plan.ts'

/** The instance a route plugin gets, typed by the TypeBox schemas of its routes. */
export type Instance = Parameters<FastifyPluginAsyncTypebox>[0]

/** The path parameters of any route of a collection; the parent's field only when nested. */
export type Params = Record<string, number>

/** A collection served under a record of another: `/zoos/:zoo_id/animals` holds `zoo_id`. */
interface Nesting {
  parent: Resource
  /** The child's field naming the parent (from its `references`), also the path parameter's name. */
  field: string
}

/** What every route of one collection shares: where it is mounted, its schemas and names. */
export interface Collection {
  mount: Mount
  resource: Resource
  nesting: Nesting | undefined
  /** The path parameters of the collection (`/`) and of one record (`/:id`). */
  CollectionParams: TObject<Record<string, TInteger>>
  ItemParams: TUnsafe<Params & { id: number }>
  /** The record as answers serialize it (a $ref to its component). */
  RecordSchema: TSchema
  /** The singular with its article: `a record`, `an item`. */
  one: string
  /** Operation id suffix (`Of<Parent>`) and summary suffix (` of one <parent>`) of a nested collection. */
  of: string
  within: string
  /** A nested route answers 404 or 410 for its parent too. */
  parentErrors: number[]
}

/** What Fastify sets for a body its route schema serializes, set by hand where a read picks its serializer. */
export const JSON_TYPE = 'application/json; charset=utf-8'

/** A JSON Merge Patch (RFC 7386): JSON whose members replace the record's, null clearing one. */
export const MERGE_PATCH = 'application/merge-patch+json'

/**
 * The collection of `resource` as the routes of `fastify` serve it, nested under `within` when
 * given, and mounted where `fastify.prefix` says (what a batch's operation may name).
 */
export function collectionOf (fastify: Instance, resource: Resource, within: Resource | undefined): Collection {
  const field = within === undefined ? undefined : parentField(resource, within)
  if (field !== undefined && !fastify.prefix.endsWith(`/:${field}/${resource.name}`)) {
    throw new Error(`${resource.name} nested in ${fastify.prefix}: the path parameter must be :${field}`)
  }
  const nesting = within === undefined || field === undefined ? undefined : { parent: within, field }
  const scopeParams = nesting === undefined ? {} : { [nesting.field]: IdSchema }
  const mount: Mount = {
    segments: fastify.prefix.slice(fastify.config.apiPrefix.length).split('/').slice(1),
    resource,
    nesting
  }
  return {
    mount,
    resource,
    nesting,
    CollectionParams: Type.Object(scopeParams),
    ItemParams: Type.Unsafe<Params & { id: number }>(Type.Object({ ...scopeParams, id: IdSchema })),
    RecordSchema: recordRef(resource),
    one: `${/^[aeiou]/.test(resource.singular) ? 'an' : 'a'} ${resource.singular}`,
    of: nesting === undefined ? '' : `Of${capitalize(nesting.parent.singular)}`,
    within: nesting === undefined ? '' : ` of one ${nesting.parent.singular}`,
    parentErrors: nesting === undefined ? [] : [404, 410]
  }
}

function parentField (resource: Resource, parent: Resource): string {
  const fields = Object.entries(resource.references).filter(([, name]) => name === parent.name).map(([field]) => field)
  if (fields.length !== 1) throw new Error(`${resource.name} must have exactly one field referencing ${parent.name} to be nested in it`)
  return fields[0] as string
}

/**
 * In a nested collection, the parent must be live, and one the token sees: 404 if it never was
 * (or the token does not see it), 410 if deleted.
 */
export async function parentOf ({ nesting }: Collection, params: Params, records: BoundStores): Promise<number | undefined> {
  if (nesting === undefined) return undefined
  const parentId = params[nesting.field] as number
  await records.collection(nesting.parent).ensureSeen(parentId)
  return parentId
}

/**
 * The live record a path names, as the token sees it: 404 if it never existed (or is not in the
 * parent, or the token does not see it), 410 if deleted.
 */
export async function read (collection: Collection, params: Params, records: BoundStores): Promise<Versioned> {
  const { nesting, resource } = collection
  const parentId = await parentOf(collection, params, records)
  const found = await records.collection(resource).live(params.id as number)
  if (nesting !== undefined) belongingTo(resource, nesting, parentId as number, undefined)(found)
  return found
}

/** Validated path parameters, every one an id (IdSchema): the parent's and the record's. */
function idsIn (params: unknown): Params {
  const ids: Params = {}
  if (typeof params !== 'object' || params === null) return ids
  for (const [name, value] of Object.entries(params)) if (typeof value === 'number') ids[name] = value
  return ids
}

/** Whether a validated query string is an object of parameters (it is, once its schema passed). */
const isParameters = (query: unknown): query is Record<string, unknown> => typeof query === 'object' && query !== null

/**
 * The handler of every write route: the request made a value (collections/request.ts), planned
 * (collections/write-plan.ts), run by the store as one write, and answered as planned.
 */
export function writeHandler (collection: Collection, method: WriteMethod) {
  const { mount, nesting } = collection
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { headers, server } = request
    const params = idsIn(request.params)
    const planned = planWrite({
      mount,
      root: versionRoot(request),
      method,
      parentId: nesting === undefined ? undefined : params[nesting.field],
      id: params.id,
      query: isParameters(request.query) ? request.query : {},
      body: request.body,
      ifMatch: headers['if-match'],
      prefer: headers.prefer
    })
    const result = await request.records.write(planned.write, { records: server.config.writeMaxRecords, dryRun: planned.dryRun })
    const { status, headers: answered, body } = planned.answer(result)
    reply.code(status).headers(answered)
    return body === undefined ? reply.send() : reply.send(body)
  }
}

/** A record with only `fields` (in their order), or as it is when they are undefined. */
export function project (record: ResourceRecord, fields: readonly string[] | undefined): Answered {
  if (fields === undefined) return record
  const sparse: Answered = {}
  for (const field of fields) sparse[field] = record[field]
  return sparse
}

/**
 * The shapes of a record as reads answer it: every field (`full`), or `id` and those `fields=`
 * names (`sparse`); each with the members of `embeds`. Documented as either, serialized by the
 * serializer of the one the request asks for.
 */
export function readShapes (instance: Instance, resource: Resource, embeds: readonly Embed[] = []) {
  const { properties } = resource.schemas.record
  const embeddable = embeddedProperties(embeds)
  const full = embeds.length === 0
    ? recordRef(resource)
    : Type.Object({ ...properties, ...embeddable }, { additionalProperties: false })
  const sparse = Type.Object({
    ...Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, name === 'id' ? schema : Type.Optional(schema)])),
    ...embeddable
  }, { additionalProperties: false, description: `With fields=: id and the ${resource.singular} fields named` })
  const components = componentsOf(instance.collections.resources)
  return {
    full,
    sparse,
    either: Type.Union([full, sparse]),
    serialize: (shape: TSchema) => serializerFor(components, shape)
  }
}

/** Registers routes in a scope that also parses a JSON Merge Patch body, as JSON. */
export async function inMergePatchScope (fastify: Instance, register: (scope: Instance) => void): Promise<void> {
  await fastify.register(async scope => {
    scope.addContentTypeParser(MERGE_PATCH, { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'))
    register(scope)
  })
}
