import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import type Database from 'better-sqlite3'
import { compareAsciiCaseInsensitive, KINDS, type Comparator, type Scalar } from '../../model/kinds.ts'
import type { Resource, ResourceRecord } from '../../model/resource.ts'
import type { Alongside, Filter, ListOptions, ListQuery, Page, ReadOptions, Versioned } from '../contract.ts'
import { feedRows } from '../feed.ts'
import { AppliedTotals } from '../kept-totals.ts'
import { sqliteStatement } from '../observed.ts'
import { ReaderThreads } from '../reader-threads.ts'
import { sqliteAddonFile, threadModule } from '../../packaging/shipped.ts'
import { runNow, type Ask, type Change, type Sequence } from '../sequence.ts'
import { counted, sql, type Sql } from '../sql.ts'
import { emptyByTotal, TableCollection } from '../table-collection.ts'
import { TableStore } from '../table-store.ts'
import { SqlitePort, type SqliteDatabase } from './database.ts'
import { searchTable, SQLITE } from './dialect.ts'
import { SqliteChangeLog } from './feed.ts'
import { GroupCommit } from './group-commit.ts'
import { ListQueries, readIndexes } from './list.ts'
import type { ReaderData } from './reader.ts'
import { checkTables } from './schema.ts'
import { COLUMNS } from './columns.ts'

/** Records whose search words are made in one transaction at start-up. */
const INDEXING_BATCH = 2000

/** Collections stored in SQLite tables named after them (migrations/). */
export class SqliteCollectionStores extends TableStore<SqliteCollection> {
  readonly #dataVersion: Database.Statement
  #seenVersion: number
  /** Begins every change stamp: counters start at 0 in each process, so no other process's stamp may equal one of this. */
  readonly #epoch = randomBytes(9).toString('base64url')
  /** Every collection write goes through it: see store/sqlite/group-commit.ts. */
  readonly groupCommit: GroupCommit
  readonly feed: SqliteChangeLog
  /** The FTS5 upkeep the running write left for its end (`want: 'later'`): docs/architecture.md, "Search words on SQLite". */
  readonly #later: Ask[] = []
  /** How many of them have run: a read of many rows runs them before it reads. */
  #laterRun = 0

  readonly db: SqliteDatabase
  /** Where aggregates are read, beside the requests: store/sqlite/reader.ts. */
  readonly readers: ReaderThreads
  /** The statements of the collections and of the stores beside them, compiled once and kept. */
  readonly port: SqlitePort
  readonly resources: Resource[]

  constructor (db: SqliteDatabase, resources: Resource[]) {
    super()
    this.db = db
    const data: ReaderData = { file: db.name, addon: sqliteAddonFile() }
    this.readers = new ReaderThreads(threadModule('store/sqlite/reader.js'), data, availableParallelism())
    this.groupCommit = new GroupCommit(db)
    this.port = new SqlitePort(db, this.groupCommit)
    this.resources = resources
    checkTables(db, resources)
    this.feed = new SqliteChangeLog(this.port)
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck()
    this.#seenVersion = this.#dataVersion.get() as number
    this.keep(resources.map(resource => new SqliteCollection(this, resource)))
    for (const collection of this.all) {
      collection.mergeSearchWordsGradually()
      collection.indexSearchWords()
    }
  }

  async changes (collections: readonly string[], { alongside }: { alongside?: Alongside | undefined } = {}): Promise<string[]> {
    this.answerAlone(alongside)
    this.checkForeignWrites()
    return collections.map(name => `${this.#epoch}.${this.named(name).changes}`)
  }

  /** Runs a write's sequence in a group commit's transaction, `alongside` answered first; kept totals change once it commits. */
  override async commit<T> (sequence: (now: string) => Sequence<T>, alongside?: Alongside): Promise<T> {
    this.answerAlone(alongside)
    return await this.groupCommit.submit(onCommit => {
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

  /** Runs one write of a group, then what it left for its end; one that throws leaves nothing of it. */
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

  /** Asks `alongside` in a statement of its own (at once, as every SQLite statement), unless it is answered. */
  answerAlone (alongside: Alongside | undefined): void {
    if (alongside === undefined || alongside.settled) return
    alongside.answer(this.row(sql`SELECT ${alongside.columns()}`) as Scalar[])
  }

  /** The first row of a statement, its values in the order of the select list, or undefined. */
  row (statement: Sql): Scalar[] | undefined {
    const { compiled, params } = this.port.compiled(statement)
    return sqliteStatement(compiled.source, () => compiled.raw().get(...params) as Scalar[] | undefined)
  }

  /** Every row of a statement, each its values in the order of the select list. */
  rows (statement: Sql): Scalar[][] {
    const { compiled, params } = this.port.compiled(statement)
    return sqliteStatement(compiled.source, () => compiled.raw().all(...params) as Scalar[][])
  }

  run (statement: Sql): void {
    const { compiled, params } = this.port.compiled(statement)
    sqliteStatement(compiled.source, () => compiled.run(...params))
  }

  /** Forgets every kept total once another process has committed to the file (`data_version` says so, without I/O). */
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
  readonly totals: AppliedTotals
  /** The read of a record by id, compiled once rather than rendered and looked up: every GET of a record makes it (docs/benchmarks.md). */
  readonly #read: Database.Statement
  /** The same read with the token's standing asked in it, by the standing's text: one statement, one taking of the file's locks. */
  readonly #readAlongside = new Map<string, Database.Statement>()
  /** Writes of this process committed that changed a record, and one more each time another process wrote to the file. */
  changes = 0

  readonly store: SqliteCollectionStores

  constructor (store: SqliteCollectionStores, resource: Resource) {
    super(resource, store.resources, SQLITE)
    this.store = store
    const { indexes, collations } = readIndexes(store.db, resource.name)
    this.#queries = new ListQueries(this.sql, indexes)
    this.totals = new AppliedTotals(field => comparatorOf(resource, field, collations), resource.search)
    this.#read = store.db.prepare(this.sql.read(0).render(SQLITE.placeholder).sql).raw()
  }

  async list (query: ListQuery, { counting }: ListOptions): Promise<Page> {
    this.store.checkForeignWrites()
    const total = counting === 'exact' ? this.#count(query.filters) : undefined
    if (emptyByTotal(query, total)) return { items: [], total }
    const size = this.#count([])
    const items: ResourceRecord[] = []
    for (const page of this.#queries.page(query, total ?? this.#matchingAtLeast(query, size), size)) {
      const wanted = query.limit - items.length
      if (wanted <= 0) break
      for (const row of this.store.rows(sql`${page} LIMIT ${counted(wanted)} OFFSET ${query.offset}`)) items.push(this.sql.record(row))
    }
    return { items, total }
  }

  /** A record and the token's standing in one statement; none for a record not there (TableCollection's form took six times as long). */
  override async get (id: number, { alongside, within = [] }: ReadOptions = {}): Promise<Versioned | undefined> {
    const asked = alongside?.settled === false ? alongside : undefined
    let row: Scalar[] | undefined
    if (within.length > 0) {
      // A token bound by access rules reads with their conditions: a statement that varies with them.
      const read = this.sql.read(id, within)
      row = this.store.row(asked === undefined ? read : sql`SELECT ${asked.columns()}, record.* FROM (${read}) AS record`)
    } else if (asked === undefined) {
      const read = this.#read
      row = sqliteStatement(read.source, () => read.get(id) as Scalar[] | undefined)
    } else {
      const { sql: columns, params } = asked.columns().rendered(SQLITE.placeholder)
      let read = this.#readAlongside.get(columns)
      if (read === undefined) {
        const record = this.sql.read(0).render(SQLITE.placeholder).sql
        this.#readAlongside.set(columns, read = this.store.db.prepare(`SELECT ${columns}, record.* FROM (${record}) AS record`).raw())
      }
      const alongsideRead = read
      row = sqliteStatement(read.source, () => alongsideRead.get(...params, id) as Scalar[] | undefined)
    }
    if (asked === undefined || row === undefined) {
      this.store.answerAlone(asked)
      return row === undefined ? undefined : this.sql.versioned(row)
    }
    return this.answered(asked, row)
  }

  protected override async rows (statement: Sql): Promise<Scalar[][]> {
    return this.store.rows(statement)
  }

  protected override async readApart (statements: Sql[], timeout: number): Promise<Scalar[][][]> {
    return this.store.readers.read(statements.map(statement => statement.render(SQLITE.placeholder)), timeout)
  }

  /**
   * Turns off FTS5's `deletemerge`, which rewrote a whole segment in the one write that tipped it
   * (docs/architecture.md, "Search words on SQLite"); kept in the table's configuration, so set once.
   */
  mergeSearchWordsGradually (): void {
    const table = this.sql.search?.apart === undefined ? undefined : searchTable(this.resource.name)
    if (table === undefined) return
    const kept = this.store.db.prepare(`SELECT v FROM ${table}_config WHERE k = 'deletemerge'`).pluck().get()
    if (kept !== 0) this.store.db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('deletemerge', 0)`).run()
  }

  /** Makes the search words of the records that have none yet (written before the search index was), a transaction a batch. */
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
    // BEGIN IMMEDIATE: a process writing the file meanwhile waits for the batch rather than fails the start-up.
    for (let after: number | undefined = 0; after !== undefined; after = batch.immediate(after));
  }

  #count (filters: Filter[]): number {
    return this.totals.get(filters, () => this.store.row(this.sql.count(filters))?.[0] as number)
  }

  /** For a list not counted (`Prefer: count=none`): a kept total, or a count that stops where the planner's choice is sure. */
  #matchingAtLeast (query: ListQuery, size: number): number {
    const kept = this.totals.peek(query.filters)
    if (kept !== undefined) return kept
    return this.store.row(this.#queries.countUpTo(query, size))?.[0] as number
  }
}

/** How the kept totals compare a field's values, as SQLite does: by kind, text by the column's collation. */
function comparatorOf (resource: Resource, field: string, collations: Map<string, string>): Comparator {
  const column = resource.columns.find(c => c.name === field)
  if (column === undefined) throw new Error(`no column ${field} in ${resource.name}`)
  if (COLUMNS[column.kind].type !== 'TEXT') return KINDS[column.kind].compare
  const collation = collations.get(field) ?? 'BINARY'
  if (collation === 'BINARY') return KINDS[column.kind].compare
  if (collation === 'NOCASE') return compareAsciiCaseInsensitive
  throw new Error(`${resource.name}.${field}: collation ${collation} is not supported`)
}
