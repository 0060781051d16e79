import type Database from 'better-sqlite3'
import { compareAsciiCaseInsensitive, KINDS, type Comparator, type Scalar } from '../../collections/kinds.ts'
import type { Resource, ResourceRecord } from '../../collections/resource.ts'
import type {
  CollectionStore, ListQuery, Page, Precondition, Presence, Store, Versioned
} from '../../collections/store.ts'
import { CollectionCore, runNow, type Ask, type Sequence } from '../collections.ts'
import type { SqliteDatabase } from './database.ts'
import { SQLITE } from './dialect.ts'
import { GroupCommit } from './group-commit.ts'
import { ListQueries, readIndexes } from './list.ts'
import { checkTables } from './schema.ts'
import { Totals } from './totals.ts'

const STATEMENT_CACHE_SIZE = 512

/** Collections stored in SQLite tables named after them (migrations/). */
export class SqliteStore implements Store {
  readonly #collections = new Map<string, SqliteCollection>()
  readonly #statements = new Map<string, Database.Statement>()
  readonly #dataVersion: Database.Statement
  #seenVersion: number
  /** Every collection write goes through it: see store/sqlite/group-commit.ts. */
  readonly writes: GroupCommit

  readonly db: SqliteDatabase
  readonly resources: Resource[]

  constructor (db: SqliteDatabase, resources: Resource[]) {
    this.db = db
    this.resources = resources
    checkTables(db, resources)
    this.writes = new GroupCommit(db)
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck()
    this.#seenVersion = this.#dataVersion.get() as number
    for (const resource of resources) this.#collections.set(resource.name, new SqliteCollection(this, resource))
  }

  collection (resource: Resource): CollectionStore {
    const collection = this.#collections.get(resource.name)
    if (collection === undefined) throw new Error(`no collection ${resource.name}`)
    return collection
  }

  /** Prepared statements are reused; list queries vary, so the least recently used are dropped. */
  statement (sql: string): Database.Statement {
    let statement = this.#statements.get(sql)
    if (statement === undefined) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value as string)
      statement = this.db.prepare(sql)
    } else {
      this.#statements.delete(sql)
    }
    this.#statements.set(sql, statement)
    return statement
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
    for (const collection of this.#collections.values()) collection.totals.clear()
  }
}

class SqliteCollection implements CollectionStore {
  readonly #core: CollectionCore
  readonly #queries: ListQueries
  /** The reads of one record, whose text never changes, prepared once. */
  readonly #read: Database.Statement
  readonly #live: Database.Statement
  readonly #tombstone: Database.Statement
  readonly totals: Totals

  readonly store: SqliteStore
  readonly resource: Resource

  constructor (store: SqliteStore, resource: Resource) {
    this.store = store
    this.resource = resource
    this.#core = new CollectionCore(resource, store.resources, SQLITE)
    this.#read = store.db.prepare(this.#core.read).raw()
    this.#live = store.db.prepare(this.#core.live)
    this.#tombstone = store.db.prepare(this.#core.tombstone)
    const { indexes, collations } = readIndexes(store.db, resource.name)
    this.#queries = new ListQueries(this.#core, indexes)
    this.totals = new Totals(field => comparatorOf(resource, field, collations))
  }

  async list (query: ListQuery): Promise<Page> {
    this.store.checkForeignWrites()
    const total = this.#count(query)
    // The total is exact: a page that starts past it is empty without reading anything.
    if (total === 0 || (query.after === undefined && query.offset >= total)) return { items: [], total }
    const size = this.#count({ ...query, filters: [] })
    const items: ResourceRecord[] = []
    for (const { sql, params } of this.#queries.page(query, total, size)) {
      const wanted = query.limit - items.length
      if (wanted <= 0) break
      const rows = this.store.statement(sql).raw().all(...params, wanted, query.offset) as Scalar[][]
      for (const row of rows) items.push(this.#core.record(row))
    }
    return { items, total }
  }

  async get (id: number): Promise<Versioned | undefined> {
    const row = this.#read.get(id) as Scalar[] | undefined
    return row === undefined ? undefined : this.#core.versioned(row)
  }

  async presence (id: number): Promise<Presence> {
    if (this.#live.get(id) !== undefined) return 'live'
    return this.#tombstone.get(this.resource.name, id) === undefined ? 'absent' : 'deleted'
  }

  create (inputs: ResourceRecord[], batch: boolean): Promise<Versioned[]> {
    return this.#commit(now => this.#core.creating(inputs, batch, now))
  }

  replace (id: number, input: ResourceRecord, precondition?: Precondition): Promise<Versioned> {
    const values = this.#core.replaced(input)
    return this.#commit(now => this.#core.writing(id, values, precondition, now))
  }

  update (id: number, changes: ResourceRecord, precondition?: Precondition): Promise<Versioned> {
    const values = this.#core.changed(changes)
    return this.#commit(now => this.#core.writing(id, values, precondition, now))
  }

  delete (id: number, precondition?: Precondition): Promise<void> {
    return this.#commit(now => this.#core.deleting(id, precondition, now))
  }

  /**
   * Runs a write's sequence inside a group commit's transaction, each statement at once; the kept
   * totals change with the commit, not before: a write undone leaves them as they were.
   */
  #commit<T> (sequence: (now: string) => Sequence<T>): Promise<T> {
    return this.store.writes.submit(onCommit => {
      const { result, changes } = runNow(sequence(new Date().toISOString()), ask => this.#answer(ask))
      onCommit(() => { for (const { before, after } of changes) this.totals.apply(before, after) })
      return result
    })
  }

  #answer (ask: Ask): unknown {
    const statement = this.store.statement(ask.sql)
    switch (ask.want) {
      case 'row': return statement.raw().get(...ask.params)
      case 'exists': return statement.get(...ask.params) !== undefined
      case 'run': return statement.run(...ask.params)
    }
  }

  #count (query: ListQuery): number {
    return this.totals.get(query.filters, () => {
      const { sql, params } = this.#queries.count(query.filters)
      return this.store.statement(sql).pluck().get(...params) as number
    })
  }
}

/**
 * How the kept totals compare a field's values, as SQLite does: by its kind, and text by the
 * collation of the column (read from the database, where a unique field's is NOCASE).
 */
function comparatorOf (resource: Resource, field: string, collations: Map<string, string>): Comparator {
  const column = resource.columns.find(c => c.name === field)
  if (column === undefined) throw new Error(`no column ${field} in ${resource.name}`)
  if (KINDS[column.kind].sqlite.type !== 'TEXT') return KINDS[column.kind].compare
  const collation = collations.get(field) ?? 'BINARY'
  if (collation === 'BINARY') return KINDS[column.kind].compare
  if (collation === 'NOCASE') return compareAsciiCaseInsensitive
  throw new Error(`${resource.name}.${field}: collation ${collation} is not supported`)
}
