import { Type, type TObject } from '@sinclair/typebox'
import { vary } from '../http/cache-control.ts'
import { capitalize, type Resource } from '../model/resource.ts'
import { PAGE_SIZE } from '../model/values.ts'
import { empty, errors, GUARDED, requestHeaders, withHeaders } from '../schemas/responses.ts'
import { JSON_TYPE, readRequestOf, readShapes, type Collection, type Instance } from './collection.ts'
import { accessNote } from './access-notes.ts'
import { embedParameter, embedsOf, type Embed } from './embedding.ts'
import { planList, runList, tagged } from './read-plan.ts'

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

export function listRoute (fastify: Instance, collection: Collection): void {
  const { resource, of, within } = collection
  const embeds = embedsOf(resource, fastify.collections.resources)
  const shapes = readShapes(fastify, resource, embeds)
  const serializers = {
    full: shapes.serialize(Type.Array(shapes.full)),
    sparse: shapes.serialize(Type.Array(shapes.sparse))
  }
  const page = Type.Array(shapes.either, { description: 'A page of records, [] past the end' })
  const query = listQuerystring(resource, embeds)
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
        'An unknown or ill-typed parameter is 400, never ignored.' + accessNote(resource, 'list'),
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
    const { records } = request
    const plan = planList(readRequestOf(collection, request), embeds, records)
    vary(reply, 'Prefer')
    if (plan.asked) reply.header('Preference-Applied', `count=${plan.counting}`)
    const answer = await runList(plan, records)
    if (answer.notModified) return reply.header('ETag', answer.etag).code(304).send()
    if (answer.total !== undefined) reply.header('X-Total-Count', answer.total)
    reply.header('Link', answer.link).type(JSON_TYPE)
    const serialize = plan.fields === undefined ? serializers.full : serializers.sparse
    if (answer.etag !== undefined) return reply.header('ETag', answer.etag).serializer(serialize).send(answer.items)
    // Serialized here, once: the tag is a digest of the very text sent, which the serializer gives back.
    const body = serialize(answer.items)
    const { etag, notModified } = tagged(plan, answer, body)
    reply.header('ETag', etag)
    if (notModified) return reply.code(304).send()
    return reply.serializer(() => body).send(answer.items)
  })
}
