import { Type, type TObject } from '@sinclair/typebox'
import { vary } from '../http/cache-control.ts'
import { originOf } from '../http/links.ts'
import { countPreference } from '../http/prefer.ts'
import { capitalize, type Resource } from '../model/resource.ts'
import { PAGE_SIZE } from '../model/values.ts'
import { empty, errors, GUARDED, requestHeaders, withHeaders } from '../schemas/responses.ts'
import { JSON_TYPE, parentOf, project, readShapes, type Collection, type Instance } from './collection.ts'
import { noneMatch } from './conditional.ts'
import { accessNote } from './access-notes.ts'
import { embedded, embedParameter, embedsOf, parseEmbeds, refuseHiddenEmbeds, type Embed } from './embedding.ts'
import { listLinks, parseListQuery } from './list-query.ts'
import { listEtag, seenEtag } from './revalidation.ts'

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
  const { resource, nesting, of, within } = collection
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
    const listed = records.collection(resource)
    const recordsOf = (embedded: Resource) => records.collection(embedded)
    const parentId = await parentOf(collection, request.params, records)
    const listing = parseListQuery(resource, request.query)
    const fields = listed.fields(listing.fields)
    const { embed } = request.query
    const embedding = parseEmbeds(embeds, typeof embed === 'string' ? embed : undefined)
    for (const embed of embedding) fastify.requireScopes(request, [`${embed.resource.name}:read`])
    refuseHiddenEmbeds(embedding, listed, recordsOf)
    const ofParent = nesting === undefined ? [] : [{ field: nesting.field, op: 'eq' as const, value: parentId as number }]
    const asked = countPreference(request.headers.prefer)
    const counting = asked ?? 'exact'
    vary(reply, 'Prefer')
    if (asked !== undefined) reply.header('Preference-Applied', `count=${counting}`)
    // Read before the page: a write committed meanwhile makes the next request's tag differ (collections/revalidation.ts).
    const stamps = await records.changes([resource.name, ...embedding.map(embed => embed.resource.name)])
    // A token bound by access rules: the stamps change with writes it cannot see, so its tag is made of what it is answered.
    const bound = listed.bound || embedding.some(e => recordsOf(e.resource).bound)
    if (!bound) {
      const etag = listEtag(stamps, originOf(request), request.url, counting)
      reply.header('ETag', etag)
      if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send()
    }
    // One record more than the page tells whether a next page exists.
    const found = await listed.list({ ...listing.query, limit: listing.size + 1 }, { counting, changes: stamps[0] }, ofParent)
    const items = found.items.slice(0, listing.size)
    // Parsed apart from the origin: one made of a Host header that no URL can hold must not fail the answer.
    const url = new URL(request.url, 'http://localhost')
    if (found.total !== undefined) reply.header('X-Total-Count', found.total)
    const link = listLinks(originOf(request), url, listing, found.total, items.at(-1), found.items.length > listing.size)
    reply.header('Link', link)
    const serialize = fields === undefined ? serializers.full : serializers.sparse
    const members = fields === undefined && embedding.length === 0
      ? undefined
      : await embedded(embedding, items, recordsOf)
    const page = members === undefined ? items : items.map((record, i) => Object.assign(project(record, fields), members[i]))
    reply.type(JSON_TYPE)
    if (!bound) return reply.serializer(serialize).send(page)
    // Serialized here, once: the tag is a digest of the very text sent, which the serializer gives back.
    const body = serialize(page)
    const etag = seenEtag(body, found.total, link, counting)
    reply.header('ETag', etag)
    if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send()
    return reply.serializer(() => body).send(page)
  })
}
