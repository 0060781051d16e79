import { countPreference } from '../http/prefer.ts'
import type { Resource, ResourceRecord } from '../model/resource.ts'
import type { BoundStores } from '../store/bound.ts'
import type { Counting, Filter } from '../store/contract.ts'
import { etagOf, noneMatch } from './conditional.ts'
import { embedded, parseEmbeds, refuseHiddenEmbeds, type Answered, type Embed } from './embedding.ts'
import { encodeCursor, listLinks, parseFields, parseListQuery, type ListRequest } from './list-query.ts'
import type { CollectionRequest } from './request.ts'
import { listEtag, seenEtag } from './revalidation.ts'
import { belongingTo } from './write-plan.ts'

/*
 * The reads of a collection, planned as its writes are (collections/write-plan.ts): the request
 * value is read once into a plan, refusing what it cannot be (400, a scope an embed needs: 403),
 * and the plan is run by the records view of the request's token (store/bound.ts), which applies
 * the access rules. A route only makes the value and serializes what the run answers.
 */

/** A read of a collection: the request value, with what only reads take. */
export interface ReadRequest extends CollectionRequest {
  /** The origin the client addressed (`https://host`): the links of a list start there. Read it once: it may be made when read. */
  origin: string
  /** The path and query as the client sent them, which a list's links and tag are made of. */
  url: string
  ifNoneMatch: string | undefined
  /** Refuses (403) unless the token holds every one of `scopes`: what an embed asks of another collection. */
  authorize: (scopes: readonly string[]) => void
}

/** A list, planned: what the store reads and what its answer says of it. */
export interface ListPlan {
  request: ReadRequest
  listing: ListRequest
  /** The fields each record answers, as the token may see them; undefined: every field. */
  fields: string[] | undefined
  embedding: Embed[]
  /** How much the list counts, and whether Prefer asked it (then Preference-Applied says so). */
  counting: Counting
  asked: boolean
  /** The records of the nested path's parent. */
  within: Filter[]
  /** The collections whose stamps the page reads (the listed one first): a write to any changes it. */
  reads: string[]
  /**
   * A token bound by access rules: the stamps change with writes it cannot see, so the page's tag
   * is made of what it is answered, not of the stamps.
   */
  seen: boolean
}

/** A list as run: its page, or a tag the client's copy matches. */
export type ListAnswer =
  | { notModified: true, etag: string }
  | {
    notModified: false
    /** Undefined when the page is tagged by its text (ListPlan.seen): `tagged` makes the tag of the text sent. */
    etag: string | undefined
    items: Answered[]
    total: number | undefined
    link: string
  }

/** Plans the list of `request`'s collection, which may embed `embeds`. */
export function planList (request: ReadRequest, embeds: readonly Embed[], records: BoundStores): ListPlan {
  const { resource } = request.mount
  const listed = records.collection(resource)
  const recordsOf = (embedded: Resource) => records.collection(embedded)
  const listing = parseListQuery(resource, request.query)
  const fields = listed.fields(listing.fields)
  const { embed } = request.query
  const embedding = parseEmbeds(embeds, typeof embed === 'string' ? embed : undefined)
  // One embed at a time, in the order the collection offers them: a refusal names the first scope lacking.
  for (const embed of embedding) request.authorize([`${embed.resource.name}:read`])
  refuseHiddenEmbeds(embedding, listed, recordsOf)
  const asked = countPreference(request.prefer)
  return {
    request,
    listing,
    fields,
    embedding,
    counting: asked ?? 'exact',
    asked: asked !== undefined,
    within: parentFilters(request),
    reads: [resource.name, ...embedding.map(embed => embed.resource.name)],
    seen: listed.bound || embedding.some(embed => recordsOf(embed.resource).bound)
  }
}

/**
 * Runs a list: the parent seen, the stamps read (before the page: a write committed meanwhile
 * makes the next request's tag differ, collections/revalidation.ts), a tag the client's copy
 * matches answered without reading the page, else the page, one record more than asked telling
 * whether a next page exists, and what it embeds.
 */
export async function runList (plan: ListPlan, records: BoundStores): Promise<ListAnswer> {
  const { request, listing, fields, embedding, counting } = plan
  const { resource } = request.mount
  await parentSeen(request, records)
  const stamps = await records.changes(plan.reads)
  const { origin } = request
  let etag: string | undefined
  if (!plan.seen) {
    etag = listEtag(stamps, origin, request.url, counting)
    if (noneMatch(request.ifNoneMatch, etag)) return { notModified: true, etag }
  }
  const found = await records.collection(resource).list(
    { ...listing.query, limit: listing.size + 1 }, { counting, changes: stamps[0] }, plan.within)
  const page = found.items.slice(0, listing.size)
  // Parsed apart from the origin: one made of a Host header that no URL can hold must not fail the answer.
  const url = new URL(request.url, 'http://localhost')
  const last = page.at(-1)
  const link = listLinks(origin, url, listing, found.total, found.items.length > listing.size && last !== undefined,
    () => encodeCursor(listing.query.sort, last as ResourceRecord, listing.position + listing.size))
  const items = fields === undefined && embedding.length === 0 ? page : await answered(page, plan, records)
  return { notModified: false, etag, items, total: found.total, link }
}

/** The records of a page with only the fields answered and the members embedded. */
async function answered (page: ResourceRecord[], { fields, embedding }: ListPlan, records: BoundStores): Promise<Answered[]> {
  const members = await embedded(embedding, page, embedded => records.collection(embedded))
  return page.map((record, i) => Object.assign(project(record, fields), members[i]))
}

/**
 * The tag of a page a bound token is answered (ListPlan.seen), made of `body`, the very text sent,
 * and whether the client's copy matches it.
 */
export function tagged (plan: ListPlan, answer: Extract<ListAnswer, { notModified: false }>, body: string):
{ etag: string, notModified: boolean } {
  const etag = seenEtag(body, answer.total, answer.link, plan.counting)
  return { etag, notModified: noneMatch(plan.request.ifNoneMatch, etag) }
}

/** A read of one record, planned: the fields it answers. */
export interface RecordPlan {
  request: ReadRequest
  /** What `fields=` named: the record's tag says them. */
  named: string[] | undefined
  /** The fields answered, as the token may see them; undefined: every field. */
  fields: string[] | undefined
}

export function planRecord (request: ReadRequest, records: BoundStores): RecordPlan {
  const { fields } = request.query
  const named = parseFields(request.mount.resource, typeof fields === 'string' ? fields : undefined)
  return { request, named, fields: records.collection(request.mount.resource).fields(named) }
}

/** A record as run: its tag, and the record unless the client's copy is current. */
export type RecordAnswer = { etag: string, record: Answered | undefined }

export async function runRecord (plan: RecordPlan, records: BoundStores): Promise<RecordAnswer> {
  const { record, version } = await live(plan.request, records)
  // What fields= named, not what the access rules leave out: the tag If-Match takes is the record's version, for either.
  const etag = etagOf(version, plan.named)
  // The client's copy is current: it may keep using it (RFC 9110 §15.4.5).
  if (noneMatch(plan.request.ifNoneMatch, etag)) return { etag, record: undefined }
  return { etag, record: project(record, plan.fields) }
}

/**
 * The live record a path names, as the token sees it: 404 if it never existed (or is not in the
 * parent, or the token does not see it), 410 if deleted; a nested one's parent first.
 */
export async function live (request: CollectionRequest, records: BoundStores): Promise<{ record: ResourceRecord, version: number }> {
  const { resource, nesting } = request.mount
  // parentSeen's, written in: one async call less on the read of every record.
  if (nesting !== undefined) await records.collection(nesting.parent).ensureSeen(request.parentId as number)
  const found = await records.collection(resource).live(request.id as number)
  if (nesting !== undefined) belongingTo(resource, nesting, request.parentId as number, undefined)(found)
  return found
}

/** The records of a nested path's parent, as filters of the read (none for a collection not nested). */
export const parentFilters = ({ mount: { nesting }, parentId }: CollectionRequest): Filter[] =>
  nesting === undefined ? [] : [{ field: nesting.field, op: 'eq', value: parentId as number }]

/** In a nested collection, the parent must be live and one the token sees: 404 if it never was (or is not seen), 410 if deleted. */
export async function parentSeen ({ mount: { nesting }, parentId }: CollectionRequest, records: BoundStores): Promise<void> {
  if (nesting !== undefined) await records.collection(nesting.parent).ensureSeen(parentId as number)
}

/** A record with only `fields` (in their order), or as it is when they are undefined. */
export function project (record: ResourceRecord, fields: readonly string[] | undefined): Answered {
  if (fields === undefined) return record
  const sparse: Answered = {}
  for (const field of fields) sparse[field] = record[field]
  return sparse
}
