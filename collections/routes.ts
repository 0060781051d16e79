import { Type, type TSchema } from '@sinclair/typebox'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { IdSchema, OptionsSchema, PAGE_SIZE } from '../schemas/common.js'
import { RESOURCES } from '../schemas/index.js'
import { capitalize, type Resource, type ResourceRecord } from './resource.js'
import { accepted, BODY_READ, empty, errors, GUARDED, recordRef, requestHeaders, withHeaders } from '../schemas/responses.js'
import { mustBeLive, type Precondition, type Versioned } from './store.js'
import { etagOf, ifMatch, noneMatch } from './conditional.js'
import { HttpError } from '../http/errors.js'
import { originOf, recordUrl } from '../http/links.js'
import { listLinks, parseListQuery } from './list-query.js'
import { allowOnly, type Method } from '../http/method-not-allowed.js'

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
    const one = `${/^[aeiou]/.test(resource.singular) ? 'an' : 'a'} ${resource.singular}`
    const of = nesting === undefined ? '' : `Of${capitalize(nesting.parent.singular)}`
    const within = nesting === undefined ? '' : ` of one ${nesting.parent.singular}`
    const referrers = RESOURCES.filter(r => Object.values(r.references).includes(resource.name)).map(r => r.name)
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

    /** In a nested collection, the record must belong to the parent of the path. */
    const belongs = (parentId: number | undefined, { record }: Versioned): void => {
      if (nesting !== undefined && record[nesting.field] !== parentId) {
        throw new HttpError(404, `${resource.singular} ${record.id} is not in ${nesting.parent.singular} ${parentId}`)
      }
    }

    const read = (params: Params): Versioned => {
      const parentId = parentOf(params)
      const id = params.id as number
      const found = store.get(id)
      if (found === undefined) mustBeLive(store, id)
      belongs(parentId, found as Versioned)
      return found as Versioned
    }

    /** What a write checks in its own transaction: the parent of a nested path, then If-Match. */
    const preconditionOf = (request: FastifyRequest): Precondition | undefined => {
      const params = request.params as Params
      const matches = ifMatch(request.headers['if-match'], `${resource.singular} ${params.id}`)
      if (nesting === undefined) return matches
      const parentId = parentOf(params)
      return current => {
        belongs(parentId, current)
        matches?.(current)
      }
    }

    const answer = (request: FastifyRequest, reply: FastifyReply, status: 200 | 201, { record, version }: Versioned) => {
      reply.code(status).header('ETag', etagOf(version))
      if (status === 201) reply.header('Location', recordUrl(request, resource, record.id as number))
      return reply.send(record)
    }

    fastify.get('/', {
      schema: {
        operationId: `list${capitalize(resource.name)}${of}`,
        summary: `List ${resource.name}${within}`,
        description: `${PAGE_SIZE.default} records a page unless limit or per_page says otherwise (at most ${PAGE_SIZE.max}). ` +
          'Page with limit and offset, or page and per_page, or follow the next link of the Link header: its keyset cursor costs the same on every page. ' +
          'Sort with sortby and order; filter any field by equality (<field>), range (<field>_gt, _gte, _lt, _lte), difference (_ne) or a comma list (_in). ' +
          'X-Total-Count counts every record the filters match. An unknown or ill-typed parameter is 400, never ignored.',
        tags: [tag],
        params: CollectionParams,
        querystring: list,
        response: { 200: withHeaders(Type.Array(RecordSchema, { description: 'A page of records, [] past the end' }), 'Link', 'X-Total-Count'), ...errors(...GUARDED, 400, ...parentErrors) }
      }
    }, async (request, reply) => {
      const parentId = parentOf(request.params as Params)
      const listing = parseListQuery(resource, request.query as Record<string, unknown>)
      if (nesting !== undefined) listing.query.filters.push({ field: nesting.field, op: 'eq', value: parentId as number })
      // One record more than the page tells whether a next page exists.
      const page = store.list({ ...listing.query, limit: listing.size + 1 })
      const items = page.items.slice(0, listing.size)
      const url = new URL(request.url, originOf(request))
      return reply
        .header('X-Total-Count', page.total)
        .header('Link', listLinks(url, listing, page.total, items.at(-1), page.items.length > listing.size))
        .send(items)
    })

    fastify.post('/', {
      schema: {
        operationId: `create${capitalize(resource.singular)}${of}`,
        summary: `Create ${one}, or several at once from an array (all or none)`,
        description: `An object creates one ${resource.singular}: 201 with its Location and ETag. An array creates up to ${MAX_BATCH}, all or none: 201 with the array. ` +
          `${nesting === undefined ? '' : `${nesting.field} is taken from the path. `}` +
          'Idempotency-Key makes a retry safe; Prefer: respond-async queues the write as a background job (202).',
        tags: [tag],
        params: CollectionParams,
        querystring: NoQuery,
        headers: requestHeaders('Idempotency-Key', 'Prefer'),
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
      const created = await store.create(inputs, Array.isArray(body))
      if (Array.isArray(body)) return reply.code(201).send(created.map(c => c.record))
      return answer(request, reply, 201, created[0] as Versioned)
    })

    fastify.get('/:id', {
      schema: {
        operationId: `get${capitalize(resource.singular)}${of}`,
        summary: `Read one ${resource.singular}`,
        description: `With its ETag; If-None-Match naming it answers 304 without a body. 410 for ${one} that was deleted.`,
        tags: [tag],
        params: ItemParams,
        querystring: NoQuery,
        headers: requestHeaders('If-None-Match'),
        response: {
          200: withHeaders({ ...RecordSchema, description: 'The record' }, 'ETag'),
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
        {
          method: 'PUT',
          verb: 'replace',
          body: replace,
          write: store.replace.bind(store),
          summary: `Replace ${one}: every writable field (read-only ones are ignored)`,
          description: 'The body holds every writable field; id, created_at and updated_at are ignored, so a body read with GET can be sent back. ',
          headers: requestHeaders('If-Match', 'Prefer')
        },
        {
          method: 'PATCH',
          verb: 'update',
          body: patch,
          write: store.update.bind(store),
          summary: `Change some fields of ${one}`,
          description: 'The body holds only the fields to change. Idempotency-Key makes a retry safe. ',
          headers: requestHeaders('If-Match', 'Idempotency-Key', 'Prefer')
        }
      ] as const
      for (const { method, verb, body, write, summary, description, headers } of updates) {
        fastify.route({
          method,
          url: '/:id',
          schema: {
            operationId: `${verb}${capitalize(resource.singular)}`,
            summary,
            description: `${description}201 with the complete record and its new ETag. If-Match makes the write conditional (412 when the record changed); ` +
              'Prefer: respond-async queues it as a background job (202).',
            tags: [tag],
            params: ItemParams,
            querystring: NoQuery,
            headers,
            body,
            response: {
              201: withHeaders({ ...RecordSchema, description: 'Changed: the complete record' }, 'ETag', 'Location', ...(method === 'PATCH' ? ['Idempotent-Replayed' as const] : [])),
              ...accepted,
              ...errors(...GUARDED, ...BODY_READ, 404, 409, 410, 412, 422)
            }
          },
          handler: async (request, reply) => answer(request, reply, 201,
            await write((request.params as Params).id as number, request.body as ResourceRecord, preconditionOf(request)))
        })
      }
    }

    fastify.delete('/:id', {
      schema: {
        operationId: `delete${capitalize(resource.singular)}${of}`,
        summary: `Delete ${one}`,
        description: `204; its id is never used again and answers 410 from then on.${referrers.length === 0 ? '' : ` A ${resource.singular} that ${referrers.join(' or ')} still name is 409, and nothing is deleted.`} ` +
          'If-Match makes it conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).',
        tags: [tag],
        params: ItemParams,
        querystring: NoQuery,
        headers: requestHeaders('If-Match', 'Prefer'),
        response: { 204: empty('Deleted'), ...accepted, ...errors(...GUARDED, ...BODY_READ, 404, 409, 410, 412) }
      }
    }, async (request, reply) => {
      await store.delete((request.params as Params).id as number, preconditionOf(request))
      return reply.code(204).send()
    })

    const describe = (allow: string) => async (request: FastifyRequest, reply: FastifyReply) => {
      const params = request.params as Params
      if (params.id !== undefined) read(params)
      else parentOf(params)
      return reply.header('Allow', allow).send({ methods: allow.split(', '), writable: resource.writable, schema: resource.schemas.create })
    }
    const optionsSchema = (suffix: string, params: TSchema) => ({
      operationId: `describe${capitalize(resource.name)}${suffix}${of}`,
      summary: `Methods allowed here and the ${resource.singular} fields a client may write`,
      description: 'The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. ' +
        'A CORS preflight on the same path is answered by the CORS layer instead, without a token.',
      tags: [tag],
      params,
      querystring: NoQuery,
      response: {
        200: withHeaders({ ...OptionsSchema, description: 'What a client may do here' }, 'Allow'),
        204: empty('A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS'),
        ...errors(...GUARDED, ...BODY_READ, 404, 410)
      }
    })
    fastify.options('/', { schema: optionsSchema('', CollectionParams) }, describe(collectionAllow))
    fastify.options('/:id', { schema: optionsSchema('Item', ItemParams) }, describe(itemAllow))
  }
}
