import type { FilterOperator, Resource, ResourceRecord, Scalar } from './resource.ts'

/**
 * The storage contract of the collections, free of any SQL: each database engine implements
 * these two interfaces (store/sqlite/, store/postgres/) and nothing above them changes. Writes
 * settle once they are durable, so an engine may group them into shared transactions.
 */
export interface Store {
  collection (resource: Resource): CollectionStore
  /**
   * A stamp of each named collection that changes with every write committed to it, by this
   * process or any other, and never comes back to an earlier value: equal stamps mean the
   * collection is as it was. Read before what it vouches for (a list's ETag, collections/revalidation.ts).
   */
  changes (collections: readonly string[]): Promise<string[]>
}

export interface Filter {
  /** The field compared; for `search`, `q`. */
  field: string
  op: FilterOperator
  /** A list for `in`, the words of the query for `search`; null for `eq`/`ne` means "has no value". */
  value: Scalar | Scalar[]
}

/** One key per set of filters, whatever the order its filters came in: what a total is kept under. */
export function filterSetKey (filters: Filter[]): string {
  return filters.map(f => JSON.stringify([f.field, f.op, f.value])).sort().join('&')
}

export interface SortKey {
  field: string
  direction: 'asc' | 'desc'
}

export interface ListQuery {
  filters: Filter[]
  /** A total order: the last key is `id`. */
  sort: SortKey[]
  limit: number
  /** Records to skip; 0 when `after` is given. */
  offset: number
  /** Keyset position: the sort-key values of the last record already seen, in `sort` order. */
  after?: Scalar[]
}

/** How much a list answer counts (`Prefer: count=...`): `none` spares the count of matching records. */
export type Counting = 'exact' | 'none'

export interface ListOptions {
  counting: Counting
  /** The collection's stamp (Store.changes), read before the list: an engine may trust what it kept at that stamp. */
  changes?: string
}

export interface Page {
  items: ResourceRecord[]
  /** Records matching the filters, whatever the page; undefined when the list was not counted. */
  total: number | undefined
}

/** The records of some parents, each parent's first ones in id order (an embedded collection). */
export interface Children {
  /** Up to the limit asked, by parent id. */
  items: Map<number, ResourceRecord[]>
  /** How many records each parent has in all. */
  totals: Map<number, number>
}

export interface Versioned {
  record: ResourceRecord
  /** Grows on every write: the record's ETag. */
  version: number
}

export type Presence = 'live' | 'deleted' | 'absent'

/** What bounds a change of every record a set of filters matches. */
export interface BulkLimits {
  /** More matches than this refuses the whole change (422 naming the count). */
  max?: number
  /** Work it all out, answer it, and write nothing. */
  dryRun: boolean
}

export interface CollectionStore {
  readonly resource: Resource
  list (query: ListQuery, options: ListOptions): Promise<Page>
  get (id: number): Promise<Versioned | undefined>
  /** The live records among `ids`, in one read, in no particular order. */
  getMany (ids: readonly number[]): Promise<ResourceRecord[]>
  /** The first `limit` records (in id order) whose `field` names each of `parents`, and how many each has, in one read. */
  children (field: string, parents: readonly number[], limit: number): Promise<Children>
  /** Whether an id names a live record, a deleted one (410) or none ever (404). */
  presence (id: number): Promise<Presence>
  /** Creates every input or none. Field errors of input i are reported under `i.` when `batch`. */
  create (inputs: ResourceRecord[], batch: boolean): Promise<Versioned[]>
  /** Sets every writable field: one missing from `input` becomes null. */
  replace (id: number, input: ResourceRecord, precondition?: Precondition): Promise<Versioned>
  /** Sets only the fields present in `changes`. */
  update (id: number, changes: ResourceRecord, precondition?: Precondition): Promise<Versioned>
  delete (id: number, precondition?: Precondition): Promise<void>
  /**
   * Sets the fields of `changes` in every live record `filters` match (at least one), each as
   * `update` would, in one transaction: all or none. The records as written, in id order.
   */
  updateWhere (filters: Filter[], changes: ResourceRecord, limits: BulkLimits): Promise<Versioned[]>
  /** Deletes every live record `filters` match, each as `delete` would, all or none: the records as they were, in id order. */
  deleteWhere (filters: Filter[], limits: BulkLimits): Promise<ResourceRecord[]>
}

/**
 * Checked against the live record in the same transaction as the write, just before it (If-Match,
 * or a nested route's parent): it throws to refuse the write.
 */
export type Precondition = (current: Versioned) => void
