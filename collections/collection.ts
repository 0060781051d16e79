import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TInteger, type TObject, type TSchema, type TUnsafe } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { originOf, versionRoot } from '../http/links.ts'
import { serializerFor } from '../http/serialization.ts'
import { capitalize, type Resource } from '../model/resource.ts'
import { IdSchema } from '../model/values.ts'
import { componentsOf, recordRef } from '../schemas/responses.ts'
import { embeddedProperties, type Embed } from './embedding.ts'
import type { ReadRequest } from './read-plan.ts'
import type { Mount } from './request.ts'
import { planWrite, type WriteMethod } from './write-plan.ts'

/** The instance a route plugin gets, typed by the TypeBox schemas of its routes. */
export type Instance = Parameters<FastifyPluginAsyncTypebox>[0]

/** The path parameters of a collection's route, each an id its schema validated; the parent's field only when nested. */
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

/** Whether a validated query string is an object of parameters (it is, once its schema passed). */
const isParameters = (query: unknown): query is Record<string, unknown> => typeof query === 'object' && query !== null

/**
 * The request value of a read route (collections/read-plan.ts). A class, its fields set once in
 * its constructor: the origin and the root are made only when read (a list's links and tag),
 * as behind a trusted proxy they cost more than all the rest of a read of one record, and an
 * object literal with getters is made by the runtime, slowly, every time (docs/benchmarks.md).
 */
class RouteReadRequest implements ReadRequest {
  readonly mount: Mount
  readonly parentId: number | undefined
  readonly id: number | undefined
  readonly query: Record<string, unknown>
  readonly body = undefined
  readonly ifMatch = undefined
  readonly prefer: string | string[] | undefined
  readonly url: string
  readonly ifNoneMatch: string | undefined
  readonly #request: FastifyRequest

  constructor ({ mount, nesting }: Collection, request: FastifyRequest) {
    const { headers } = request
    const params = request.params as Params
    this.mount = mount
    this.parentId = nesting === undefined ? undefined : params[nesting.field]
    this.id = params.id
    this.query = isParameters(request.query) ? request.query : {}
    this.prefer = headers.prefer
    this.url = request.url
    this.ifNoneMatch = headers['if-none-match']
    this.#request = request
  }

  get root (): string {
    return versionRoot(this.#request)
  }

  get origin (): string {
    return originOf(this.#request)
  }

  authorize (scopes: readonly string[]): void {
    this.#request.server.requireScopes(this.#request, scopes)
  }
}

/** The request value of a read route of `collection`, with what only reads take (collections/read-plan.ts). */
export const readRequestOf = (collection: Collection, request: FastifyRequest): ReadRequest => new RouteReadRequest(collection, request)

/**
 * The handler of every write route: the request made a value (collections/request.ts), planned
 * (collections/write-plan.ts), run by the store as one write, and answered as planned.
 */
export function writeHandler (collection: Collection, method: WriteMethod) {
  const { mount, nesting } = collection
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { headers, server } = request
    const params = request.params as Params
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
