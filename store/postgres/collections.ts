import type pg from 'pg'
import type { Scalar } from '../../model/kinds.ts'
import type { Resource, ResourceRecord } from '../../model/resource.ts'
import type { Alongside, Filter, ListOptions, ListQuery, Page, Precondition, Write, WriteOptions, WriteResult } from '../contract.ts'
import { feedRows } from '../feed.ts'
import { StampedTotals } from '../kept-totals.ts'
import { alreadyUsed, invalid, namesNoRecord, stillReferenced, timedOut } from '../refusals.ts'
import { runAwaiting, type Ask, type Sequence } from '../sequence.ts'
import { join, sql, type Sql, type Statement } from '../sql.ts'
import { emptyByTotal, TableCollection, type Deleting } from '../table-collection.ts'
import { TableStore } from '../table-store.ts'
import { prepared, PostgresPort, transaction, type Client, type Pool } from './database.ts'
import { POSTGRES } from './dialect.ts'
import { PostgresChangeLog } from './feed.ts'
import { PostgresListQueries } from './list.ts'
import { OneStatementWrites, stillAccepted, type Standing } from './one-statement.ts'
import { changesOf, changesOfOne } from './totals.ts'

/** What PostgreSQL says when a constraint refuses a write (its SQLSTATE). */
const UNIQUE_VIOLATION = '23505'
const FOREIGN_KEY_VIOLATION = '23503'
/** What a write made on a standing accepted before says when it no longer is (migrations/postgres/110_standing_changed.sql). */
const STANDING_CHANGED = 'Z0001'
/** What a write of one statement says when it finds no record to write (migrations/postgres/112_nothing_written.sql). */
const NOTHING_WRITTEN = 'Z0002'
/** A statement canceled by its `statement_timeout`. */
const QUERY_CANCELED = '57014'
/** Records whose search words are made in one statement at start-up. */
const INDEXING_BATCH = 2000

/**
 * Collections in PostgreSQL tables. A write of one record is one statement (one-statement.ts); any
 * other is a transaction that first locks its record (`FOR UPDATE`): docs/architecture.md, "Writes on PostgreSQL".
 */
export class PostgresCollectionStores extends TableStore<PostgresCollection> {
  readonly pool: Pool
  readonly resources: Resource[]
  readonly feed: PostgresChangeLog

  constructor (pool: Pool, resources: Resource[]) {
    super()
    this.pool = pool
    this.resources = resources
    this.feed = new PostgresChangeLog(new PostgresPort(pool))
    this.keep(resources.map(resource => new PostgresCollection(this, resource)))
  }

  /** Runs a write's sequence in one transaction, each statement awaited, its changes recorded in the feed with the commit. */
  override async commit<T> (sequence: (now: string) => Sequence<T>, alongside?: Alongside): Promise<T> {
    const now = new Date().toISOString()
    const { result, changes } = await transaction(this.pool, client => runAwaiting(sequence(now), ask => answerOn(client, ask)),
      done => this.feed.recording(feedRows(done.changes), now), alongside)
    if (changes.length > 0) this.feed.committed()
    return result
  }

  /**
   * A write of one record without access rules to check is one statement where it can be
   * (one-statement.ts), its parent a condition of it; any other, or one that statement did not
   * write, runs in a transaction, whose checks say why.
   */
  override async write (write: Write, options: WriteOptions): Promise<WriteResult> {
    if (write.guard === undefined && options.dryRun !== true) {
      const { parent } = write
      const live = parent === undefined
        ? undefined
        : sql`EXISTS (${this.named(parent.collection).sql.live(parent.id, false, parent.within)})`
      const written = await this.named(write.collection).writtenOnce(write, options.alongside, live)
      if (written !== undefined) return written.result
    }
    return super.write(write, options)
  }

  /** A constraint's refusal (another instance wrote between a check and the write) as what the check would have said. */
  override refusal ({ resource }: PostgresCollection, err: unknown, deleting: Deleting | undefined): unknown {
    const { code, constraint } = err as pg.DatabaseError
    if (code === UNIQUE_VIOLATION) {
      const field = resource.unique.find(f => constraint?.includes(f)) ?? 'id'
      return invalid([alreadyUsed(resource, field)])
    }
    if (code === FOREIGN_KEY_VIOLATION) {
      if (deleting !== undefined) return stillReferenced(resource, deleting === 'many' ? undefined : deleting, 'other records')
      const field = Object.keys(resource.references).find(f => constraint?.includes(f)) ?? 'id'
      return invalid([namesNoRecord(field, resource.references[field] as string)])
    }
    return err
  }

  /** The one row of a statement of a fixed text (prepared once per connection), its values in the order of the select list. */
  async row (statement: Sql): Promise<unknown[]> {
    return (await this.pool.query<unknown[]>(asArrays(statement))).rows[0] as unknown[]
  }

  /** The sums of the change counters (store/postgres/totals.ts): raised by every instance's writes, never lowered. */
  changes (collections: readonly string[], { alongside }: { alongside?: Alongside | undefined } = {}): Promise<string[]> {
    return changesOf(this.pool, collections, alongside)
  }

  /** Makes the search words of the records that have none yet, a statement a batch; one written meanwhile keeps its own. */
  async indexSearchWords (): Promise<void> {
    for (const collection of this.all) await collection.indexSearchWords()
  }
}

/** A statement, its rows as arrays: prepared once per connection, unless its text `varies` (a list's filters). */
function asArrays (statement: Sql, varies = false): pg.QueryArrayConfig {
  const { sql: text, params } = statement.render(POSTGRES.placeholder)
  return { ...(varies ? { text, values: params } : prepared(text, params)), rowMode: 'array' }
}

class PostgresCollection extends TableCollection {
  readonly #queries: PostgresListQueries
  readonly #totals = new StampedTotals()
  readonly #oneStatement: OneStatementWrites

  readonly store: PostgresCollectionStores

  constructor (store: PostgresCollectionStores, resource: Resource) {
    super(resource, store.resources, POSTGRES)
    this.store = store
    this.#queries = new PostgresListQueries(this.sql)
    this.#oneStatement = new OneStatementWrites(this.sql, store.feed)
  }

  async list (query: ListQuery, { counting, changes }: ListOptions): Promise<Page> {
    const total = counting === 'none' ? undefined : await this.#total(query.filters, changes)
    if (emptyByTotal(query, total)) return { items: [], total }
    return { items: (await this.rows(this.#queries.page(query), true)).map(row => this.sql.record(row)), total }
  }

  /** The count of `filters`, kept while the sum of the collection's change counters (`known` when the caller has read it) is the same. */
  async #total (filters: Filter[], known: string | undefined): Promise<number> {
    const changes = changesOfOne(this.resource.name)
    return await this.#totals.get(filters, known ?? (async () => (await this.store.row(changes))[0] as string), async () => {
      // Not a named statement, as the count itself never was: its text varies with the filters.
      const [[stamp, total]] = await this.rows(sql`SELECT (${changes}), (${this.sql.count(filters)})`, true) as [[string, number]]
      return { stamp, total }
    })
  }

  protected override async rows (statement: Sql, varies = false): Promise<Scalar[][]> {
    return (await this.store.pool.query<Scalar[]>(asArrays(statement, varies))).rows
  }

  /** Read in one read-only transaction of one snapshot, whose statements PostgreSQL cancels after `timeout` seconds. */
  protected override async readApart (statements: Sql[], timeout: number): Promise<Scalar[][][]> {
    const client = await this.store.pool.connect()
    try {
      // Begun and limited in one round trip.
      await client.query(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = ${Math.ceil(timeout * 1000)}`)
      const read: Scalar[][][] = []
      for (const statement of statements) read.push((await client.query<Scalar[]>(asArrays(statement, true))).rows)
      await client.query('COMMIT')
      return read
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {})
      throw (err as pg.DatabaseError).code === QUERY_CANCELED ? timedOut() : err
    } finally {
      client.release()
    }
  }

  async indexSearchWords (): Promise<void> {
    const search = this.sql.search
    if (search === undefined) return
    for (let after = 0; ;) {
      const { statement, words } = this.sql.unindexed(search, after, INDEXING_BATCH)
      const made = (await this.rows(statement, true)).map(words)
      const write = this.sql.indexing(search, made.map(([id]) => id), made.map(([, text]) => text))
      if (made.length === 0 || write === undefined) return
      await this.rows(write, true)
      after = made.at(-1)?.[0] as number
    }
  }

  /**
   * A write of one record in one statement (one-statement.ts), where it can be: its result, or
   * undefined when it must run in a transaction (a change of many, a create of several) or the
   * statement wrote nothing, where the transaction's checks say why. Every check the write holds is
   * in the statement: its parent as a condition, its precondition on the record read first (the
   * statement then writes that version only); a write with a guard is never given.
   */
  async writtenOnce (write: Write, alongside: Alongside | undefined, parent: Sql | undefined):
  Promise<{ result: WriteResult } | undefined> {
    switch (write.op) {
      case 'create': {
        const [input] = write.inputs
        if (write.many || write.inputs.length !== 1 || input === undefined) return undefined
        const row = await this.#writtenOnce(undefined, alongside,
          (now, condition) => this.#oneStatement.created(input, now, condition), parent)
        return row === undefined ? undefined : { result: [this.sql.versioned(row)] }
      }
      case 'replace': case 'update': {
        const values = write.op === 'replace' ? this.sql.replaced(write.values) : this.sql.changed(write.values)
        const row = await this.#writtenOnce(write, alongside, (now, condition, current) =>
          this.#oneStatement.updated(write.id, values, now, { ...current, ...(condition === undefined ? {} : { condition }) }), parent)
        return row === undefined ? undefined : { result: this.sql.versioned(row) }
      }
      case 'delete': {
        const row = await this.#writtenOnce(write, alongside, (now, condition, current) =>
          this.#oneStatement.deleted(write.id, now, { ...(current === undefined ? {} : { version: current.version }), condition }),
        parent)
        return row === undefined ? undefined : { result: undefined }
      }
      default: return undefined
    }
  }

  /**
   * A write in one statement, `statement` made with the conditions it must hold (`parent`, and the
   * token's standing when an answer was accepted before) and, where `read` names a record whose
   * precondition needs it, that record as read and accepted. Its row, or undefined when it wrote nothing.
   */
  async #writtenOnce (
    read: { id: number, precondition?: Precondition | undefined } | undefined, alongside: Alongside | undefined,
    statement: (now: string, condition: Sql | undefined, current?: { current: ResourceRecord, version: number }) => Statement,
    parent: Sql | undefined
  ): Promise<Scalar[] | undefined> {
    const standing = standingOf(alongside)
    let row: Scalar[] | typeof REFUSED | undefined
    if (read?.precondition === undefined && standing !== ASK_FIRST) {
      const conditions = [...(standing === undefined ? [] : [stillAccepted(standing)]), ...(parent === undefined ? [] : [parent])]
      row = await this.#once(statement(new Date().toISOString(), conditions.length === 0 ? undefined : join(conditions, ' AND ')))
      if (row !== undefined && row !== REFUSED) standing?.question.answer([...standing.accepted])
    } else if (read === undefined) {
      await this.settle(alongside)
      row = await this.#once(statement(new Date().toISOString(), parent))
    } else {
      const current = await this.get(read.id, { alongside })
      if (current === undefined) return undefined
      read.precondition?.(current)
      row = await this.#once(statement(new Date().toISOString(), parent, { current: current.record, version: current.version }))
    }
    return row === REFUSED ? undefined : row
  }

  /** Runs a write of one statement: its row once committed; REFUSED by a constraint; undefined when it found nothing to write. */
  async #once ({ sql: text, params }: Statement): Promise<Scalar[] | typeof REFUSED | undefined> {
    let row: Scalar[] | undefined
    try {
      row = (await this.store.pool.query<Scalar[]>({ ...prepared(text, params), rowMode: 'array' })).rows[0]
    } catch (err) {
      const { code } = err as pg.DatabaseError
      if (code === UNIQUE_VIOLATION || code === FOREIGN_KEY_VIOLATION) return REFUSED
      if (code === STANDING_CHANGED || code === NOTHING_WRITTEN) return undefined
      throw err
    }
    if (row !== undefined) this.store.feed.committed()
    return row
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

/** Runs one statement of a write on the connection of its transaction, as the write asks. */
async function answerOn (client: Client, ask: Ask): Promise<unknown> {
  const { rows, rowCount } = await client.query<Scalar[]>(asArrays(ask.statement))
  switch (ask.want) {
    case 'row': return rows[0]
    case 'rows': return rows
    case 'exists': return rowCount !== 0
    case 'run': case 'later': return undefined
  }
}
