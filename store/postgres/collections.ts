import type pg from 'pg'
import type { Scalar } from '../../model/kinds.ts'
import type { Resource, ResourceRecord } from '../../model/resource.ts'
import type {
  Alongside, BatchResult, BatchWrite, BulkLimits, Children, CollectionStore, Filter, ListOptions, ListQuery, Page, Precondition, Presence,
  Store, Versioned
} from '../contract.ts'
import { batchFailure, batching, type BatchPosition } from '../batching.ts'
import { CollectionCore, feedRows } from '../collections.ts'
import type { Statement } from '../dialect.ts'
import { RecordBudget } from '../record-budget.ts'
import { invalid, stillReferenced } from '../refusals.ts'
import { maybeUndone, resultOf, runAwaiting, type Ask, type Sequence } from '../sequence.ts'
import { prepared, transaction, type Client, type Pool } from './database.ts'
import { POSTGRES } from './dialect.ts'
import { PostgresChangeLog } from './feed.ts'
import { PostgresListQueries } from './list.ts'
import { OneStatementWrites, type Standing } from './one-statement.ts'
import { changesOf, PostgresTotals } from './totals.ts'

/** What PostgreSQL says when a constraint refuses a write (its SQLSTATE). */
const UNIQUE_VIOLATION = '23505'
const FOREIGN_KEY_VIOLATION = '23503'
/** What a write made on a standing accepted before says when it no longer is (migrations/postgres/110_standing_changed.sql). */
const STANDING_CHANGED = 'Z0001'
/** What a write of one statement says when it finds no record to write (migrations/postgres/112_nothing_written.sql). */
const NOTHING_WRITTEN = 'Z0002'
/** Records whose search words are made in one statement at start-up. */
const INDEXING_BATCH = 2000

/**
 * Collections in PostgreSQL tables named after them (migrations/postgres/). A write of one record
 * is one statement, which writes it only while it is at the version read (a create, only while
 * the token's standing is as accepted before): store/postgres/one-statement.ts. Any other write,
 * and one that statement cannot make, is one transaction that first locks the record it changes
 * (`FOR UPDATE`). Either way the precondition (If-Match, the parent of a nested path) holds for
 * the record as it is written, whatever other instances do meanwhile. A list's total is counted
 * again only when a write has committed since it was last counted, on any instance
 * (store/postgres/totals.ts).
 */
export class PostgresStore implements Store {
  readonly #collections = new Map<string, PostgresCollection>()

  readonly pool: Pool
  readonly resources: Resource[]
  readonly feed: PostgresChangeLog

  constructor (pool: Pool, resources: Resource[]) {
    this.pool = pool
    this.resources = resources
    this.feed = new PostgresChangeLog(pool)
    for (const resource of resources) this.#collections.set(resource.name, new PostgresCollection(this, resource))
  }

  collection (resource: Resource): CollectionStore {
    const collection = this.#collections.get(resource.name)
    if (collection === undefined) throw new Error(`no collection ${resource.name}`)
    return collection
  }

  async batch (next: (done: readonly BatchResult[]) => BatchWrite | undefined, records: number, alongside?: Alongside):
  Promise<BatchResult[]> {
    const position: BatchPosition = { started: false, index: 0, write: undefined, done: false }
    try {
      const now = new Date().toISOString()
      const budget = new RecordBudget(records, true)
      const { result, touched } = await transaction(this.pool,
        client => runAwaiting(batching(name => this.#named(name).core, next, now, position, budget), ask => answerOn(client, ask)),
        done => this.feed.recording(done.touched.flatMap(({ collection, changes }) => feedRows(collection, changes)), now), alongside)
      if (touched.some(({ changes }) => changes.length > 0)) this.feed.committed()
      return result
    } catch (err) {
      const write = position.write
      const deleting = write?.op === 'delete' ? write.id : write?.op === 'deleteWhere' ? 'many' : undefined
      throw batchFailure(position, write === undefined ? err : refusalOf(this.#named(write.collection).resource, err, deleting))
    }
  }

  #named (name: string): PostgresCollection {
    const collection = this.#collections.get(name)
    if (collection === undefined) throw new Error(`no collection ${name}`)
    return collection
  }

  /** The sums of the change counters (store/postgres/totals.ts): raised by every instance's writes, never lowered. */
  changes (collections: readonly string[], alongside?: Alongside): Promise<string[]> {
    return changesOf(this.pool, collections, alongside)
  }

  /**
   * Makes the search words of the records that have none yet (those written before the search
   * column was, or by a version without it), in batches of one statement each. Every write keeps
   * them from then on; instances starting together make the same words, and a record another
   * instance writes between the read of a batch and its write keeps the words that write made
   * (`CollectionCore.indexing`).
   */
  async indexSearchWords (): Promise<void> {
    for (const collection of this.#collections.values()) await collection.indexSearchWords()
  }
}

/** A statement whose text is one of a few (store/postgres/database.ts), its rows as arrays of the select list. */
const asArrays = (sql: string, params: unknown[]): pg.QueryArrayConfig => ({ ...prepared(sql, params), rowMode: 'array' })

class PostgresCollection implements CollectionStore {
  readonly core: CollectionCore
  readonly #queries: PostgresListQueries
  readonly #pool: Pool
  readonly #totals: PostgresTotals
  readonly #oneStatement: OneStatementWrites
  /** The read of one record with another question's columns, by the text of those: made once, as the statement is named by it. */
  readonly #readAlongside = new Map<string, string>()

  readonly store: PostgresStore
  readonly resource: Resource

  constructor (store: PostgresStore, resource: Resource) {
    this.store = store
    this.resource = resource
    this.#pool = store.pool
    this.core = new CollectionCore(resource, store.resources, POSTGRES)
    this.#totals = new PostgresTotals(resource.name)
    this.#queries = new PostgresListQueries(this.core)
    this.#oneStatement = new OneStatementWrites(this.core, store.feed)
  }

  async list (query: ListQuery, { counting, changes }: ListOptions): Promise<Page> {
    const total = counting === 'none'
      ? undefined
      : await this.#totals.get(this.#pool, query.filters, this.#queries.count(query.filters), changes)
    // The total is exact: a page that starts past it is empty without reading anything.
    if (total === 0 || (total !== undefined && query.after === undefined && query.offset >= total)) return { items: [], total }
    const page = this.#queries.page(query)
    const found = await this.#pool.query<Scalar[]>({ text: page.sql, values: page.params, rowMode: 'array' } satisfies pg.QueryArrayConfig)
    return { items: found.rows.map(row => this.core.record(row)), total }
  }

  async get (id: number, alongside?: Alongside): Promise<Versioned | undefined> {
    if (alongside === undefined || alongside.settled) {
      const { rows } = await this.#pool.query<Scalar[]>(asArrays(this.core.read, [id]))
      return rows[0] === undefined ? undefined : this.core.versioned(rows[0])
    }
    // One row whatever the record: the other question's answer, then the record's columns (nulls when there is none).
    const also = alongside.columns(2)
    let sql = this.#readAlongside.get(also.sql)
    if (sql === undefined) {
      sql = `SELECT ${also.sql}, record.* FROM (SELECT 1) AS one LEFT JOIN (${this.core.read}) AS record ON true`
      this.#readAlongside.set(also.sql, sql)
    }
    const { rows } = await this.#pool.query<Scalar[]>(asArrays(sql, [id, ...also.params]))
    const row = rows[0] as Scalar[]
    alongside.answer(row.slice(0, also.count))
    const record = row.slice(also.count)
    return record[0] === null ? undefined : this.core.versioned(record)
  }

  async getMany (ids: readonly number[]): Promise<ResourceRecord[]> {
    if (ids.length === 0) return []
    const { sql, params } = this.core.byIds(ids)
    const { rows } = await this.#pool.query<Scalar[]>(asArrays(sql, params))
    return rows.map(row => this.core.record(row))
  }

  async children (field: string, parents: readonly number[], limit: number): Promise<Children> {
    if (parents.length === 0) return { items: new Map(), totals: new Map() }
    const { sql, params } = this.core.children(field, parents, limit)
    const { rows } = await this.#pool.query<Scalar[]>({ text: sql, values: params, rowMode: 'array' } satisfies pg.QueryArrayConfig)
    const { items, totals, full } = this.core.grouped(field, parents, rows, limit)
    if (full.length > 0) {
      const counts = this.core.childCounts(field, full)
      const { rows: counted } = await this.#pool.query<[string, string]>(asArrays(counts.sql, counts.params))
      for (const [parent, count] of counted) totals.set(Number(parent), Number(count))
    }
    return { items, totals }
  }

  async indexSearchWords (): Promise<void> {
    const search = this.core.search
    const write = search === undefined ? undefined : this.core.indexing(search)
    if (search === undefined || write === undefined) return
    for (let after = 0; ;) {
      const { sql, params, words } = this.core.unindexed(search, after, INDEXING_BATCH)
      const { rows } = await this.#pool.query<Scalar[]>({ text: sql, values: params, rowMode: 'array' } satisfies pg.QueryArrayConfig)
      if (rows.length === 0) return
      const made = rows.map(words)
      await this.#pool.query(write, [made.map(([id]) => id), made.map(([, text]) => text)])
      after = made.at(-1)?.[0] as number
    }
  }

  async presence (id: number): Promise<Presence> {
    // One round trip for both questions.
    const { rows } = await this.#pool.query<{ live: boolean, deleted: boolean }>(prepared(
      `SELECT EXISTS (SELECT 1 FROM ${this.core.table} WHERE id = $1) AS live, ` +
      'EXISTS (SELECT 1 FROM tombstones WHERE collection = $2 AND id = $1) AS deleted', [id, this.resource.name]))
    const { live, deleted } = rows[0] as { live: boolean, deleted: boolean }
    return live ? 'live' : deleted ? 'deleted' : 'absent'
  }

  /*
   * A write of one record asks its question (the token's standing) first, with the read of the
   * record it changes when there is one, then writes in one statement
   * (store/postgres/one-statement.ts): two round trips. A create whose token's standing was
   * accepted before asks it again in its own statement: one. Whatever that statement cannot
   * write (see there) is written by a transaction of its own, whose checks answer as always.
   */

  async create (inputs: ResourceRecord[], batch: boolean, records: number, alongside?: Alongside): Promise<Versioned[]> {
    const [input] = inputs
    if (!batch && inputs.length === 1 && input !== undefined) {
      const created = await this.#createdOnce(input, alongside)
      if (created !== REFUSED && created !== undefined) return [this.core.versioned(created)]
    }
    return this.#commit(now => this.core.creating(inputs, batch, now, new RecordBudget(records)), alongside)
  }

  /**
   * A create in one statement: with its question when an answer accepted before makes that
   * possible (the record inserted only while the answer is the same), else once the question is
   * answered. Its row; REFUSED when a constraint refused it; undefined when the answer changed,
   * when it had to ask first. Nothing written but the row.
   */
  async #createdOnce (input: ResourceRecord, alongside: Alongside | undefined): Promise<Scalar[] | typeof REFUSED | undefined> {
    const standing = standingOf(alongside)
    if (standing !== undefined && standing !== ASK_FIRST) {
      const row = await this.#asked(this.#oneStatement.createdWhile(input, new Date().toISOString(), standing), standing)
      if (row !== undefined) return row
    }
    await this.#settle(alongside)
    return this.#once(this.#oneStatement.created(input, new Date().toISOString()))
  }

  async replace (id: number, input: ResourceRecord, precondition?: Precondition, alongside?: Alongside): Promise<Versioned> {
    return this.#write(id, this.core.replaced(input), precondition, alongside)
  }

  async update (id: number, changes: ResourceRecord, precondition?: Precondition, alongside?: Alongside): Promise<Versioned> {
    return this.#write(id, this.core.changed(changes), precondition, alongside)
  }

  async #write (id: number, values: ResourceRecord, precondition?: Precondition, alongside?: Alongside): Promise<Versioned> {
    const written = await this.#writtenOnce(id, precondition, alongside,
      (now, standing) => this.#oneStatement.updatedUnread(id, values, now, standing),
      (now, current) => this.#oneStatement.updated(current.record, current.version, values, now))
    if (written !== undefined) return this.core.versioned(written)
    return this.#commit(now => this.core.writing(id, values, precondition, now), alongside)
  }

  async delete (id: number, precondition?: Precondition, alongside?: Alongside): Promise<void> {
    const deleted = await this.#writtenOnce(id, precondition, alongside,
      (now, standing) => this.#oneStatement.deletedUnread(id, now, standing),
      (now, current) => this.#oneStatement.deleted(id, current.version, now))
    if (deleted !== undefined) return
    return this.#commit(now => this.core.deleting(id, precondition, now), alongside, id)
  }

  /**
   * A write of record `id` in one statement: `unread` where nothing needs the record first (no
   * precondition) and the standing can be asked in the statement, else `read` once the record is
   * read with the standing and the precondition accepts it. Its row, or undefined when it wrote
   * nothing (for whatever reason: the transaction that follows says which).
   */
  async #writtenOnce (
    id: number, precondition: Precondition | undefined, alongside: Alongside | undefined,
    unread: (now: string, standing: Standing | undefined) => Statement, read: (now: string, current: Versioned) => Statement
  ): Promise<Scalar[] | undefined> {
    const standing = standingOf(alongside)
    let row: Scalar[] | typeof REFUSED | undefined
    if (precondition === undefined && standing !== ASK_FIRST) {
      row = await this.#asked(unread(new Date().toISOString(), standing), standing)
    } else {
      const current = await this.get(id, alongside)
      if (current === undefined) return undefined
      precondition?.(current)
      row = await this.#once(read(new Date().toISOString(), current))
    }
    return row === REFUSED ? undefined : row
  }

  /** `#once`, for a statement that asks `standing` (if any) in itself: the standing is answered as accepted once it wrote. */
  async #asked (statement: Statement, standing: Standing | undefined): Promise<Scalar[] | typeof REFUSED | undefined> {
    const row = await this.#once(statement)
    if (row !== undefined && row !== REFUSED) standing?.question.answer([...standing.accepted])
    return row
  }

  /** Asks `alongside` alone, unless it is answered. */
  async #settle (alongside: Alongside | undefined): Promise<void> {
    if (alongside === undefined || alongside.settled) return
    const { sql, params } = alongside.columns(1)
    const { rows } = await this.#pool.query<unknown[]>(asArrays(`SELECT ${sql}`, params))
    alongside.answer(rows[0] as unknown[])
  }

  /**
   * Runs a write of one statement: the row it answers, once committed. Nothing is written
   * otherwise, not even the collection's change counter: REFUSED when a constraint refused it,
   * undefined when it found no record to write (none with the id, or one changed since it was
   * read) or the standing it was made on changed.
   */
  async #once ({ sql, params }: Statement): Promise<Scalar[] | typeof REFUSED | undefined> {
    let row: Scalar[] | undefined
    try {
      row = (await this.#pool.query<Scalar[]>(asArrays(sql, params))).rows[0]
    } catch (err) {
      const { code } = err as pg.DatabaseError
      if (code === UNIQUE_VIOLATION || code === FOREIGN_KEY_VIOLATION) return REFUSED
      if (code === STANDING_CHANGED || code === NOTHING_WRITTEN) return undefined
      throw err
    }
    if (row !== undefined) this.store.feed.committed()
    return row
  }

  async updateWhere (filters: Filter[], changes: ResourceRecord, { max, dryRun, records }: BulkLimits, alongside?: Alongside):
  Promise<Versioned[]> {
    const values = this.core.changed(changes)
    const budget = new RecordBudget(records)
    return resultOf(this.#commit(now => maybeUndone(this.core.writingWhere(filters, values, max, now, budget), dryRun), alongside))
  }

  async deleteWhere (filters: Filter[], { max, dryRun, records }: BulkLimits, alongside?: Alongside): Promise<ResourceRecord[]> {
    const budget = new RecordBudget(records)
    return resultOf(this.#commit(now => maybeUndone(this.core.deletingWhere(filters, max, now, budget), dryRun), alongside, 'many'))
  }

  /**
   * A write's sequence in one transaction, each statement awaited, its changes recorded in the
   * feed before the commit. The checks of the sequence run
   * before the constraints would refuse: the constraints only catch a write of another instance
   * between check and write, and say it the same way. `deleting` says what a delete removes.
   */
  async #commit<T> (sequence: (now: string) => Sequence<T>, alongside?: Alongside, deleting?: Deleting): Promise<T> {
    try {
      const now = new Date().toISOString()
      const { result, changes } = await transaction(this.#pool, client => runAwaiting(sequence(now), ask => answerOn(client, ask)),
        done => this.store.feed.recording(feedRows(this.resource.name, done.changes), now), alongside)
      if (changes.length > 0) this.store.feed.committed()
      return result
    } catch (err) {
      throw refusalOf(this.resource, err, deleting)
    }
  }
}

/** A question that must be asked before a write: it was never accepted, so a statement cannot ask it as it writes. */
const ASK_FIRST = 'ask first'

/** What a one-statement write asks: nothing (no question, or one answered), the question with its accepted answer, or ASK_FIRST. */
function standingOf (alongside: Alongside | undefined): Standing | typeof ASK_FIRST | undefined {
  if (alongside === undefined || alongside.settled) return undefined
  const accepted = alongside.accepted
  return accepted === undefined ? ASK_FIRST : { question: alongside, accepted }
}

/** A write of one statement that a constraint refused: the transaction's checks say why. */
const REFUSED = 'refused'

/** What a delete removes: a record by its id, or the records of a change of many. */
type Deleting = number | 'many'

/** Runs one statement of a write on the connection of its transaction, as the write asks. */
async function answerOn (client: Client, ask: Ask): Promise<unknown> {
  const { rows, rowCount } = await client.query<Scalar[]>(asArrays(ask.sql, ask.params))
  switch (ask.want) {
    case 'row': return rows[0]
    case 'rows': return rows
    case 'exists': return rowCount !== 0
    case 'run': case 'later': return undefined
  }
}

/**
 * A write's failure as the refusal it stands for: a constraint that refused it (a write of another
 * instance slipped in between check and write) says what the checks would have said. `deleting`
 * says what a delete removes.
 */
function refusalOf (resource: Resource, err: unknown, deleting?: Deleting): unknown {
  const { code, constraint } = err as pg.DatabaseError
  if (code === UNIQUE_VIOLATION) {
    const field = resource.unique.find(f => constraint?.includes(f)) ?? 'id'
    return invalid([{ field, code: 'unique', message: `${field} is already used by another ${resource.singular}` }])
  }
  if (code === FOREIGN_KEY_VIOLATION) {
    if (deleting !== undefined) return stillReferenced(resource, deleting === 'many' ? undefined : deleting, 'other records')
    const field = Object.keys(resource.references).find(f => constraint?.includes(f)) ?? 'id'
    return invalid([{ field, code: 'not_found', message: `${field} names no existing record of ${resource.references[field]}` }])
  }
  return err
}
