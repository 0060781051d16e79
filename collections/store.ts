import type { FilterOperator, Resource, ResourceRecord, Scalar } from './resource.ts'

/**
 * The storage contract of the collections, free of any SQL: each database engine implements
 * these two interfaces (store/sqlite/, store/postgres/) and nothing above them changes. Writes
 * settle once they are durable, so an engine may group them into shared transactions.
 */
export interface Store {
  collection (resource: Resource): CollectionStore
}

export interface Filter {
  field: string
  op: FilterOperator
  /** A list for `in`; null for `eq`/`ne` means "has no value". */
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

export interface Page {
  items: ResourceRecord[]
  /** Records matching the filters, whatever the page. */
  total: number
}

export interface Versioned {
  record: ResourceRecord
  /** Grows on every write: the record's ETag. */
  version: number
}

export type Presence = 'live' | 'deleted' | 'absent'

export interface CollectionStore {
  readonly resource: Resource
  list (query: ListQuery): Promise<Page>
  get (id: number): Promise<Versioned | undefined>
  /** Whether an id names a live record, a deleted one (410) or none ever (404). */
  presence (id: number): Promise<Presence>
  /** Creates every input or none. Field errors of input i are reported under `i.` when `batch`. */
  create (inputs: ResourceRecord[], batch: boolean): Promise<Versioned[]>
  /** Sets every writable field: one missing from `input` becomes null. */
  replace (id: number, input: ResourceRecord, precondition?: Precondition): Promise<Versioned>
  /** Sets only the fields present in `changes`. */
  update (id: number, changes: ResourceRecord, precondition?: Precondition): Promise<Versioned>
  delete (id: number, precondition?: Precondition): Promise<void>
}

/**
 * Checked against the live record in the same transaction as the write, just before it (If-Match,
 * or a nested route's parent): it throws to refuse the write.
 */
export type Precondition = (current: Versioned) => void
