import { Type, type TSchema } from '@sinclair/typebox'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { IdSchema, OptionsSchema } from '../schemas/common.js'
import type { Resource, ResourceRecord } from '../schemas/resource.js'
import { accepted, BODY_READ, empty, errors, GUARDED, recordRef, withHeaders } from '../schemas/responses.js'
import { mustBeLive, type Versioned } from '../store/types.js'
import { etagOf, ifMatch, noneMatch } from './conditional.js'
import { HttpError } from './errors.js'
import { recordUrl } from './links.js'
import { listLinks, parseListQuery } from './list-query.js'
import { allowOnly, type Method } from './method-not-allowed.js'

/** A collection served under a record of another: `/zoos/:zoo_id/animals` holds `zoo_id`. */
export interface Nesting {
  parent: Resource
  /** The child's field naming the parent, also the path parameter's name. */
  field: string
}

const MAX_BATCH = 1000
const NoQuery = Type.Object({}, { additionalProperties: false })

type Params = { id?: number } & Record<string, number | undefined>

/**
 * Every route of one collection, generated from its Resource: list, create, read, replace,
 * update, delete and OPTIONS, with 405 for the rest. Nested, it serves list, create, read and
 * delete of the records that belong to one parent.
 */
export function collectionRoutes (resource: Resource, nesting?: Nesting): FastifyPluginAsync {
  return async function routes (fastify) {
    const store = fastify.store.collection(resource)
    const parents = nesting === undefined ? undefined : fastify.store.collection(nesting.parent)
    const { create, replace, patch, list } = resource.schemas
    const RecordSchema = recordRef(resource)
    // A nested route answers 404 or 410 for its parent too.
    const parentErrors = nesting === undefined ? [] : [404, 410]
    const tag = resource.name
    const of = nesting === undefined ? '' : `Of${title(nesting.parent.singular)}`
    const scopeParams = nesting === undefined ? {} : { [nesting.field]: IdSchema }
    const CollectionParams = Type.Object(scopeParams)
    const ItemParams = Type.Object({ ...scopeParams, id: IdSchema })
    const CreateBody = nesting === undefined ? create : Type.Omit(create, [nesting.field], { additionalProperties: false })

    const collectionMethods: Method[] = ['GET', 'POST', 'OPTIONS']
    const itemMethods: Method[] = nesting === undefined ? ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] : ['GET', 'DELETE', 'OPTIONS']
    const collectionAllow = allowOnly(fastify, '/', collectionMethods)
    const itemAllow = allowOnly(fastify, '/:id', itemMethods)
    // Every route added from here on needs this collection's scope (the 405s above need none).
    fastify.addHook('onRoute', route => { route.config = { ...route.config, collection: resource.name } })

    /** In a nested collection, the parent must be live: 404 if it never was, 410 if deleted. */
    const parentOf = (params: Params): number | undefined => {
      if (nesting === undefined || parents === undefined) return undefined
      const parentId = params[nesting.field] as number
      mustBeLive(parents, parentId)
      return parentId
    }

    const read = (params: Params): Versioned => {
      const parentId = parentOf(params)
      const id = params.id as number
      const found = store.get(id)
      if (found === undefined) mustBeLive(store, id)
      const versioned = found as Versioned
      if (nesting !== undefined && versioned.record[nesting.field] !== parentId) {
        throw new HttpError(404, `${resource.singular} ${id} is not in ${nesting.parent.singular} ${parentId}`)
      }
      return versioned
    }

    const answer = (request: FastifyRequest, reply: FastifyReply, status: 200 | 201, { record, version }: Versioned) => {
      reply.code(status).header('ETag', etagOf(version))
      if (status === 201) reply.header('Location', recordUrl(request, resource, record.id as number))
      return reply.send(record)
    }

    fastify.get('/', {
      schema: {
        operationId: `list${title(resource.name)}${of}`,
        summary: `List ${resource.name}`,
        tags: [tag],
        params: CollectionParams,
        querystring: list,
        response: { 200: withHeaders(Type.Array(RecordSchema), 'Link', 'X-Total-Count'), ...errors(...GUARDED, 400, ...parentErrors) }
      }
    }, async (request, reply) => {
      const parentId = parentOf(request.params as Params)
      const listing = parseListQuery(resource, request.query as Record<string, unknown>)
      if (nesting !== undefined) listing.query.filters.push({ field: nesting.field, op: 'eq', value: parentId as number })
      // One record more than the page tells whether a next page exists.
      const page = store.list({ ...listing.query, limit: listing.size + 1 })
      const items = page.items.slice(0, listing.size)
      const url = new URL(request.url, `${request.protocol}://${request.host}`)
      return reply
        .header('X-Total-Count', page.total)
        .header('Link', listLinks(url, listing, page.total, items.at(-1), page.items.length > listing.size))
        .send(items)
    })

    fastify.post('/', {
      schema: {
        operationId: `create${title(resource.singular)}${of}`,
        summary: `Create a ${resource.singular}, or several at once from an array (all or none)`,
        tags: [tag],
        params: CollectionParams,
        querystring: NoQuery,
        body: Type.Union([CreateBody, Type.Array(CreateBody, { minItems: 1, maxItems: MAX_BATCH })]),
        response: {
          201: withHeaders({ ...Type.Union([RecordSchema, Type.Array(RecordSchema)]), description: 'Created: the record (with Location and ETag), or the array of records' }, 'Location', 'ETag', 'Idempotent-Replayed'),
          ...accepted,
          ...errors(...GUARDED, ...BODY_READ, 409, 422, ...parentErrors)
        }
      }
    }, async (request, reply) => {
      const parentId = parentOf(request.params as Params)
      const body = request.body as ResourceRecord | ResourceRecord[]
      const inputs = (Array.isArray(body) ? body : [body])
        .map(input => nesting === undefined ? input : { ...input, [nesting.field]: parentId as number })
      const created = store.create(inputs, Array.isArray(body))
      if (Array.isArray(body)) return reply.code(201).send(created.map(c => c.record))
      return answer(request, reply, 201, created[0] as Versioned)
    })

    fastify.get('/:id', {
      schema: {
        operationId: `get${title(resource.singular)}${of}`,
        summary: `Read one ${resource.singular}`,
        tags: [tag],
        params: ItemParams,
        querystring: NoQuery,
        response: {
          200: withHeaders(RecordSchema, 'ETag'),
          304: empty('Not Modified: the If-None-Match tag is current', 'ETag'),
          ...errors(...GUARDED, 400, 404, 410)
        }
      }
    }, async (request, reply) => {
      const versioned = read(request.params as Params)
      // The client's copy is current: it may keep using it (RFC 9110 §15.4.5).
      if (noneMatch(request.headers['if-none-match'], versioned.version)) return reply.code(304).header('ETag', etagOf(versioned.version)).send()
      return answer(request, reply, 200, versioned)
    })

    if (nesting === undefined) {
      const updates = [
        { method: 'PUT', verb: 'replace', body: replace, write: store.replace.bind(store), summary: `Replace a ${resource.singular}: every writable field (read-only ones are ignored)` },
        { method: 'PATCH', verb: 'update', body: patch, write: store.update.bind(store), summary: `Change some fields of a ${resource.singular}` }
      ] as const
      for (const { method, verb, body, write, summary } of updates) {
        fastify.route({
          method,
          url: '/:id',
          schema: {
            operationId: `${verb}${title(resource.singular)}`,
            summary,
            tags: [tag],
            params: ItemParams,
            querystring: NoQuery,
            body,
            response: {
              201: withHeaders({ ...RecordSchema, description: 'Changed: the complete record' }, 'ETag', 'Location', ...(method === 'PATCH' ? ['Idempotent-Replayed' as const] : [])),
              ...accepted,
              ...errors(...GUARDED, ...BODY_READ, 404, 409, 410, 412, 422)
            }
          },
          handler: async (request, reply) => answer(request, reply, 201,
            write((request.params as Params).id as number, request.body as ResourceRecord, ifMatch(request.headers['if-match'])))
        })
      }
    }

    fastify.delete('/:id', {
      schema: {
        operationId: `delete${title(resource.singular)}${of}`,
        summary: `Delete a ${resource.singular}`,
        tags: [tag],
        params: ItemParams,
        querystring: NoQuery,
        response: { 204: empty('Deleted'), ...accepted, ...errors(...GUARDED, ...BODY_READ, 404, 409, 410, 412) }
      }
    }, async (request, reply) => {
      const params = request.params as Params
      if (nesting !== undefined) read(params)
      store.delete(params.id as number, ifMatch(request.headers['if-match']))
      return reply.code(204).send()
    })

    const describe = (allow: string) => async (request: FastifyRequest, reply: FastifyReply) => {
      const params = request.params as Params
      if (params.id !== undefined) read(params)
      else parentOf(params)
      return reply.header('Allow', allow).send({ methods: allow.split(', '), writable: resource.writable, schema: resource.schemas.create })
    }
    const optionsSchema = (suffix: string, params: TSchema) => ({
      operationId: `describe${title(resource.name)}${suffix}${of}`,
      summary: `Methods allowed here and the ${resource.singular} fields a client may write`,
      tags: [tag],
      params,
      querystring: NoQuery,
      response: {
        200: withHeaders(OptionsSchema, 'Allow'),
        204: empty('A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS'),
        ...errors(...GUARDED, ...BODY_READ, 404, 410)
      }
    })
    fastify.options('/', { schema: optionsSchema('', CollectionParams) }, describe(collectionAllow))
    fastify.options('/:id', { schema: optionsSchema('Item', ItemParams) }, describe(itemAllow))
  }
}

const title = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1)
