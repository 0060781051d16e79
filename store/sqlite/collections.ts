import { randomBytes } from 'node:crypto'
import type Database from 'better-sqlite3'
import { compareAsciiCaseInsensitive, KINDS, type Comparator, type Scalar } from '../../model/kinds.ts'
import type { Resource, ResourceRecord } from '../../model/resource.ts'
import type { Filter, ListOptions, ListQuery, Page } from '../contract.ts'
import { feedRows } from '../feed.ts'
import { runNow, type Ask, type Change, type Sequence } from '../sequence.ts'
import { sql, type Sql } from '../sql.ts'
import { TableCollection } from '../table-collection.ts'
import { TableStore } from '../table-store.ts'
import { SqlitePort, type SqliteDatabase } from './database.ts'
import { searchTable, SQLITE } from './dialect.ts'
import { SqliteChangeLog } from './feed.ts'
import { GroupCommit } from './group-commit.ts'
import { ListQueries, readIndexes } from './list.ts'
import { checkTables } from './schema.ts'
import { SqliteTotals } from './totals.ts'
import { COLUMNS } from './columns.ts'

/** Records whose search words are made in one transaction at start-up. */
const INDEXING_BATCH = 2000

/** Collections stored in SQLite tables named after them (migrations/). */
export class SqliteCollectionStores extends TableStore<SqliteCollection> {
  readonly #dataVersion: Database.Statement
  #seenVersion: number
  /**
   * Begins every change stamp: counters start at 0 in each process, so a stamp of an earlier
   * process (or of another process on the file) must never equal one of this.
   */
  readonly #epoch = randomBytes(9).toString('base64url')
  /** Every collection write goes through it: see store/sqlite/group-commit.ts. */
  readonly groupCommit: GroupCommit
  readonly feed: SqliteChangeLog
  /**
   * The statements the running write left for its end (`want: 'later'`): the upkeep of the FTS5
   * search tables. Every statement that writes a collection's table, run while an FTS5 table holds
   * words not yet written out, makes FTS5 write them out as a segment of their own (the
   * statement's savepoint reaches every virtual table of the transaction), and the merging of those
   * tiny segments made each word written cost ten times its own: a PATCH of 10,000 zoos took 1.2 s,
   * 1 s of it in FTS5; run at the end of the write, 0.5 s. At the end of each write, not of its
   * group: the words of a whole group written at its commit made single writes wait longer (the
   * p99 of patch-one doubled, and 8% fewer of them a second), and a write refused after its words
   * were written out would have taken the other writes' words with it.
   */
  readonly #later: Ask[] = []
  /** How many of them have run: a read of many rows runs them before it reads. */
  #laterRun = 0

  readonly db: SqliteDatabase
  /** The statements of the collections and of the stores beside them, compiled once and kept. */
  readonly port: SqlitePort
  readonly resources: Resource[]

  constructor (db: SqliteDatabase, resources: Resource[]) {
    super()
    this.db = db
    this.port = new SqlitePort(db)
    this.resources = resources
    checkTables(db, resources)
    this.groupCommit = new GroupCommit(db)
    this.feed = new SqliteChangeLog(db, this.port)
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck()
    this.#seenVersion = this.#dataVersion.get() as number
    this.keep(resources.map(resource => new SqliteCollection(this, resource)))
    for (const collection of this.all) collection.mergeSearchWordsGradually()
    this.indexSearchWords()
  }

  async changes (collections: readonly string[]): Promise<string[]> {
    this.checkForeignWrites()
    return collections.map(name => `${this.#epoch}.${this.named(name).changes}`)
  }

  /**
   * Runs a write's sequence inside a group commit's transaction, each statement at once, and
   * records its changes in the feed in the same transaction; the kept totals change with the
   * commit, not before: a write undone leaves them as they were.
   */
  override commit<T> (sequence: (now: string) => Sequence<T>): Promise<T> {
    return this.groupCommit.submit(onCommit => {
      const now = new Date().toISOString()
      const { result, changes } = this.#running(() => {
        const done = runNow(sequence(now), ask => this.answer(ask))
        this.feed.record(feedRows(done.changes), now)
        return done
      })
      onCommit(() => this.#committed(changes))
      return result
    })
  }

  /** Once a write's transaction has committed: its changes kept in the totals of each collection changed, counted, told to the feed. */
  #committed (changes: readonly Change[]): void {
    for (const name of new Set(changes.map(change => change.collection))) {
      const collection = this.named(name)
      for (const { before, after } of changes.filter(change => change.collection === name)) collection.totals.apply(before, after)
      collection.changes++
      this.feed.committed()
    }
  }

  /**
   * Runs one write of a group, in its savepoint, then what it left for its end; a write that throws
   * is undone whole by its savepoint, and what it left is dropped.
   */
  #running<T> (write: () => T): T {
    try {
      const result = write()
      this.#runLater()
      return result
    } finally {
      this.#later.length = 0
      this.#laterRun = 0
    }
  }

  #runLater (): void {
    for (; this.#laterRun < this.#later.length; this.#laterRun++) this.run((this.#later[this.#laterRun] as Ask).statement)
  }

  /** Runs one statement of a write in the open transaction, as the write asks. */
  answer (ask: Ask): unknown {
    switch (ask.want) {
      case 'later': return this.#later.push(ask)
      case 'row': return this.row(ask.statement)
      case 'rows':
        // A read of many rows may read the search index: it sees every write before it.
        this.#runLater()
        return this.rows(ask.statement)
      case 'exists': return this.row(ask.statement) !== undefined
      case 'run': return this.run(ask.statement)
    }
  }

  /** The first row of a statement, its values in the order of the select list, or undefined. */
  row (statement: Sql): Scalar[] | undefined {
    const { compiled, params } = this.port.compiled(statement)
    return compiled.raw().get(...params) as Scalar[] | undefined
  }

  /** Every row of a statement, each its values in the order of the select list. */
  rows (statement: Sql): Scalar[][] {
    const { compiled, params } = this.port.compiled(statement)
    return compiled.raw().all(...params) as Scalar[][]
  }

  /** The first value of the first row of a statement. */
  value (statement: Sql): unknown {
    const { compiled, params } = this.port.compiled(statement)
    return compiled.pluck().get(...params)
  }

  run (statement: Sql): void {
    const { compiled, params } = this.port.compiled(statement)
    compiled.run(...params)
  }

  /**
   * Makes the search words of the records that have none yet (those written before the search
   * index was: store/sqlite/schema.ts), in batches of a transaction each. Every write keeps them
   * from then on.
   */
  indexSearchWords (): void {
    for (const collection of this.all) collection.indexSearchWords()
  }

  /**
   * Forgets every kept total when another connection (another process on the same file) has
   * committed since the last look: only this connection's writes keep them exact. `data_version`
   * changes on exactly those commits, and reading it costs no I/O.
   */
  checkForeignWrites (): void {
    const version = this.#dataVersion.get() as number
    if (version === this.#seenVersion) return
    this.#seenVersion = version
    for (const collection of this.all) {
      collection.totals.clear()
      collection.changes++
    }
  }
}

class SqliteCollection extends TableCollection {
  readonly #queries: ListQueries
  readonly totals: SqliteTotals
  /**
   * Writes committed to the collection by this process that changed a record (one that changed
   * none, a change of many that matched none, leaves every list as it was), and one more for each
   * time another process wrote to the file.
   */
  changes = 0

  readonly store: SqliteCollectionStores

  constructor (store: SqliteCollectionStores, resource: Resource) {
    super(store, resource, store.resources, SQLITE)
    this.store = store
    const { indexes, collations } = readIndexes(store.db, resource.name)
    this.#queries = new ListQueries(this.sql, indexes)
    this.totals = new SqliteTotals(field => comparatorOf(resource, field, collations), resource.search)
  }

  async list (query: ListQuery, { counting }: ListOptions): Promise<Page> {
    this.store.checkForeignWrites()
    const total = counting === 'exact' ? this.#count(query.filters) : undefined
    // The total is exact: a page that starts past it is empty without reading anything.
    if (total === 0 || (total !== undefined && query.after === undefined && query.offset >= total)) return { items: [], total }
    const size = this.#count([])
    const items: ResourceRecord[] = []
    for (const page of this.#queries.page(query, total ?? this.#matchingAtLeast(query, size), size)) {
      const wanted = query.limit - items.length
      if (wanted <= 0) break
      for (const row of this.store.rows(sql`${page} LIMIT ${wanted} OFFSET ${query.offset}`)) items.push(this.sql.record(row))
    }
    return { items, total }
  }

  protected override async rows (statement: Sql): Promise<Scalar[][]> {
    return this.store.rows(statement)
  }

  /**
   * FTS5 rewrites a whole segment of a search table at once, in the write that tips it, once a
   * tenth of its rows are deleted (`deletemerge`): at 100,000 zoos a change of 5,000 records took
   * 1.5 s instead of 0.2 every other time, whatever its own size, and a write holds the process
   * (docs/operations.md). Off, a segment's deleted rows go when its level is merged, which FTS5
   * does a little at each write, in proportion to what the write adds; queries skip them
   * meanwhile. Kept in the table's own configuration: set once, on a file made before too.
   */
  mergeSearchWordsGradually (): void {
    const table = this.sql.search?.apart === undefined ? undefined : searchTable(this.resource.name)
    if (table === undefined) return
    const kept = this.store.db.prepare(`SELECT v FROM ${table}_config WHERE k = 'deletemerge'`).pluck().get()
    if (kept !== 0) this.store.db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('deletemerge', 0)`).run()
  }

  indexSearchWords (): void {
    const search = this.sql.search
    const apart = search?.apart
    if (search === undefined || apart === undefined) return
    const batch = this.store.db.transaction((after: number) => {
      const { statement, words } = this.sql.unindexed(search, after, INDEXING_BATCH)
      const rows = this.store.rows(statement)
      for (const row of rows) this.store.run(apart.put(...words(row)))
      return rows.length === INDEXING_BATCH ? Number(rows.at(-1)?.[0]) : undefined
    })
    // BEGIN IMMEDIATE: a batch holds the file from its read to its write, so that a process
    // writing the file meanwhile waits for it (busy_timeout) rather than fails the start-up. Its
    // words could not be overwritten either way: SQLite refuses the write of a transaction that
    // read before another committed (SQLITE_BUSY_SNAPSHOT).
    for (let after: number | undefined = 0; after !== undefined; after = batch.immediate(after));
  }

  #count (filters: Filter[]): number {
    return this.totals.get(filters, () => this.store.value(this.sql.count(filters)) as number)
  }

  /**
   * What the planner needs to know of the matching records when the list is not counted
   * (`Prefer: count=none`): a kept total, or else a count that stops at the number past which
   * walking the sort's index is surely the cheaper plan (store/sqlite/list.ts), so that a list
   * matching many records counts a few thousand of them, not all.
   */
  #matchingAtLeast (query: ListQuery, size: number): number {
    const kept = this.totals.peek(query.filters)
    if (kept !== undefined) return kept
    return this.store.value(this.#queries.countUpTo(query, size)) as number
  }
}

/**
 * How the kept totals compare a field's values, as SQLite does: by its kind, and text by the
 * collation of the column (read from the database, where a unique field's is NOCASE).
 */
function comparatorOf (resource: Resource, field: string, collations: Map<string, string>): Comparator {
  const column = resource.columns.find(c => c.name === field)
  if (column === undefined) throw new Error(`no column ${field} in ${resource.name}`)
  if (COLUMNS[column.kind].type !== 'TEXT') return KINDS[column.kind].compare
  const collation = collations.get(field) ?? 'BINARY'
  if (collation === 'BINARY') return KINDS[column.kind].compare
  if (collation === 'NOCASE') return compareAsciiCaseInsensitive
  throw new Error(`${resource.name}.${field}: collation ${collation} is not supported`)
}
