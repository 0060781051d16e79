import { capitalize } from '../model/resource.ts'
import { NoQuerySchema, OptionsSchema } from '../schemas/common.ts'
import { BODY_READ, empty, errors, GUARDED, requestHeaders, withHeaders } from '../schemas/responses.ts'
import { JSON_TYPE, readRequestOf, readShapes, type Collection, type Instance } from './collection.ts'
import { live, parentSeen, planRecord, runRecord } from './read-plan.ts'
import { accessNote } from './access-notes.ts'

export function readRoute (fastify: Instance, collection: Collection): void {
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
        'fields answers only the fields named (and id), with an ETag of its own.' + accessNote(resource, 'read'),
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
    const { records } = request
    const plan = planRecord(readRequestOf(collection, request), records)
    const { etag, record } = await runRecord(plan, records)
    reply.header('ETag', etag)
    if (record === undefined) return reply.code(304).send()
    return reply.type(JSON_TYPE).serializer(plan.fields === undefined ? serializers.full : serializers.sparse).send(record)
  })
}

/**
 * OPTIONS of the collection or of one record: the methods (also in Allow), the writable fields
 * and the JSON Schema a created record must match. The record or parent must exist, as for GET.
 */
export function optionsRoute (fastify: Instance, collection: Collection, url: '/' | '/:id', allow: string): void {
  const { resource, of } = collection
  fastify.options(url, {
    schema: {
      operationId: `describe${capitalize(resource.name)}${url === '/' ? '' : 'Item'}${of}`,
      summary: `Methods allowed here and the ${resource.singular} fields a client may write`,
      description: 'The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. ' +
        'A CORS preflight on the same path is answered by the CORS layer instead, without a token.' +
        (resource.access === undefined ? '' : ' A token bound by access rules is told only the fields it may give.'),
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
    const { records } = request
    const asked = readRequestOf(collection, request)
    if (asked.id !== undefined) await live(asked, records)
    else await parentSeen(asked, records)
    const { writable, schema } = records.collection(resource).writable()
    return reply.header('Allow', allow).send({ methods: allow.split(', '), writable, schema })
  })
}
