import type pg from 'pg'
import { mustBeLive, StoreError } from '../../collections/refusals.ts'
import type { Resource, ResourceRecord } from '../../collections/resource.ts'
import type { CollectionStore, ListQuery, Page, Precondition, Presence, Store, Versioned } from '../../collections/store.ts'
import type { FieldError } from '../../schemas/common.ts'
import { asciiLower, quote, storable } from '../text.ts'
import { prepared, transaction, type Client, type Pool, type Queryable } from './database.ts'
import { PostgresListQueries } from './list.ts'
import { PostgresTotals } from './totals.ts'

/** What PostgreSQL says when a constraint refuses a write (its SQLSTATE). */
const UNIQUE_VIOLATION = '23505'
const FOREIGN_KEY_VIOLATION = '23503'

/**
 * Collections in PostgreSQL tables named after them (migrations/postgres/). Every write is one
 * transaction that first locks the record it changes (`FOR UPDATE`), so the precondition
 * (If-Match, the parent of a nested path) is checked against the record as it is written, whatever
 * other instances do meanwhile. A list's total is counted again only when a write has committed
 * since it was last counted, on any instance (store/postgres/totals.ts).
 */
export class PostgresStore implements Store {
  readonly #collections = new Map<string, PostgresCollection>()

  readonly pool: Pool
  readonly resources: Resource[]

  constructor (pool: Pool, resources: Resource[]) {
    this.pool = pool
    this.resources = resources
    for (const resource of resources) this.#collections.set(resource.name, new PostgresCollection(this, resource))
  }

  collection (resource: Resource): CollectionStore {
    const collection = this.#collections.get(resource.name)
    if (collection === undefined) throw new Error(`no collection ${resource.name}`)
    return collection
  }
}

class PostgresCollection implements CollectionStore {
  readonly #table: string
  readonly #returning: string
  readonly #queries: PostgresListQueries
  readonly #insert: string
  /** Collections with a field that references this one: deleting a referenced record is refused. */
  readonly #referencedBy: { table: string, field: string, name: string }[]
  readonly #pool: Pool
  readonly #totals: PostgresTotals

  readonly store: PostgresStore
  readonly resource: Resource

  constructor (store: PostgresStore, resource: Resource) {
    this.store = store
    this.resource = resource
    this.#pool = store.pool
    this.#totals = new PostgresTotals(resource.name)
    this.#table = quote(resource.name)
    this.#returning = `RETURNING ${resource.columns.map(c => quote(c.name)).join(', ')}, version`
    const inserted = [...resource.writable, 'created_at', 'updated_at']
    this.#insert = `INSERT INTO ${this.#table} (${inserted.map(quote).join(', ')}) ` +
      `VALUES (${inserted.map((_, i) => `$${i + 1}`).join(', ')}) ${this.#returning}`
    this.#queries = new PostgresListQueries(resource.name, resource.columns, resource.unique)
    this.#referencedBy = store.resources.flatMap(r => Object.entries(r.references)
      .filter(([, target]) => target === resource.name)
      .map(([field]) => ({ table: quote(r.name), field: quote(field), name: r.name })))
  }

  async list (query: ListQuery): Promise<Page> {
    const total = await this.#totals.get(this.#pool, query.filters, this.#queries.count(query.filters))
    // The total is exact: a page that starts past it is empty without reading anything.
    if (total === 0 || (query.after === undefined && query.offset >= total)) return { items: [], total }
    const page = this.#queries.page(query)
    const found = await this.#pool.query<ResourceRecord>(page.sql, page.params)
    return { items: found.rows, total }
  }

  async get (id: number): Promise<Versioned | undefined> {
    return this.#read(this.#pool, id, '')
  }

  async presence (id: number): Promise<Presence> {
    return this.#presence(this.#pool, id)
  }

  async create (inputs: ResourceRecord[], batch: boolean): Promise<Versioned[]> {
    const fields = this.resource.writable
    return this.#writing(async client => {
      const now = new Date().toISOString()
      // Checked one by one after the earlier inserts, so a batch cannot repeat a unique value.
      const errors: FieldError[] = []
      const created: Versioned[] = []
      for (const [i, input] of inputs.entries()) {
        const problems = await this.#check(client, input, undefined, batch ? `${i}.` : '')
        if (problems.length > 0) errors.push(...problems)
        else {
          const { rows } = await client.query(prepared(this.#insert, [...fields.map(f => storable(input[f])), now, now]))
          created.push(this.#versioned(rows[0]))
        }
      }
      if (errors.length > 0) throw invalid(errors)
      return created
    })
  }

  async replace (id: number, input: ResourceRecord, precondition?: Precondition): Promise<Versioned> {
    const complete = Object.fromEntries(this.resource.writable.map(f => [f, input[f] ?? null]))
    return this.#write(id, complete, precondition)
  }

  async update (id: number, changes: ResourceRecord, precondition?: Precondition): Promise<Versioned> {
    const present = Object.fromEntries(this.resource.writable.filter(f => f in changes).map(f => [f, changes[f] ?? null]))
    return this.#write(id, present, precondition)
  }

  async delete (id: number, precondition?: Precondition): Promise<void> {
    await this.#writing(async client => {
      await this.#current(client, id, precondition)
      for (const ref of this.#referencedBy) {
        const { rowCount } = await client.query(prepared(`SELECT 1 FROM ${ref.table} WHERE ${ref.field} = $1 LIMIT 1`, [id]))
        if (rowCount !== 0) throw this.#stillReferenced(id, ref.name)
      }
      await client.query(prepared(`DELETE FROM ${this.#table} WHERE id = $1`, [id]))
      await client.query(prepared('INSERT INTO tombstones (collection, id, deleted_at) VALUES ($1, $2, $3)',
        [this.resource.name, id, new Date().toISOString()]))
    }, id)
  }

  async #write (id: number, values: ResourceRecord, precondition: Precondition | undefined): Promise<Versioned> {
    const fields = Object.keys(values)
    const assignments = [...fields.map((f, i) => `${quote(f)} = $${i + 1}`), `updated_at = $${fields.length + 1}`, 'version = version + 1']
    const sql = `UPDATE ${this.#table} SET ${assignments.join(', ')} WHERE id = $${fields.length + 2} ${this.#returning}`
    return this.#writing(async client => {
      await this.#current(client, id, precondition)
      const errors = await this.#check(client, values, id, '')
      if (errors.length > 0) throw invalid(errors)
      const { rows } = await client.query(prepared(sql, [...fields.map(f => storable(values[f])), new Date().toISOString(), id]))
      return this.#versioned(rows[0])
    })
  }

  /**
   * A write's transaction. The checks of `#check` and of `delete` run before the constraints
   * would refuse: the constraints only catch a write of another instance between check and
   * write, and say it the same way. `deleting` is the id of the record a delete removes.
   */
  async #writing<T> (work: (client: Client) => Promise<T>, deleting?: number): Promise<T> {
    try {
      return await transaction(this.#pool, work)
    } catch (err) {
      const { code, constraint } = err as pg.DatabaseError
      if (code === UNIQUE_VIOLATION) {
        const field = this.resource.unique.find(f => constraint?.includes(f)) ?? 'id'
        throw invalid([{ field, code: 'unique', message: `${field} is already used by another ${this.resource.singular}` }])
      }
      if (code === FOREIGN_KEY_VIOLATION) {
        if (deleting !== undefined) throw this.#stillReferenced(deleting, 'other records')
        const field = Object.keys(this.resource.references).find(f => constraint?.includes(f)) ?? 'id'
        throw invalid([{ field, code: 'not_found', message: `${field} names no existing record of ${this.resource.references[field]}` }])
      }
      throw err
    }
  }

  #stillReferenced (id: number, what: string): StoreError {
    return new StoreError('conflict', `${this.resource.singular} ${id} still has ${what}; delete or move them first`)
  }

  async #read (db: Queryable, id: number, lock: '' | ' FOR UPDATE'): Promise<Versioned | undefined> {
    const columns = this.resource.columns.map(c => quote(c.name)).join(', ')
    const { rows } = await db.query(prepared(`SELECT ${columns}, version FROM ${this.#table} WHERE id = $1${lock}`, [id]))
    return rows[0] === undefined ? undefined : this.#versioned(rows[0])
  }

  async #presence (db: Queryable, id: number): Promise<Presence> {
    const { rows } = await db.query<{ live: boolean, deleted: boolean }>(prepared(
      `SELECT EXISTS (SELECT 1 FROM ${this.#table} WHERE id = $1) AS live, ` +
      'EXISTS (SELECT 1 FROM tombstones WHERE collection = $2 AND id = $1) AS deleted', [id, this.resource.name]))
    const { live, deleted } = rows[0] as { live: boolean, deleted: boolean }
    return live ? 'live' : deleted ? 'deleted' : 'absent'
  }

  /** The live record, locked for the write's transaction, once the precondition accepts it. */
  async #current (client: Client, id: number, precondition: Precondition | undefined): Promise<Versioned> {
    const current = await this.#read(client, id, ' FOR UPDATE')
    if (current === undefined) {
      mustBeLive(this.resource, id, await this.#presence(client, id))
      throw new Error(`record ${id} is neither live nor gone`)
    }
    precondition?.(current)
    return current
  }

  #versioned (row: Record<string, unknown>): Versioned {
    const { version, ...record } = row
    return { record: record as ResourceRecord, version: version as number }
  }

  /**
   * The rules a schema cannot state: references to live records (locked against a delete until
   * this write commits) and unique values (without regard to ASCII case).
   */
  async #check (client: Client, values: ResourceRecord, ownId: number | undefined, prefix: string): Promise<FieldError[]> {
    const errors: FieldError[] = []
    for (const [field, target] of Object.entries(this.resource.references)) {
      const value = values[field]
      if (value === undefined || value === null) continue
      const { rowCount } = await client.query(prepared(`SELECT 1 FROM ${quote(target)} WHERE id = $1 FOR KEY SHARE`, [value]))
      if (rowCount === 0) {
        errors.push({ field: `${prefix}${field}`, code: 'not_found', message: `${field} ${value} names no existing record of ${target}` })
      }
    }
    for (const field of this.resource.unique) {
      const value = values[field]
      if (typeof value !== 'string') continue
      const sql = `SELECT 1 FROM ${this.#table} WHERE lower(${quote(field)}) = $1 AND id IS DISTINCT FROM $2`
      const { rowCount } = await client.query(prepared(sql, [asciiLower(storable(value) as string), ownId ?? null]))
      if (rowCount !== 0) {
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

function invalid (errors: FieldError[]): StoreError {
  return new StoreError('invalid', `Validation failed: ${errors.map(e => e.message).join('; ')}`, errors)
}
