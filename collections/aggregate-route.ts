import { Type } from '@sinclair/typebox'
import { vary } from '../http/cache-control.ts'
import { HttpError } from '../http/errors.ts'
import { countPreference } from '../http/prefer.ts'
import { serializerFor } from '../http/serialization.ts'
import { StoreError } from '../model/refusal.ts'
import { capitalize } from '../model/resource.ts'
import { empty, errors, GUARDED, requestHeaders, withHeaders } from '../schemas/responses.ts'
import type { BoundStores } from '../store/bound.ts'
import type { AggregateOptions, Group, Groups } from '../store/contract.ts'
import { accessNote } from './access-notes.ts'
import { aggregateQuerystring, groupSchema, GROUPS_PAGE, parseAggregateQuery } from './aggregate-query.ts'
import { JSON_TYPE, readRequestOf, type Collection, type Instance } from './collection.ts'
import { noneMatch } from './conditional.ts'
import { listLinks } from './list-query.ts'
import { parentFilters, parentSeen, type ReadRequest } from './read-plan.ts'
import { listEtag, seenEtag } from './revalidation.ts'

/** An aggregate as run: its groups, or a tag the client's copy matches. */
type AggregateAnswer =
  | { notModified: true, etag: string }
  | { notModified: false, groups: Group[], total: number | undefined, link: string, etag: string | undefined }

/**
 * `GET /aggregate` of a collection (docs/aggregates.md): the groups of the records its filters
 * match, as the token sees them, each with its count and the measures asked, paged and tagged as
 * a list is (a bound token's tag made of what it is answered).
 */
export function aggregateRoute (fastify: Instance, collection: Collection): void {
  const { resource, of, within } = collection
  const page = Type.Array(groupSchema(resource), { description: 'A page of groups, [] past the end' })
  const serialize = serializerFor([], page)
  fastify.get('/aggregate', {
    config: { standingAlongside: true },
    schema: {
      operationId: `aggregate${capitalize(resource.name)}${of}`,
      summary: `Count, sum and group ${resource.name}${within}`,
      description: 'The groups of the records the filters match (the filters of the list), formed by group_by ' +
        '(a date or timestamp by :year, :month or :day), each with its count and the measures asked: ' +
        'sum and avg of numbers, min and max. having filters the groups by a measure asked, with the filters\' operators. ' +
        `Sorted by the group_by fields unless sortby says otherwise; ${GROUPS_PAGE.default} groups a page unless limit says ` +
        `otherwise (at most ${GROUPS_PAGE.max}). X-Total-Count counts the groups, unless Prefer: count=none. ` +
        'The weak ETag changes whenever the answer would. One that runs longer than AGGREGATE_TIMEOUT is ended and answered 503.' +
        accessNote(resource, 'list'),
      tags: [resource.name],
      params: collection.CollectionParams,
      querystring: aggregateQuerystring(resource),
      headers: requestHeaders('If-None-Match', 'Prefer'),
      response: {
        200: withHeaders(page, 'ETag', 'Link', 'X-Total-Count', 'Preference-Applied'),
        304: empty('Not Modified: no record the groups count has changed since the If-None-Match tag', 'ETag', 'Preference-Applied'),
        ...errors(...GUARDED, 400, ...collection.parentErrors)
      }
    }
  }, async (request, reply) => {
    const asked = readRequestOf(collection, request)
    const preferred = countPreference(asked.prefer)
    vary(reply, 'Prefer')
    if (preferred !== undefined) reply.header('Preference-Applied', `count=${preferred}`)
    const answer = await runAggregate(asked, { counting: preferred ?? 'exact', timeout: fastify.config.aggregateTimeout }, request.records)
    if (answer.notModified) return reply.header('ETag', answer.etag).code(304).send()
    if (answer.total !== undefined) reply.header('X-Total-Count', answer.total)
    reply.header('Link', answer.link).type(JSON_TYPE)
    if (answer.etag !== undefined) return reply.header('ETag', answer.etag).serializer(serialize).send(answer.groups)
    // A bound token's tag is a digest of the very text sent.
    const body = serialize(answer.groups)
    const etag = seenEtag(body, answer.total, answer.link, preferred ?? 'exact')
    reply.header('ETag', etag)
    if (noneMatch(asked.ifNoneMatch, etag)) return reply.code(304).send()
    return reply.serializer(() => body).send(answer.groups)
  })
}

/**
 * Runs an aggregate: the query read (400 for what it cannot be), the parent seen, the stamp read
 * before the groups (as a list's, collections/revalidation.ts), a tag the client's copy matches
 * answered without grouping, else one group more than the page, which tells whether another page follows.
 */
async function runAggregate (request: ReadRequest, options: AggregateOptions, records: BoundStores): Promise<AggregateAnswer> {
  const { counting, timeout } = options
  const { resource } = request.mount
  const { query, size, position } = parseAggregateQuery(resource, request.query)
  await parentSeen(request, records)
  const grouped = records.collection(resource)
  const [stamp] = await records.changes([resource.name])
  const { origin } = request
  let etag: string | undefined
  if (!grouped.bound) {
    etag = listEtag([stamp as string], origin, request.url, counting)
    if (noneMatch(request.ifNoneMatch, etag)) return { notModified: true, etag }
  }
  let found: Groups
  try {
    found = await grouped.aggregate({ ...query, limit: size + 1 }, options, parentFilters(request))
  } catch (err) {
    if (!(err instanceof StoreError) || err.kind !== 'timed_out') throw err
    throw new HttpError(503, `The aggregate ran longer than AGGREGATE_TIMEOUT allows (${timeout} s): narrow it with filters, ` +
      'or ask the operator to raise the setting')
  }
  const url = new URL(request.url, 'http://localhost')
  const link = listLinks(origin, url, { size, mode: 'offset', position }, found.total, found.groups.length > size)
  return { notModified: false, groups: found.groups.slice(0, size), total: found.total, link, etag }
}
