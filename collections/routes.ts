import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TInteger, type TObject, type TSchema, type TUnsafe } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { vary } from '../http/cache-control.ts'
import { HttpError } from '../http/errors.ts'
import { originOf, recordUrl } from '../http/links.ts'
import { allowOnly, type Method } from '../http/method-not-allowed.ts'
import { bulkPreferences, countPreference, returnPreference } from '../http/prefer.ts'
import { serializerFor } from '../http/serialization.ts'
import { NoQuerySchema, OptionsSchema } from '../schemas/common.ts'
import { IdSchema, PAGE_SIZE } from '../model/values.ts'
import { accepted, BODY_READ, componentsOf, empty, errors, GUARDED, recordRef, requestHeaders, withHeaders } from '../schemas/responses.ts'
import { changesRoute } from './changes.ts'
import { etagOf, ifMatch, noneMatch } from './conditional.ts'
import { embedded, embeddedProperties, embedParameter, embedsOf, parseEmbeds, type Answered, type Embed } from './embedding.ts'
import { listLinks, parseFields, parseFilters, parseListQuery } from './list-query.ts'
import { listEtag } from './revalidation.ts'
import { ensureLive } from '../store/refusals.ts'
import { capitalize, type Resource, type ResourceRecord } from '../model/resource.ts'
import type { Alongside, BulkLimits, CollectionStore, Filter, Precondition, Versioned } from '../store/contract.ts'

const MAX_BATCH = 1000
/**
 * The config of a write: the token's standing may be asked with the write's first statement
 * (PostgreSQL: the read of the record, the create itself, or the start of a transaction); what
 * would write before it (an Idempotency-Key, a queued job) asks it first.
 */
const WRITE = { standingAlongside: true } as const
/** A write that chooses its records by the query's filters: it needs the read scope too (auth/scopes.ts). */
const SELECTING_WRITE = { ...WRITE, selects: true } as const

/** What Fastify sets for a body its route schema serializes, set by hand where a read picks its serializer. */
const JSON_TYPE = 'application/json; charset=utf-8'

/** A collection served under a record of another: `/zoos/:zoo_id/animals` holds `zoo_id`. */
interface Nesting {
  parent: Resource
  parents: CollectionStore
  /** The child's field naming the parent (from its `references`), also the path parameter's name. */
  field: string
}

/** What every route of one collection shares: its resource, store, schemas and names. */
interface Collection {
  resource: Resource
  store: CollectionStore
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

/** The path parameters of any route of a collection; the parent's field only when nested. */
type Params = Record<string, number>

/** The instance a route plugin gets, typed by the TypeBox schemas of its routes. */
type Instance = Parameters<FastifyPluginAsyncTypebox>[0]

/** A body schema as it is validated, typed as the record it holds. */
const input = (schema: TObject) => Type.Unsafe<ResourceRecord>(schema)

/**
 * Text holding U+0000, which PostgreSQL's text cannot store (SQLite would), is refused on either
 * engine with a 422 naming each field.
 */
export function refuseNullBytesIn (body: unknown): void {
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

/** The preValidation of every write: `refuseNullBytesIn`, before validation, so that such a write is never queued as a job. */
async function refuseNullBytes (request: FastifyRequest): Promise<void> {
  refuseNullBytesIn(request.body)
}

/** The preValidation of a change of many records: a Prefer it cannot read is 400 before the change is queued as a job. */
async function refuseBadPreferences (request: FastifyRequest): Promise<void> {
  bulkPreferences(request.headers.prefer)
}

const createBodies = new WeakMap<Resource, Map<string, TSchema>>()

/**
 * The body of a POST to a collection: one record, or an array of up to MAX_BATCH created all or
 * none; without the parent's field when nested (the path names the parent). One object for the
 * same resource and field, which the validator compiles once.
 */
export function createBodyOf (resource: Resource, parentField: string | undefined): TSchema {
  let ofResource = createBodies.get(resource)
  if (ofResource === undefined) createBodies.set(resource, ofResource = new Map())
  const key = parentField ?? ''
  let schema = ofResource.get(key)
  if (schema === undefined) {
    const create = parentField === undefined
      ? resource.schemas.create
      : Type.Omit(resource.schemas.create, [parentField], { additionalProperties: false })
    schema = Type.Union([create, Type.Array(create, { minItems: 1, maxItems: MAX_BATCH })])
    ofResource.set(key, schema)
  }
  return schema
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

/**
 * Every route of one collection, generated from its Resource: list, create, read, replace,
 * update, delete and OPTIONS, with 405 for the rest. Given `within`, the collection is nested
 * under one record of that parent (`/zoos/:zoo_id/animals`) and serves list, create, read and
 * delete of the records that belong to it; the parent's field is the one of `references` that
 * names the parent collection.
 */
export function collectionRoutes (resource: Resource, options: { within?: Resource } = {}): FastifyPluginAsyncTypebox {
  const field = options.within === undefined ? undefined : parentField(resource, options.within)
  return async function routes (fastify) {
    if (field !== undefined && !fastify.prefix.endsWith(`/:${field}/${resource.name}`)) {
      throw new Error(`${resource.name} nested in ${fastify.prefix}: the path parameter must be :${field}`)
    }
    const nesting = options.within === undefined || field === undefined
      ? undefined
      : { parent: options.within, parents: fastify.storage.collections.collection(options.within), field }
    const scopeParams = nesting === undefined ? {} : { [nesting.field]: IdSchema }
    const collection: Collection = {
      resource,
      store: fastify.storage.collections.collection(resource),
      nesting,
      CollectionParams: Type.Object(scopeParams),
      ItemParams: Type.Unsafe<Params & { id: number }>(Type.Object({ ...scopeParams, id: IdSchema })),
      RecordSchema: recordRef(resource),
      one: `${/^[aeiou]/.test(resource.singular) ? 'an' : 'a'} ${resource.singular}`,
      of: nesting === undefined ? '' : `Of${capitalize(nesting.parent.singular)}`,
      within: nesting === undefined ? '' : ` of one ${nesting.parent.singular}`,
      parentErrors: nesting === undefined ? [] : [404, 410]
    }
    fastify.mounts.push({
      segments: fastify.prefix.slice(fastify.config.apiPrefix.length).split('/').slice(1),
      resource,
      nesting: nesting === undefined ? undefined : { parent: nesting.parent, field: nesting.field }
    })
    const collectionAllow = allowOnly(fastify, '/', ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'])
    const itemMethods: Method[] = nesting === undefined ? ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] : ['GET', 'DELETE', 'OPTIONS']
    const itemAllow = allowOnly(fastify, '/:id', itemMethods)
    if (nesting === undefined) allowOnly(fastify, '/changes', ['GET'])
    // Every route added from here on needs this collection's scope (the 405s above need none).
    fastify.addHook('onRoute', route => { route.config = { ...route.config, collection: resource.name } })

    listRoute(fastify, collection)
    createRoute(fastify, collection)
    readRoute(fastify, collection)
    if (nesting === undefined) await updateRoutes(fastify, collection)
    deleteRoute(fastify, collection)
    await bulkRoutes(fastify, collection)
    if (nesting === undefined) changesRoute(fastify, resource)
    optionsRoute(fastify, collection, '/', collectionAllow)
    optionsRoute(fastify, collection, '/:id', itemAllow)
  }
}

function parentField (resource: Resource, parent: Resource): string {
  const fields = Object.entries(resource.references).filter(([, name]) => name === parent.name).map(([field]) => field)
  if (fields.length !== 1) throw new Error(`${resource.name} must have exactly one field referencing ${parent.name} to be nested in it`)
  return fields[0] as string
}

/** In a nested collection, the parent must be live: 404 if it never was, 410 if deleted. */
async function parentOf ({ nesting }: Collection, params: Params): Promise<number | undefined> {
  if (nesting === undefined) return undefined
  const parentId = params[nesting.field] as number
  await ensureLive(nesting.parents, parentId)
  return parentId
}

/**
 * The live record a path names: 404 if it never existed (or is not in the parent), 410 if deleted.
 * `alongside` is asked in the round trip of the record's read.
 */
async function read (collection: Collection, params: Params, alongside?: Alongside): Promise<Versioned> {
  const { nesting, resource } = collection
  const parentId = await parentOf(collection, params)
  const id = params.id as number
  const found = await collection.store.get(id, alongside)
  if (found === undefined) await ensureLive(collection.store, id)
  if (nesting !== undefined) belongingTo(resource, nesting, parentId as number, undefined)(found as Versioned)
  return found as Versioned
}

/** What a write checks in its own transaction: the parent of a nested path, then If-Match. */
async function preconditionOf (
  collection: Collection, params: Params, ifMatchHeader: string | undefined
): Promise<Precondition | undefined> {
  const { nesting, resource } = collection
  const matches = ifMatch(ifMatchHeader, `${resource.singular} ${params.id}`)
  if (nesting === undefined) return matches
  return belongingTo(resource, nesting, await parentOf(collection, params) as number, matches)
}

/** A record with only `fields` (in their order), or as it is when they are undefined. */
function project (record: ResourceRecord, fields: readonly string[] | undefined): Answered {
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
function readShapes (instance: Instance, resource: Resource, embeds: readonly Embed[] = []) {
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

function answer (request: FastifyRequest, reply: FastifyReply, status: 200 | 201, resource: Resource, { record, version }: Versioned) {
  reply.code(status).header('ETag', etagOf(version))
  if (status === 201) reply.header('Location', recordUrl(request, resource, record.id as number))
  return minimal(request, reply) ? reply.send() : reply.send(record)
}

/**
 * Whether a write answers without its body, as `Prefer: return=minimal` asks (RFC 7240 §4.2):
 * the status, Location and ETag say what a client needs. Says what was applied when asked.
 */
function minimal (request: FastifyRequest, reply: FastifyReply): boolean {
  const asked = returnPreference(request.headers.prefer)
  if (asked === undefined) return false
  reply.header('Preference-Applied', `return=${asked}`)
  return asked === 'minimal'
}

/** How a write says what Prefer may ask of its answer. */
const RETURN_PREFERENCE = 'Prefer: return=minimal answers the same status and headers without a body; '

const listQuerystrings = new WeakMap<Resource, Map<string, TObject>>()

/**
 * The querystring of a collection's list: its resource's, with `embed` when it can embed: one
 * object for the same embeds, which the validator compiles once (it keeps what it compiled by the
 * schema object) for every instance of the process.
 */
function listQuerystring (resource: Resource, embeds: readonly Embed[]): TObject {
  let ofResource = listQuerystrings.get(resource)
  if (ofResource === undefined) listQuerystrings.set(resource, ofResource = new Map())
  const key = embeds.map(embed => `${embed.name}:${embed.resource.name}`).join(',')
  let query = ofResource.get(key)
  if (query === undefined) {
    query = { ...resource.schemas.list, properties: { ...resource.schemas.list.properties, ...embedParameter(embeds) } }
    ofResource.set(key, query)
  }
  return query
}

function listRoute (fastify: Instance, collection: Collection): void {
  const { resource, nesting, of, within } = collection
  const embeds = embedsOf(resource, fastify.collections.resources)
  const shapes = readShapes(fastify, resource, embeds)
  const serializers = {
    full: shapes.serialize(Type.Array(shapes.full)),
    sparse: shapes.serialize(Type.Array(shapes.sparse))
  }
  const page = Type.Array(shapes.either, { description: 'A page of records, [] past the end' })
  const query = listQuerystring(resource, embeds)
  const { collections } = fastify.storage
  fastify.get('/', {
    // The list reads the collections' stamps first, and writes nothing.
    config: { standingAlongside: true },
    schema: {
      operationId: `list${capitalize(resource.name)}${of}`,
      summary: `List ${resource.name}${within}`,
      description: `${PAGE_SIZE.default} records a page unless limit or per_page says otherwise (at most ${PAGE_SIZE.max}). ` +
        'Page with limit and offset, or page and per_page, or follow the next link of the Link header: ' +
        'its keyset cursor costs the same on every page. Sort with sortby and order; filter any field by equality (<field>), ' +
        'range (<field>_gt, _gte, _lt, _lte), difference (_ne) or a comma list (_in)' +
        `${resource.search.length === 0 ? '' : `; search ${resource.search.join(', ')} with q`}. ` +
        'fields answers only the fields named (and id)' +
        (embeds.length === 0 ? '' : `; embed adds ${embeds.map(e => e.name).join(' or ')} to each record`) +
        (embeds.length === 0 ? '' : ' (with the read scope of its collection)') +
        '. ' +
        'X-Total-Count counts every record the filters match, unless Prefer: count=none spares the count. ' +
        'The weak ETag changes whenever the page would: If-None-Match naming it answers 304 without reading the page. ' +
        'An unknown or ill-typed parameter is 400, never ignored.',
      tags: [resource.name],
      params: collection.CollectionParams,
      querystring: query,
      headers: requestHeaders('If-None-Match', 'Prefer'),
      response: {
        200: withHeaders(page, 'ETag', 'Link', 'X-Total-Count', 'Preference-Applied'),
        304: empty('Not Modified: nothing the page reads has changed since the If-None-Match tag', 'ETag', 'Preference-Applied'),
        ...errors(...GUARDED, 400, ...collection.parentErrors)
      }
    }
  }, async (request, reply) => {
    const parentId = await parentOf(collection, request.params)
    const listing = parseListQuery(resource, request.query)
    const embedding = parseEmbeds(embeds, (request.query as { embed?: string }).embed)
    for (const embed of embedding) fastify.requireScopes(request, [`${embed.resource.name}:read`])
    if (nesting !== undefined) listing.query.filters.push({ field: nesting.field, op: 'eq', value: parentId as number })
    const asked = countPreference(request.headers.prefer)
    const counting = asked ?? 'exact'
    vary(reply, 'Prefer')
    if (asked !== undefined) reply.header('Preference-Applied', `count=${counting}`)
    // Read before the page: a write committed meanwhile makes the next request's tag differ (collections/revalidation.ts).
    const stamps = await collections.changes([resource.name, ...embedding.map(embed => embed.resource.name)], request.standing ?? undefined)
    const etag = listEtag(stamps, originOf(request), request.url, counting)
    reply.header('ETag', etag)
    if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send()
    // One record more than the page tells whether a next page exists.
    const found = await collection.store.list({ ...listing.query, limit: listing.size + 1 }, { counting, changes: stamps[0] })
    const items = found.items.slice(0, listing.size)
    // Parsed apart from the origin: one made of a Host header that no URL can hold must not fail the answer.
    const url = new URL(request.url, 'http://localhost')
    if (found.total !== undefined) reply.header('X-Total-Count', found.total)
    reply.header('Link', listLinks(originOf(request), url, listing, found.total, items.at(-1), found.items.length > listing.size))
    reply.type(JSON_TYPE).serializer(listing.fields === undefined ? serializers.full : serializers.sparse)
    if (listing.fields === undefined && embedding.length === 0) return reply.send(items)
    const members = await embedded(embedding, items, embeddedResource => collections.collection(embeddedResource))
    return reply.send(items.map((record, i) => Object.assign(project(record, listing.fields), members[i])))
  })
}

function createRoute (fastify: Instance, collection: Collection): void {
  const { resource, nesting, of, RecordSchema } = collection
  const created = Type.Union([RecordSchema, Type.Array(RecordSchema)])
  fastify.post('/', {
    config: WRITE,
    schema: {
      operationId: `create${capitalize(resource.singular)}${of}`,
      summary: `Create ${collection.one}, or several at once from an array (all or none)`,
      description: `An object creates one ${resource.singular}: 201 with its Location and ETag. ` +
        `An array creates up to ${Math.min(MAX_BATCH, fastify.config.writeMaxRecords)} (WRITE_MAX_RECORDS), all or none: ` +
        '201 with the array. ' +
        `${nesting === undefined ? '' : `${nesting.field} is taken from the path. `}` +
        `Idempotency-Key makes a retry safe. ${RETURN_PREFERENCE}Prefer: respond-async queues the write as a background job (202).`,
      tags: [resource.name],
      params: collection.CollectionParams,
      querystring: NoQuerySchema,
      headers: requestHeaders('Idempotency-Key', 'Prefer'),
      body: Type.Unsafe<ResourceRecord | ResourceRecord[]>(createBodyOf(resource, nesting?.field)),
      response: {
        201: withHeaders({
          ...created,
          description: 'Created: the record (with Location and ETag), or the array of records (none with return=minimal)'
        }, 'Location', 'ETag', 'Idempotent-Replayed', 'Preference-Applied'),
        ...accepted,
        ...errors(...GUARDED, ...BODY_READ, 409, 422, ...collection.parentErrors)
      }
    },
    preValidation: refuseNullBytes
  }, async (request, reply) => {
    const parentId = await parentOf(collection, request.params)
    const body = request.body
    const inputs = (Array.isArray(body) ? body : [body])
      .map(record => nesting === undefined ? record : { ...record, [nesting.field]: parentId as number })
    const { writeMaxRecords } = fastify.config
    const versions = await collection.store.create(inputs, Array.isArray(body), writeMaxRecords, request.standing ?? undefined)
    if (!Array.isArray(body)) return answer(request, reply, 201, resource, versions[0] as Versioned)
    reply.code(201)
    return minimal(request, reply) ? reply.send() : reply.send(versions.map(c => c.record))
  })
}

function readRoute (fastify: Instance, collection: Collection): void {
  const { resource, of } = collection
  const shapes = readShapes(fastify, resource)
  const serializers = { full: shapes.serialize(shapes.full), sparse: shapes.serialize(shapes.sparse) }
  fastify.get('/:id', {
    // The read of one record asks the collection first (a nested one, after its parent), and writes nothing.
    config: { standingAlongside: true },
    schema: {
      operationId: `get${capitalize(resource.singular)}${of}`,
      summary: `Read one ${resource.singular}`,
      description: `With its ETag; If-None-Match naming it answers 304 without a body. 410 for ${collection.one} that was deleted. ` +
        'fields answers only the fields named (and id), with an ETag of its own.',
      tags: [resource.name],
      params: collection.ItemParams,
      querystring: resource.schemas.read,
      headers: requestHeaders('If-None-Match'),
      response: {
        200: withHeaders({ ...shapes.either, description: 'The record' }, 'ETag'),
        304: empty('Not Modified: the If-None-Match tag is current', 'ETag'),
        ...errors(...GUARDED, 400, 404, 410)
      }
    }
  }, async (request, reply) => {
    const fields = parseFields(resource, request.query.fields as string | undefined)
    const { record, version } = await read(collection, request.params, request.standing ?? undefined)
    const etag = etagOf(version, fields)
    reply.header('ETag', etag)
    // The client's copy is current: it may keep using it (RFC 9110 §15.4.5).
    if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send()
    return reply.type(JSON_TYPE).serializer(fields === undefined ? serializers.full : serializers.sparse).send(project(record, fields))
  })
}

/** A JSON Merge Patch (RFC 7386): JSON whose members replace the record's, null clearing one. */
const MERGE_PATCH = 'application/merge-patch+json'

/**
 * PUT replaces every writable field, PATCH changes some; both answer 201 with the record. PATCH
 * also takes a JSON Merge Patch, which for a record of fields with no members of their own says
 * exactly what a PATCH in JSON says (null clears a nullable field; on a required one it is 422, as
 * the schema says): the same parser and schema, registered in a scope of its own so that no other
 * route takes that media type.
 */
async function updateRoutes (fastify: Instance, collection: Collection): Promise<void> {
  const { resource, store, RecordSchema } = collection
  const updates = [
    {
      method: 'PUT',
      verb: 'replace',
      body: resource.schemas.replace,
      write: store.replace.bind(store),
      summary: `Replace ${collection.one}: every writable field (read-only ones are ignored)`,
      description: 'The body holds every writable field; id, created_at and updated_at are ignored, ' +
        'so a body read with GET can be sent back. ',
      headers: requestHeaders('If-Match', 'Prefer')
    },
    {
      method: 'PATCH',
      verb: 'update',
      body: resource.schemas.patch,
      write: store.update.bind(store),
      summary: `Change some fields of ${collection.one}`,
      description: 'The body holds only the fields to change, as JSON or as a JSON Merge Patch (application/merge-patch+json), ' +
        'where null clears a field that may be empty. Idempotency-Key makes a retry safe. ',
      headers: requestHeaders('If-Match', 'Idempotency-Key', 'Prefer')
    }
  ] as const
  for (const { method, verb, body, write, summary, description, headers } of updates) {
    const patch = method === 'PATCH'
    const replayed = patch ? ['Idempotent-Replayed' as const] : []
    const register = (scope: Instance): void => {
      scope.route({
        method,
        url: '/:id',
        config: patch ? { ...WRITE, bodyTypes: [MERGE_PATCH] } : WRITE,
        schema: {
          operationId: `${verb}${capitalize(resource.singular)}`,
          summary,
          description: `${description}201 with the complete record and its new ETag. ${RETURN_PREFERENCE}` +
          'If-Match makes the write conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).',
          tags: [resource.name],
          params: collection.ItemParams,
          querystring: NoQuerySchema,
          headers,
          body: input(body),
          ...(patch ? { consumes: ['application/json', MERGE_PATCH] } : {}),
          response: {
            201: withHeaders({ ...RecordSchema, description: 'Changed: the complete record (none with return=minimal)' },
              'ETag', 'Location', 'Preference-Applied', ...replayed),
            ...accepted,
            ...errors(...GUARDED, ...BODY_READ, 404, 409, 410, 412, 422)
          }
        },
        preValidation: refuseNullBytes,
        handler: async (request, reply) => {
          const precondition = await preconditionOf(collection, request.params, request.headers['if-match'])
          const written = await write(request.params.id, request.body, precondition, request.standing ?? undefined)
          return answer(request, reply, 201, resource, written)
        }
      })
    }
    if (patch) await inMergePatchScope(fastify, register)
    else register(fastify)
  }
}

/** Registers routes in a scope that also parses a JSON Merge Patch body, as JSON. */
async function inMergePatchScope (fastify: Instance, register: (scope: Instance) => void): Promise<void> {
  await fastify.register(async scope => {
    scope.addContentTypeParser(MERGE_PATCH, { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'))
    register(scope)
  })
}

function deleteRoute (fastify: Instance, collection: Collection): void {
  const { resource, of } = collection
  const referrers = fastify.collections.resources.filter(r => Object.values(r.references).includes(resource.name)).map(r => r.name)
  const conflict = referrers.length === 0
    ? ''
    : ` A ${resource.singular} that ${referrers.join(' or ')} still name is 409, and nothing is deleted.`
  fastify.delete('/:id', {
    config: WRITE,
    schema: {
      operationId: `delete${capitalize(resource.singular)}${of}`,
      summary: `Delete ${collection.one}`,
      description: `204; its id is never used again and answers 410 from then on.${conflict} ` +
        'If-Match makes it conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).',
      tags: [resource.name],
      params: collection.ItemParams,
      querystring: NoQuerySchema,
      headers: requestHeaders('If-Match', 'Prefer'),
      response: { 204: empty('Deleted'), ...accepted, ...errors(...GUARDED, ...BODY_READ, 404, 409, 410, 412) }
    }
  }, async (request, reply) => {
    const precondition = await preconditionOf(collection, request.params, request.headers['if-match'])
    await collection.store.delete(request.params.id, precondition, request.standing ?? undefined)
    return reply.code(204).send()
  })
}

/**
 * OPTIONS of the collection or of one record: the methods (also in Allow), the writable fields
 * and the JSON Schema a created record must match. The record or parent must exist, as for GET.
 */
function optionsRoute (fastify: Instance, collection: Collection, url: '/' | '/:id', allow: string): void {
  const { resource, of } = collection
  fastify.options(url, {
    schema: {
      operationId: `describe${capitalize(resource.name)}${url === '/' ? '' : 'Item'}${of}`,
      summary: `Methods allowed here and the ${resource.singular} fields a client may write`,
      description: 'The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. ' +
        'A CORS preflight on the same path is answered by the CORS layer instead, without a token.',
      tags: [resource.name],
      params: url === '/' ? collection.CollectionParams : collection.ItemParams,
      querystring: NoQuerySchema,
      response: {
        200: withHeaders({ ...OptionsSchema, description: 'What a client may do here' }, 'Allow'),
        204: empty('A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS'),
        ...errors(...GUARDED, ...BODY_READ, 404, 410)
      }
    }
  }, async (request, reply) => {
    const params: Params = request.params
    if (params.id !== undefined) await read(collection, params)
    else await parentOf(collection, params)
    return reply.header('Allow', allow).send({ methods: allow.split(', '), writable: resource.writable, schema: resource.schemas.create })
  })
}

/** The most records the answer of a change of many records holds (Prefer: return=representation). */
const MAX_REPRESENTED = 1000

/**
 * PATCH and DELETE of a collection's path change every record its query's filters match (the list's
 * filters and q; at least one, so that no request changes a whole collection by omission), in one
 * transaction, each record under the rules of its own write (references, unique values, 409 for a
 * record still named): all or none. 200 with how many; Prefer says how many at most
 * (max-affected), whether to undo it all and answer what it would have done (tx=rollback), and
 * whether to answer the records (return=representation).
 */
async function bulkRoutes (fastify: Instance, collection: Collection): Promise<void> {
  const { resource, nesting, of, RecordSchema } = collection
  const answer = withHeaders(Type.Object({
    affected: Type.Integer({ minimum: 0, description: 'How many records were changed (with tx=rollback: would have been)' }),
    records: Type.Optional(Type.Array(RecordSchema, {
      maxItems: MAX_REPRESENTED,
      description: `With Prefer: return=representation, the first ${MAX_REPRESENTED} of them in id order: ` +
        'as written, or as they were before a delete'
    }))
  }, { additionalProperties: false, description: 'Changed' }), 'Preference-Applied')
  const description = `Every ${resource.singular}${collection.within} the query's filters match (at least one filter), in one ` +
    'transaction, each under the rules of its own write: all or none. Needs the read scope as well as the write scope. ' +
    `More than ${fastify.config.writeMaxRecords} matches (WRITE_MAX_RECORDS) is 422, and so is more than Prefer: max-affected=N ` +
    'allows; tx=rollback answers what it would do and changes nothing; return=representation adds the records (at most ' +
    `${MAX_REPRESENTED}); a max-affected or tx that cannot be read is 400.`
  const change = async (
    request: FastifyRequest,
    reply: FastifyReply,
    write: (filters: Filter[], limits: BulkLimits) => Promise<ResourceRecord[]>
  ) => {
    const parentId = await parentOf(collection, request.params as Params)
    const filters = parseFilters(resource, request.query as Record<string, unknown>)
    if (filters.length === 0) {
      throw new HttpError(400, `Invalid query: a change of many ${resource.name} needs at least one filter; ` +
        `to change every one, say so with a filter every ${resource.singular} matches, such as id_gte=1`)
    }
    if (nesting !== undefined) filters.push({ field: nesting.field, op: 'eq', value: parentId as number })
    const asked = bulkPreferences(request.headers.prefer)
    const records = await write(filters, { max: asked.max, dryRun: asked.dryRun, records: fastify.config.writeMaxRecords })
    if (asked.applied.length > 0) reply.header('Preference-Applied', asked.applied.join(', '))
    return reply.send({ affected: records.length, ...(asked.representation ? { records: records.slice(0, MAX_REPRESENTED) } : {}) })
  }
  const common = {
    tags: [resource.name],
    params: collection.CollectionParams,
    querystring: resource.schemas.filters,
    headers: requestHeaders('Idempotency-Key', 'Prefer')
  }
  const patch = (scope: Instance): void => {
    scope.patch('/', {
      config: { ...SELECTING_WRITE, bodyTypes: [MERGE_PATCH] },
      schema: {
        ...common,
        operationId: `update${capitalize(resource.name)}${of}`,
        summary: `Change some fields of every ${resource.singular}${collection.within} the filters match`,
        description: `${description} The body holds the fields to change, as JSON or as a JSON Merge Patch.`,
        body: input(resource.schemas.patch),
        consumes: ['application/json', MERGE_PATCH],
        response: { 200: answer, ...accepted, ...errors(...GUARDED, ...BODY_READ, 409, 422, ...collection.parentErrors) }
      },
      preValidation: [refuseNullBytes, refuseBadPreferences]
    }, async (request, reply) => change(request, reply, async (filters, limits) =>
      (await collection.store.updateWhere(filters, request.body, limits, request.standing ?? undefined)).map(written => written.record)))
  }
  await inMergePatchScope(fastify, patch)
  fastify.delete('/', {
    config: SELECTING_WRITE,
    preValidation: refuseBadPreferences,
    schema: {
      ...common,
      operationId: `delete${capitalize(resource.name)}${of}`,
      summary: `Delete every ${resource.singular}${collection.within} the filters match`,
      description: `${description} A record that others still name refuses it all (409).`,
      response: { 200: answer, ...accepted, ...errors(...GUARDED, ...BODY_READ, 409, 422, ...collection.parentErrors) }
    }
  }, async (request, reply) => change(request, reply, (filters, limits) =>
    collection.store.deleteWhere(filters, limits, request.standing ?? undefined)))
}
