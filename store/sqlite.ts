import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import type { Column, Resource, ResourceRecord, Scalar } from '../schemas/resource.js'
import type { FieldError } from '../schemas/common.js'
import {
  mustMatch, StoreError,
  type CollectionStore, type Filter, type ListQuery, type Page, type Precondition, type Presence, type SortKey, type Store, type Versioned
} from './types.js'

export type SqliteDatabase = Database.Database

const MIGRATION_FILE = /^(\d+)_[\w-]+\.sql$/

/**
 * Opens (creating if needed) the database file, sets the pragmas the store relies on and applies
 * the migrations not applied yet, all of them in one transaction.
 */
export function openDatabase (dataDir: string, migrationsDir: string): SqliteDatabase {
  mkdirSync(dataDir, { recursive: true })
  const db = new Database(join(dataDir, 'zoo.db'))
  db.pragma('journal_mode = WAL')
  // FULL: a write the API answered 201 for survives a power cut, not only a crash.
  db.pragma('synchronous = FULL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT')
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[])
  const pending = readdirSync(migrationsDir)
    .map(name => ({ name, match: MIGRATION_FILE.exec(name) }))
    .filter(m => m.match !== null)
    .map(m => ({ name: m.name, version: Number(m.match?.[1]) }))
    .filter(m => !applied.has(m.version))
    .sort((a, b) => a.version - b.version)
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  db.transaction(() => {
    for (const m of pending) {
      db.exec(readFileSync(join(migrationsDir, m.name), 'utf8'))
      record.run(m.version, m.name, new Date().toISOString())
    }
  })()
  return db
}

const quote = (name: string): string => `"${name}"`
const STATEMENT_CACHE_SIZE = 256

/** Collections stored in SQLite tables named after them (migrations/). */
export class SqliteStore implements Store {
  readonly #collections = new Map<string, SqliteCollection>()
  readonly #statements = new Map<string, Database.Statement>()

  constructor (readonly db: SqliteDatabase, readonly resources: Resource[]) {}

  collection (resource: Resource): CollectionStore {
    let collection = this.#collections.get(resource.name)
    if (collection === undefined) {
      collection = new SqliteCollection(this, resource)
      this.#collections.set(resource.name, collection)
    }
    return collection
  }

  /** Prepared statements are reused; list queries vary, so the cache is bounded. */
  statement (sql: string): Database.Statement {
    let statement = this.#statements.get(sql)
    if (statement === undefined) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear()
      statement = this.db.prepare(sql)
      this.#statements.set(sql, statement)
    }
    return statement
  }
}

class SqliteCollection implements CollectionStore {
  readonly #table: string
  readonly #select: string
  readonly #columns: Map<string, Column>
  /** Collections with a field that references this one: deleting a referenced record is refused. */
  readonly #referencedBy: { table: string, field: string, name: string }[]

  constructor (readonly store: SqliteStore, readonly resource: Resource) {
    this.#table = quote(resource.name)
    this.#columns = new Map(resource.columns.map(c => [c.name, c]))
    this.#select = `SELECT ${resource.columns.map(c => quote(c.name)).join(', ')}, version FROM ${this.#table}`
    this.#referencedBy = store.resources.flatMap(r => Object.entries(r.references)
      .filter(([, target]) => target === resource.name)
      .map(([field]) => ({ table: quote(r.name), field: quote(field), name: r.name })))
  }

  list (query: ListQuery): Page {
    const where: string[] = []
    const params: Scalar[] = []
    for (const filter of query.filters) where.push(this.#condition(filter, params))
    const filtered = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
    const total = (this.store.statement(`SELECT count(*) FROM ${this.#table}${filtered}`).pluck().get(...params)) as number

    const pageParams = [...params]
    if (query.after !== undefined) where.push(this.#after(query.sort, query.after, pageParams))
    const orderBy = query.sort.map(k => `${quote(k.field)} ${k.direction === 'asc' ? 'ASC' : 'DESC'}`).join(', ')
    const sql = `${this.#select}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderBy} LIMIT ? OFFSET ?`
    const rows = this.store.statement(sql).all(...pageParams, query.limit, query.offset) as Row[]
    return { items: rows.map(row => toVersioned(row).record), total }
  }

  get (id: number): Versioned | undefined {
    const row = this.store.statement(`${this.#select} WHERE id = ?`).get(id) as Row | undefined
    return row === undefined ? undefined : toVersioned(row)
  }

  presence (id: number): Presence {
    if (this.store.statement(`SELECT 1 FROM ${this.#table} WHERE id = ?`).get(id) !== undefined) return 'live'
    const tombstone = this.store.statement('SELECT 1 FROM tombstones WHERE collection = ? AND id = ?').get(this.resource.name, id)
    return tombstone === undefined ? 'absent' : 'deleted'
  }

  create (inputs: ResourceRecord[], batch: boolean): Versioned[] {
    const fields = this.resource.writable
    const now = new Date().toISOString()
    const insert = this.store.statement(
      `INSERT INTO ${this.#table} (${[...fields, 'created_at', 'updated_at'].map(quote).join(', ')})
       VALUES (${[...fields, 'created_at', 'updated_at'].map(() => '?').join(', ')})
       RETURNING ${this.resource.columns.map(c => quote(c.name)).join(', ')}, version`)
    return this.store.db.transaction(() => {
      // Checked one by one after the earlier inserts, so a batch cannot repeat a unique value.
      const errors: FieldError[] = []
      const created: Versioned[] = []
      inputs.forEach((input, i) => {
        const problems = this.#check(input, undefined, batch ? `${i}.` : '')
        if (problems.length > 0) errors.push(...problems)
        else created.push(toVersioned(insert.get(...fields.map(f => input[f] ?? null), now, now) as Row))
      })
      if (errors.length > 0) throw invalid(errors)
      return created
    })()
  }

  replace (id: number, input: ResourceRecord, precondition?: Precondition): Versioned {
    const complete = Object.fromEntries(this.resource.writable.map(f => [f, input[f] ?? null]))
    return this.#write(id, complete, precondition)
  }

  update (id: number, changes: ResourceRecord, precondition?: Precondition): Versioned {
    const present = Object.fromEntries(this.resource.writable.filter(f => f in changes).map(f => [f, changes[f] ?? null]))
    return this.#write(id, present, precondition)
  }

  delete (id: number, precondition?: Precondition): void {
    this.store.db.transaction(() => {
      mustMatch(this, id, precondition)
      for (const ref of this.#referencedBy) {
        if (this.store.statement(`SELECT 1 FROM ${ref.table} WHERE ${ref.field} = ? LIMIT 1`).get(id) !== undefined) {
          throw new StoreError('conflict', `${this.resource.singular} ${id} still has ${ref.name}; delete or move them first`)
        }
      }
      this.store.statement(`DELETE FROM ${this.#table} WHERE id = ?`).run(id)
      this.store.statement('INSERT INTO tombstones (collection, id, deleted_at) VALUES (?, ?, ?)')
        .run(this.resource.name, id, new Date().toISOString())
    })()
  }

  #write (id: number, values: ResourceRecord, precondition: Precondition | undefined): Versioned {
    const fields = Object.keys(values)
    const assignments = [...fields.map(f => `${quote(f)} = ?`), 'updated_at = ?', 'version = version + 1'].join(', ')
    const update = this.store.statement(
      `UPDATE ${this.#table} SET ${assignments} WHERE id = ?
       RETURNING ${this.resource.columns.map(c => quote(c.name)).join(', ')}, version`)
    return this.store.db.transaction(() => {
      mustMatch(this, id, precondition)
      const errors = this.#check(values, id, '')
      if (errors.length > 0) throw invalid(errors)
      return toVersioned(update.get(...fields.map(f => values[f] ?? null), new Date().toISOString(), id) as Row)
    })()
  }

  /** The rules a schema cannot state: references to live records and unique values. */
  #check (values: ResourceRecord, ownId: number | undefined, prefix: string): FieldError[] {
    const errors: FieldError[] = []
    for (const [field, target] of Object.entries(this.resource.references)) {
      const value = values[field]
      if (value === undefined || value === null) continue
      const found = this.store.statement(`SELECT 1 FROM ${quote(target)} WHERE id = ?`).get(value)
      if (found === undefined) errors.push({ field: `${prefix}${field}`, code: 'not_found', message: `${field} ${value} names no existing record of ${target}` })
    }
    for (const field of this.resource.unique) {
      const value = values[field]
      if (value === undefined || value === null) continue
      const taken = this.store.statement(`SELECT 1 FROM ${this.#table} WHERE ${quote(field)} = ? AND id IS NOT ?`).get(value, ownId ?? null)
      if (taken !== undefined) errors.push({ field: `${prefix}${field}`, code: 'unique', message: `${field} "${value}" is already used by another ${this.resource.singular}` })
    }
    return errors
  }

  #condition (filter: Filter, params: Scalar[]): string {
    const column = quote(this.#columnOf(filter.field).name)
    const value = filter.value
    if (Array.isArray(value)) {
      params.push(...value)
      return `${column} IN (${value.map(() => '?').join(', ')})`
    }
    if (value === null) return filter.op === 'ne' ? `${column} IS NOT NULL` : `${column} IS NULL`
    params.push(value)
    switch (filter.op) {
      case 'eq': return `${column} = ?`
      // "differs from" includes records that have no value at all.
      case 'ne': return `${column} IS NOT ?`
      case 'gt': return `${column} > ?`
      case 'gte': return `${column} >= ?`
      case 'lt': return `${column} < ?`
      case 'lte': return `${column} <= ?`
      default: throw new Error(`operator ${filter.op} takes a list`)
    }
  }

  /**
   * The keyset condition "sorts after `after`". SQLite puts NULL first in ascending order and last
   * in descending order; the expanded form below follows that, so nullable sort keys page exactly.
   */
  #after (sort: SortKey[], after: Scalar[], params: Scalar[]): string {
    const simple = sort.every(k => k.direction === sort[0]?.direction && !this.#columnOf(k.field).nullable)
    if (simple) {
      params.push(...after)
      return `(${sort.map(k => quote(k.field)).join(', ')}) ${sort[0]?.direction === 'desc' ? '<' : '>'} (${sort.map(() => '?').join(', ')})`
    }
    const alternatives: string[] = []
    for (let i = 0; i < sort.length; i++) {
      const terms: string[] = []
      for (let j = 0; j < i; j++) {
        const column = quote((sort[j] as SortKey).field)
        const value = after[j] ?? null
        if (value === null) terms.push(`${column} IS NULL`)
        else { terms.push(`${column} = ?`); params.push(value) }
      }
      const key = sort[i] as SortKey
      const column = quote(key.field)
      const value = after[i] ?? null
      if (key.direction === 'asc') {
        if (value === null) terms.push(`${column} IS NOT NULL`)
        else { terms.push(`${column} > ?`); params.push(value) }
      } else {
        if (value === null) continue
        terms.push(`(${column} < ? OR ${column} IS NULL)`)
        params.push(value)
      }
      alternatives.push(`(${terms.join(' AND ')})`)
    }
    return alternatives.length > 0 ? `(${alternatives.join(' OR ')})` : '0'
  }

  #columnOf (field: string): Column {
    const column = this.#columns.get(field)
    if (column === undefined) throw new Error(`${this.resource.name} has no field ${field}`)
    return column
  }
}

type Row = ResourceRecord & { version: number }

function toVersioned ({ version, ...record }: Row): Versioned {
  return { record, version }
}

function invalid (errors: FieldError[]): StoreError {
  return new StoreError('invalid', `Validation failed: ${errors.map(e => e.message).join('; ')}`, errors)
}
