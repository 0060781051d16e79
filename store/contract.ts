import type { Filter } from '../model/filters.ts'
import type { Value } from '../model/kinds.ts'
import type { Resource, ResourceRecord, Scalar } from '../model/resource.ts'
import type { Sql } from './sql.ts'

export type { AnyOf, FieldFilter, Filter } from '../model/filters.ts'

/**
 * The storage contract of the collections, free of any SQL: each database engine implements
 * these two interfaces (store/sqlite/, store/postgres/) and nothing above them changes. Writes
 * settle once they are durable, so an engine may group them into shared transactions.
 */
export interface CollectionStores {
  collection (resource: Resource): CollectionStore
  /**
   * A stamp of each named collection that changes with every write committed to it, by this
   * process or any other, and never comes back to an earlier value: equal stamps mean the
   * collection is as it was. Read before what it vouches for (a list's ETag, collections/revalidation.ts).
   * `alongside` is answered first: with the stamps where the engine can (PostgreSQL), else alone.
   */
  changes (collections: readonly string[], options?: { alongside?: Alongside | undefined }): Promise<string[]>
  /** Every committed change of a record, in order: what the change feed reads. */
  readonly feed: ChangeLog
  /**
   * Runs one write in a transaction of its own, with every check it holds (its parent, its
   * precondition, its guard): the one way a write of one request is made, whatever surface asks.
   */
  write (write: Write, options: WriteOptions): Promise<WriteResult>
  /**
   * Runs writes in one transaction, all or none, each as `write` runs it alone: `next` is asked
   * for each once the one before it is done, with the results so far, until it answers undefined.
   * Together they may write at most `records` records, spent as each runs. What refuses one of
   * them, the store or `next` itself, undoes them all and is thrown as a BatchRefusal naming it.
   */
  batch (next: (done: readonly WriteResult[]) => Write | undefined, options: WriteOptions): Promise<WriteResult[]>
}

/**
 * The record a nested path names as the parent of its records: of `collection`, `id`, which must be
 * live when a write runs, and within `within` (what the token's access rules there let it see);
 * `field`, the written collection's field that names it, which a change of many is narrowed by.
 */
export interface Parent { collection: string, id: number, field: string, within: Filter[] }

/**
 * A write as the store runs it, alone or in a batch, with the checks its plan holds: `parent`, a
 * record that must be live when it runs (a nested path's), within what the token's access rules of
 * its collection let it see; `precondition`, checked against the live record; `guard`, the access
 * rules of the token that asks for it; `max`, the most records a change of many may match.
 */
export type Write = { collection: string, parent?: Parent, guard?: RecordGuard } & (
  | { op: 'create', inputs: ResourceRecord[], many: boolean }
  | { op: 'replace' | 'update', id: number, values: ResourceRecord, precondition?: Precondition }
  | { op: 'delete', id: number, precondition?: Precondition }
  | { op: 'updateWhere', filters: Filter[], values: ResourceRecord, max?: number }
  | { op: 'deleteWhere', filters: Filter[], max?: number }
)

/** What a write did: the records created, the record written, nothing (a delete), or the records a change of many wrote. */
export type WriteResult = Versioned[] | Versioned | undefined | { records: ResourceRecord[] }

/** How a write runs. */
export interface WriteOptions {
  /** The most records it may write (WRITE_MAX_RECORDS); a batch's writes share them. */
  records: number
  /** Work it all out, answer it, and write nothing (a change of many's `Prefer: tx=rollback`). */
  dryRun?: boolean
  /** The token's standing, asked before anything is written (in the same round trip where the engine can). */
  alongside?: Alongside | undefined
}

/** An operation of a batch refused, which refused the whole batch. */
export class BatchRefusal extends Error {
  override name = 'BatchRefusal'
  /** Its index in the batch. */
  readonly index: number
  readonly reason: unknown

  constructor (index: number, reason: unknown) {
    super(`operation ${index} refused: ${reason instanceof Error ? reason.message : String(reason)}`)
    this.index = index
    this.reason = reason
  }
}

/**
 * A question of another store (whether the request's token still stands) asked in the same
 * statement as a read of a record, which spares a round trip on PostgreSQL and a taking of the
 * file's locks on SQLite; on PostgreSQL also in the round trip of a list's totals or at the start
 * of a write's transaction. Elsewhere it is asked alone, and always before anything is written:
 * a write goes ahead only once it is answered.
 */
export interface Alongside {
  /** Answered already: nothing to ask. */
  readonly settled: boolean
  /** Its select list over one row, a fragment of the `sql` template. */
  columns (): Sql
  /** Takes its answer, the values of that select list; throws to refuse the request. */
  answer (values: unknown[]): void
  /**
   * Its answer the last time one was accepted, when known. A write may then go ahead in the
   * statement that asks, on condition that the answer is still exactly that, and give `answer`
   * what it was: an answer the same as one accepted is accepted, so a write is never made where
   * its request is refused.
   */
  readonly accepted?: readonly unknown[] | undefined
}

export type FeedEvent = 'created' | 'updated' | 'deleted'

/** One committed change of a record, as the change feed keeps it. */
export interface ChangeEntry {
  /**
   * Where it stands in the feed: a decimal number (text: it may pass 2^53) that grows in the order
   * changes become final, and is never handed out twice.
   */
  position: string
  collection: string
  id: number
  event: FeedEvent
  /** The record as the change left it; null once deleted. */
  record: ResourceRecord | null
  at: string
}

/**
 * The change feed's storage. Each write records its changes in its own transaction, so a change
 * is in the feed exactly when its write committed. A change is read only once it is final: no
 * change can appear later at a position before it.
 */
export interface ChangeLog {
  /** The final changes after `position` (of `collection`, or of all), in order, at most `limit`. */
  after (position: string, collection: string | undefined, limit: number): Promise<ChangeEntry[]>
  /**
   * The change of the same record just before `change`, when the feed keeps it and it is among
   * the last changes of the collection before (store/feed.ts, PREVIOUS_WITHIN); undefined: not known.
   */
  previous (change: ChangeEntry): Promise<ChangeEntry | undefined>
  /** The position of the last final change ('0' when none ever was): where a feed of what comes next starts. */
  head (): Promise<string>
  /** The last position pruned from a collection's feed ('0' when none was): resuming before it would miss changes. */
  pruned (collection: string): Promise<string>
  /** Forgets the changes recorded before `before` (RFC 3339), remembering the last position pruned; how many. */
  prune (before: string): Promise<number>
  /** Calls `listener` after each commit of this process that recorded changes; returns what stops it. */
  onCommit (listener: () => void): () => void
  /**
   * The key that positions are told to clients with (32 bytes, base64), the same for every
   * instance of the database: made by the first that asks, kept from then on.
   */
  positionKey (): Promise<string>
}

/** Compares two feed positions: negative, zero or positive as `a` comes before, at or after `b`. */
export function comparePositions (a: string, b: string): number {
  return a.length === b.length ? (a < b ? -1 : a > b ? 1 : 0) : a.length - b.length
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

/**
 * The records a write may touch, from the access rules of the token that asks for it, bound to
 * its claims (model/access.ts): filters that must all hold; none, no restriction. A record outside
 * `read` is as if it did not exist (404); one inside it but outside `write`, or that a write would
 * move outside `write`, refuses the write (403). A change of many records touches only those
 * within both.
 */
export interface RecordGuard {
  read: Filter[]
  write: Filter[]
  /** For a field that references a collection with access rules: the records there the token sees, the only ones it may name. */
  references: Record<string, Filter[]>
  /** Fields a change may not give another value than the record has (those the rules set on create). */
  fixed: string[]
}

/** How much a list answer counts (`Prefer: count=...`): `none` spares the count of matching records. */
export type Counting = 'exact' | 'none'

export interface ListOptions {
  counting: Counting
  /** The collection's stamp (CollectionStores.changes), read before the list: an engine may trust what it kept at that stamp. */
  changes?: string
}

export interface Page {
  items: ResourceRecord[]
  /** Records matching the filters, whatever the page; undefined when the list was not counted. */
  total: number | undefined
}

/** What an aggregate measures of a field in each group, besides the count every group has. */
export type Measure = 'sum' | 'avg' | 'min' | 'max'

/** A measure of a group: its count, or a measure of one field. */
export type GroupMeasure = { measure: 'count' } | { measure: Measure, field: string }

/** A field that forms the groups, or its bucket: the year, month or day of a date or timestamp. */
export interface GroupKey {
  field: string
  bucket?: 'year' | 'month' | 'day'
}

/** A condition on a group's measure (`having`): the list filters' operators, a value or a list of them. */
export interface GroupCondition {
  of: GroupMeasure
  op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in'
  value: Value | Value[]
}

/** What the groups are sorted by: a group key's field, or a measure. */
export interface GroupSortKey {
  by: { field: string } | GroupMeasure
  direction: 'asc' | 'desc'
}

/** An aggregate of a collection: the records `filters` match, grouped by `groupBy`, measured, filtered, sorted and paged. */
export interface AggregateQuery {
  filters: Filter[]
  groupBy: GroupKey[]
  /** Measured in every group, in this order, beside its count. */
  measures: Extract<GroupMeasure, { field: string }>[]
  having: GroupCondition[]
  /** Every group key comes last in it, so that the order is total. */
  sort: GroupSortKey[]
  limit: number
  offset: number
}

/** A group as answered: its keys by field, its `count`, and each measure asked, by field (`{"avg": {"weight": 152.5}}`). */
export type Group = Record<string, Scalar | Record<string, Scalar>>

export interface AggregateOptions {
  counting: Counting
  /** Seconds it may run. */
  timeout: number
}

export interface Groups {
  groups: Group[]
  /** How many groups there are in all, whatever the page; undefined when not counted. */
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

/** What a read of records may also carry: filters they must meet, and a question asked in the same statement. */
export interface ReadOptions {
  within?: Filter[]
  alongside?: Alongside | undefined
}

export interface CollectionStore {
  readonly resource: Resource
  list (query: ListQuery, options: ListOptions): Promise<Page>
  /** The live record, if `within` (filters) all hold for it; `alongside` is answered in the statement that reads it. */
  get (id: number, options?: ReadOptions): Promise<Versioned | undefined>
  /** The live records among `ids` for which `within` holds, in one read, in no particular order. */
  getMany (ids: readonly number[], within?: Filter[]): Promise<ResourceRecord[]>
  /**
   * The first `limit` records (in id order) whose `field` names each of `parents`, and how many
   * each has, of those for which `within` holds, in one read.
   */
  children (field: string, parents: readonly number[], limit: number, within?: Filter[]): Promise<Children>
  /** Whether an id names a live record, a deleted one (410) or none ever (404). */
  presence (id: number): Promise<Presence>
  /**
   * The groups of an aggregate, and how many there are unless `counting` is `none`, read apart from
   * the requests (on SQLite, on a thread of its own) and ended after `timeout` seconds, refused
   * then as `timed_out`.
   */
  aggregate (query: AggregateQuery, options: AggregateOptions): Promise<Groups>
}

/**
 * Checked against the live record in the same transaction as the write, just before it (If-Match,
 * or a nested route's parent): it throws to refuse the write.
 */
export type Precondition = (current: Versioned) => void

/** The account a token speaks for, which owns what it made beside the records (a job, a webhook): nobody else sees it. */
export interface Owner {
  issuer: string
  clientId: string
  subject: string
}
