import type Database from 'better-sqlite3'
import { mustBeLive, StoreError } from '../../collections/refusals.ts'
import type { Column, Resource, ResourceRecord, Scalar } from '../../collections/resource.ts'
import type {
  CollectionStore, ListQuery, Page, Precondition, Presence, Store, Versioned
} from '../../collections/store.ts'
import type { FieldError } from '../../schemas/common.ts'
import type { SqliteDatabase } from './database.ts'
import { GroupCommit, type OnCommit } from './group-commit.ts'
import { quote, storable } from '../text.ts'
import { ListQueries, readIndexes } from './list.ts'
import { checkTables } from './schema.ts'
import { compareAsciiCaseInsensitive, compareCodePoints, compareNumbers, Totals, type Comparator } from './totals.ts'

const STATEMENT_CACHE_SIZE = 512

/** Collections stored in SQLite tables named after them (migrations/). */
export class SqliteStore implements Store {
  readonly #collections = new Map<string, SqliteCollection>()
  readonly #statements = new Map<string, Database.Statement>()
  readonly #dataVersion: Database.Statement
  #seenVersion: number
  /** Every collection write goes through it: see store/group-commit.ts. */
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

const COMPARATORS: Record<string, Comparator> = { BINARY: compareCodePoints, NOCASE: compareAsciiCaseInsensitive }

class SqliteCollection implements CollectionStore {
  readonly #table: string
  readonly #returning: string
  readonly #queries: ListQueries
  readonly #names: string[]
  /** The statements whose text never changes, prepared once. */
  readonly #fixed: Record<'get' | 'live' | 'tombstone' | 'insert' | 'delete' | 'bury', Database.Statement>
  /** Collections with a field that references this one: deleting a referenced record is refused. */
  readonly #referencedBy: { table: string, field: string, name: string }[]
  readonly totals: Totals

  readonly store: SqliteStore
  readonly resource: Resource

  constructor (store: SqliteStore, resource: Resource) {
    this.store = store
    this.resource = resource
    this.#table = quote(resource.name)
    this.#names = resource.columns.map(c => c.name)
    const columns = this.#names.map(quote).join(', ')
    this.#returning = `RETURNING ${columns}, version`
    const inserted = [...resource.writable, 'created_at', 'updated_at']
    const prepare = (sql: string) => store.db.prepare(sql)
    this.#fixed = {
      get: prepare(`SELECT ${columns}, version FROM ${this.#table} WHERE id = ?`).raw(),
      live: prepare(`SELECT 1 FROM ${this.#table} WHERE id = ?`),
      tombstone: prepare('SELECT 1 FROM tombstones WHERE collection = ? AND id = ?'),
      insert: prepare(
        `INSERT INTO ${this.#table} (${inserted.map(quote).join(', ')}) ` +
        `VALUES (${inserted.map(() => '?').join(', ')}) ${this.#returning}`
      ).raw(),
      delete: prepare(`DELETE FROM ${this.#table} WHERE id = ?`),
      bury: prepare('INSERT INTO tombstones (collection, id, deleted_at) VALUES (?, ?, ?)')
    }
    const { indexes, collations } = readIndexes(store.db, resource.name)
    this.#queries = new ListQueries(resource.name, resource.columns, indexes)
    this.totals = new Totals(field => comparatorOf(resource, field, collations))
    this.#referencedBy = store.resources.flatMap(r => Object.entries(r.references)
      .filter(([, target]) => target === resource.name)
      .map(([field]) => ({ table: quote(r.name), field: quote(field), name: r.name })))
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
      for (const row of this.store.statement(sql).raw().all(...params, wanted, query.offset) as Row[]) items.push(this.#record(row))
    }
    return { items, total }
  }

  async get (id: number): Promise<Versioned | undefined> {
    return this.#get(id)
  }

  async presence (id: number): Promise<Presence> {
    return this.#presence(id)
  }

  #get (id: number): Versioned | undefined {
    const row = this.#fixed.get.get(id) as Row | undefined
    return row === undefined ? undefined : this.#versioned(row)
  }

  #presence (id: number): Presence {
    if (this.#fixed.live.get(id) !== undefined) return 'live'
    const tombstone = this.#fixed.tombstone.get(this.resource.name, id)
    return tombstone === undefined ? 'absent' : 'deleted'
  }

  create (inputs: ResourceRecord[], batch: boolean): Promise<Versioned[]> {
    const fields = this.resource.writable
    return this.store.writes.submit(onCommit => {
      const now = new Date().toISOString()
      // Checked one by one after the earlier inserts, so a batch cannot repeat a unique value.
      const errors: FieldError[] = []
      const created: Versioned[] = []
      inputs.forEach((input, i) => {
        const problems = this.#check(input, undefined, batch ? `${i}.` : '')
        if (problems.length > 0) errors.push(...problems)
        else created.push(this.#versioned(this.#fixed.insert.get(...fields.map(f => storable(input[f])), now, now) as Row))
      })
      if (errors.length > 0) throw invalid(errors)
      for (const { record } of created) this.#counted(onCommit, undefined, record)
      return created
    })
  }

  replace (id: number, input: ResourceRecord, precondition?: Precondition): Promise<Versioned> {
    const complete = Object.fromEntries(this.resource.writable.map(f => [f, input[f] ?? null]))
    return this.#write(id, complete, precondition)
  }

  update (id: number, changes: ResourceRecord, precondition?: Precondition): Promise<Versioned> {
    const present = Object.fromEntries(this.resource.writable.filter(f => f in changes).map(f => [f, changes[f] ?? null]))
    return this.#write(id, present, precondition)
  }

  delete (id: number, precondition?: Precondition): Promise<void> {
    return this.store.writes.submit(onCommit => {
      const current = this.#current(id, precondition)
      for (const ref of this.#referencedBy) {
        if (this.store.statement(`SELECT 1 FROM ${ref.table} WHERE ${ref.field} = ? LIMIT 1`).get(id) !== undefined) {
          throw new StoreError('conflict', `${this.resource.singular} ${id} still has ${ref.name}; delete or move them first`)
        }
      }
      this.#fixed.delete.run(id)
      this.#fixed.bury.run(this.resource.name, id, new Date().toISOString())
      this.#counted(onCommit, current.record, undefined)
    })
  }

  #write (id: number, values: ResourceRecord, precondition: Precondition | undefined): Promise<Versioned> {
    const fields = Object.keys(values)
    const assignments = [...fields.map(f => `${quote(f)} = ?`), 'updated_at = ?', 'version = version + 1'].join(', ')
    const update = this.store.statement(`UPDATE ${this.#table} SET ${assignments} WHERE id = ? ${this.#returning}`).raw()
    return this.store.writes.submit(onCommit => {
      const current = this.#current(id, precondition)
      const errors = this.#check(values, id, '')
      if (errors.length > 0) throw invalid(errors)
      const written = this.#versioned(update.get(...fields.map(f => storable(values[f])), new Date().toISOString(), id) as Row)
      this.#counted(onCommit, current.record, written.record)
      return written
    })
  }

  /**
   * A record from a row of its columns in order: rows come as arrays (`raw()`), which better-sqlite3
   * makes at a third less cost than objects, and a page has many.
   */
  #record (row: Row): ResourceRecord {
    const record: ResourceRecord = {}
    for (let i = 0; i < this.#names.length; i++) record[this.#names[i] as string] = row[i] as Scalar
    return record
  }

  /** A record from a row of its columns followed by `version`. */
  #versioned (row: Row): Versioned {
    return { record: this.#record(row), version: row[this.#names.length] as number }
  }

  /** The live record, inside the write's transaction, once the precondition accepts it. */
  #current (id: number, precondition: Precondition | undefined): Versioned {
    const current = this.#get(id)
    if (current === undefined) {
      mustBeLive(this.resource, id, this.#presence(id))
      throw new Error(`record ${id} is neither live nor gone`)
    }
    precondition?.(current)
    return current
  }

  /** Totals change with the commit, not before: a write undone leaves them as they were. */
  #counted (onCommit: OnCommit, before: ResourceRecord | undefined, after: ResourceRecord | undefined): void {
    onCommit(() => this.totals.apply(before, after))
  }

  #count (query: ListQuery): number {
    return this.totals.get(query.filters, () => {
      const { sql, params } = this.#queries.count(query.filters)
      return this.store.statement(sql).pluck().get(...params) as number
    })
  }

  /** The rules a schema cannot state: references to live records and unique values. */
  #check (values: ResourceRecord, ownId: number | undefined, prefix: string): FieldError[] {
    const errors: FieldError[] = []
    for (const [field, target] of Object.entries(this.resource.references)) {
      const value = values[field]
      if (value === undefined || value === null) continue
      const found = this.store.statement(`SELECT 1 FROM ${quote(target)} WHERE id = ?`).get(value)
      if (found === undefined) {
        errors.push({ field: `${prefix}${field}`, code: 'not_found', message: `${field} ${value} names no existing record of ${target}` })
      }
    }
    for (const field of this.resource.unique) {
      const value = values[field]
      if (value === undefined || value === null) continue
      const taken = this.store.statement(`SELECT 1 FROM ${this.#table} WHERE ${quote(field)} = ? AND id IS NOT ?`)
        .get(storable(value), ownId ?? null)
      if (taken !== undefined) {
        errors.push({
          field: `${prefix}${field}`,
          code: 'unique',
          message: `${field} "${value}" is already used by another ${this.resource.singular}`
        })
      }
    }
    return errors
  }
}

function comparatorOf (resource: Resource, field: string, collations: Map<string, string>): Comparator {
  const column = resource.columns.find(c => c.name === field) as Column
  if (column.kind === 'integer') return compareNumbers
  const collation = collations.get(field) ?? 'BINARY'
  const comparator = COMPARATORS[collation]
  if (comparator === undefined) throw new Error(`${resource.name}.${field}: collation ${collation} is not supported`)
  return comparator
}

type Row = Scalar[]

function invalid (errors: FieldError[]): StoreError {
  return new StoreError('invalid', `Validation failed: ${errors.map(e => e.message).join('; ')}`, errors)
}
