import { PAGE_SIZE } from '../model/values.ts'
import { KINDS, type Scalar } from '../model/kinds.ts'
import { filterOfText, termOf } from '../model/filters.ts'
import type { Column, Resource, ResourceRecord } from '../model/resource.ts'
import type { Filter, ListQuery, SortKey } from '../store/contract.ts'
import { HttpError } from '../http/errors.ts'
import { MAX_QUERY_WORDS, wordsOf } from '../model/search.ts'

/** The parameters that are no filter on a field of their name. */
const NOT_FILTERS = ['limit', 'offset', 'page', 'per_page', 'sortby', 'order', 'cursor', 'q', 'fields', 'embed'] as const

/** A collection read as the store runs it, and what the Link header needs to describe it. */
export interface ListRequest {
  query: ListQuery
  /** Records per page. */
  size: number
  /** How the client pages: the links it gets back use the same parameters. */
  mode: 'offset' | 'page'
  /** Index of the first record of this page among all matches (carried in cursors). */
  position: number
  /** The fields each record answers (`fields=`), in the resource's order; undefined: every field. */
  fields: string[] | undefined
}

interface Cursor {
  /** The sort it was made for, as `field:direction,...`. */
  s: string
  /** Sort-key values of the last record of the previous page. */
  a: Scalar[]
  /** Position of the next page's first record. */
  p: number
}

const bad = (message: string): HttpError => new HttpError(400, `Invalid query: ${message}`)

const signature = (sort: SortKey[]): string => sort.map(k => `${k.field}:${k.direction}`).join(',')

export function encodeCursor (sort: SortKey[], last: ResourceRecord, position: number): string {
  const cursor: Cursor = { s: signature(sort), a: sort.map(k => last[k.field] ?? null), p: position }
  return Buffer.from(JSON.stringify(cursor)).toString('base64url')
}

function decodeCursor (raw: string, sort: SortKey[], columns: Map<string, Column>): Cursor {
  let cursor: Partial<Cursor>
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
  } catch {
    throw bad('cursor is not one this API issued; take it from a Link header')
  }
  const valid = typeof cursor === 'object' && cursor !== null &&
    Array.isArray(cursor.a) && cursor.a.length === sort.length &&
    // A value every engine can compare, of the sort key's kind (text without U+0000, a safe integer...).
    cursor.a.every((value, i) => value === null || KINDS[(columns.get((sort[i] as SortKey).field) as Column).kind].valid(value)) &&
    Number.isSafeInteger(cursor.p) && (cursor.p as number) >= 0
  if (!valid) throw bad('cursor is not one this API issued; take it from a Link header')
  if (cursor.s !== signature(sort)) throw bad('cursor was made for another sortby/order; keep them as they were in the Link header')
  return cursor as Cursor
}

function sortOf (columns: Map<string, Column>, sortby: string | undefined, order: string | undefined): SortKey[] {
  const fields = (sortby ?? 'id').split(',')
  const directions = (order ?? 'asc').split(',') as SortKey['direction'][]
  if (new Set(fields).size !== fields.length) throw bad('sortby names a field twice')
  if (directions.length !== 1 && directions.length !== fields.length) {
    throw bad(`order takes one direction for all sortby fields or one per field (${fields.length}), got ${directions.length}`)
  }
  const sort = fields.map((field, i) => ({
    field,
    direction: directions.length === 1 ? directions[0] as SortKey['direction'] : directions[i] as SortKey['direction']
  }))
  // `id` ends every sort, so the order is total and a keyset cursor is exact.
  if (!fields.includes('id')) sort.push({ field: 'id', direction: sort[sort.length - 1]?.direction ?? 'asc' })
  return sort
}

function filterOf (columns: Map<string, Column>, name: string, value: unknown): Filter {
  // The schema has checked the name: it says a field of the resource and an operator it takes.
  const { column, op } = termOf(columns, name) as NonNullable<ReturnType<typeof termOf>>
  try {
    return filterOfText(column, op, String(value))
  } catch (err) {
    throw bad((err as Error).message)
  }
}

/**
 * The fields a read answers, from `fields=` (its schema allows only field names): `id` and the
 * named ones, in the order of the resource's columns, so that one set of fields is always one
 * answer. Undefined when the parameter is absent: every field.
 */
export function parseFields (resource: Resource, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined
  const named = raw.split(',')
  const repeated = named.find((name, i) => named.indexOf(name) !== i)
  if (repeated !== undefined) throw bad(`fields names ${repeated} twice`)
  return resource.columns.map(c => c.name).filter(name => name === 'id' || named.includes(name))
}

/** `q=` as a filter: its distinct words, each of which must begin a word of the record (model/search.ts). */
function searchOf (q: string): Filter {
  const words = [...new Set(wordsOf(q))]
  if (words.length === 0) throw bad('q holds no word to search for: a word is a run of letters and digits')
  if (words.length > MAX_QUERY_WORDS) throw bad(`q holds ${words.length} words; at most ${MAX_QUERY_WORDS} are searched for`)
  return { field: 'q', op: 'search', value: words }
}

/** The filters of a validated querystring: one per field filter, and `q`. */
export function parseFilters (resource: Resource, params: Record<string, unknown>): Filter[] {
  const columns = new Map(resource.columns.map(c => [c.name, c]))
  const filters = Object.entries(params)
    .filter(([name, value]) => value !== undefined && !(NOT_FILTERS as readonly string[]).includes(name))
    .map(([name, value]) => filterOf(columns, name, value))
  if (params.q !== undefined) filters.push(searchOf(params.q as string))
  return filters
}

/**
 * Turns a validated querystring (the resource's `list` schema has checked names, types and
 * ranges) into the store's query, refusing the combinations a schema cannot express.
 */
export function parseListQuery (resource: Resource, params: Record<string, unknown>): ListRequest {
  const has = (name: string): boolean => params[name] !== undefined
  if ((has('limit') || has('offset')) && (has('page') || has('per_page'))) {
    throw bad('use limit/offset or page/per_page, not both')
  }
  if (has('cursor') && (has('offset') || has('page'))) throw bad('cursor replaces offset and page; send it without them')

  const columns = new Map(resource.columns.map(c => [c.name, c]))
  const sort = sortOf(columns, params.sortby as string | undefined, params.order as string | undefined)
  const filters = parseFilters(resource, params)
  const fields = parseFields(resource, params.fields as string | undefined)

  const mode = has('page') || has('per_page') ? 'page' : 'offset'
  const size = (mode === 'page' ? params.per_page : params.limit) as number | undefined ?? PAGE_SIZE.default
  if (has('cursor')) {
    const cursor = decodeCursor(params.cursor as string, sort, columns)
    return { query: { filters, sort, limit: size, offset: 0, after: cursor.a }, size, mode, position: cursor.p, fields }
  }
  const offset = mode === 'page' ? ((params.page as number | undefined ?? 1) - 1) * size : params.offset as number | undefined ?? 0
  return { query: { filters, sort, limit: size, offset }, size, mode, position: offset, fields }
}

/** The parameters that say where a page starts: each link sets its own. */
const POSITION = new Set(['offset', 'page', 'cursor'])

/** Where a page of a list starts and how the client pages (ListRequest's, or an aggregate's groups by offset). */
export type Paging = Pick<ListRequest, 'size' | 'mode' | 'position'>

/**
 * The RFC 8288 Link header of a list answer: first, prev, next, last (when counted), each keeping
 * the request's other parameters; `url` is the request's, at `origin`. Next is there when there
 * are `more`: at the keyset `cursor` when given, else at the next offset. The query is read once
 * and each distinct rest of it written once: URL objects rebuilt per link cost more than the rest
 * of a small page's answer.
 */
export function listLinks (
  origin: string, url: URL, list: Paging, total: number | undefined, more: boolean, cursor?: () => string
): string {
  const base = `${origin}${url.pathname}?`
  const pairs = [...url.searchParams]
  const kept = new URLSearchParams(pairs.filter(([name]) => !POSITION.has(name))).toString()
  const at = (position: number): string => {
    const start = list.mode === 'page' ? `page=${Math.floor(position / list.size) + 1}` : `offset=${position}`
    return `${base}${kept}${kept === '' ? '' : '&'}${start}`
  }
  const links = [`<${at(0)}>; rel="first"`]
  if (list.position > 0) links.push(`<${at(Math.max(0, list.position - list.size))}>; rel="prev"`)
  if (more && cursor !== undefined) {
    const next = new URLSearchParams(pairs.filter(([name]) => name !== 'offset' && name !== 'page'))
    next.set('cursor', cursor())
    links.push(`<${base}${next.toString()}>; rel="next"`)
  } else if (more) links.push(`<${at(list.position + list.size)}>; rel="next"`)
  // Without a count (Prefer: count=none) where the last page starts is not known.
  if (total !== undefined) links.push(`<${at(total === 0 ? 0 : Math.floor((total - 1) / list.size) * list.size)}>; rel="last"`)
  return links.join(', ')
}
