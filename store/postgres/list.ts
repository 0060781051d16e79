import type { Column, Scalar } from '../../collections/resource.ts'
import type { Filter, ListQuery, SortKey } from '../../collections/store.ts'
import { keysetRanges, type RangeTerm } from '../keyset.ts'
import { asciiLower, quote } from '../text.ts'

/** A statement and its parameters, `$1`, `$2`... in order. */
export interface Statement {
  sql: string
  params: unknown[]
}

/** Collects the parameters of one statement and names each `$n`. */
class Params {
  readonly values: unknown[] = []
  add (value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/**
 * The SQL of a collection read in PostgreSQL. Unlike SQLite's, PostgreSQL's planner keeps
 * statistics and knows a LIMIT: it chooses between walking an index of the sort and fetching the
 * matches first by itself, so the store only says what it wants. It says it as SQLite answers:
 *
 * - NULL sorts first in ascending order and last in descending order (`NULLS FIRST` / `NULLS
 *   LAST`; every index of migrations/postgres is built `NULLS FIRST`, which serves both ways);
 * - text compares in code-point order (the columns are `COLLATE "C"`), and a unique field (the
 *   email) without regard to ASCII case, as SQLite's NOCASE: `lower()` of a `"C"` column folds
 *   A-Z only, and the values compared with it are folded alike.
 *
 * A keyset cursor is the same disjoint ranges as SQLite's (store/keyset.ts), each read by a
 * subquery an index can serve, joined in sort order: one round trip.
 */
export class PostgresListQueries {
  readonly #select: string
  readonly #from: string
  readonly #columns: Map<string, Column>
  readonly #folded: Set<string>

  constructor (table: string, columns: Column[], caseInsensitive: string[]) {
    this.#columns = new Map(columns.map(c => [c.name, c]))
    this.#folded = new Set(caseInsensitive)
    this.#from = quote(table)
    this.#select = `SELECT ${columns.map(c => quote(c.name)).join(', ')} FROM ${this.#from}`
  }

  count (filters: Filter[]): Statement {
    const params = new Params()
    return { sql: `SELECT count(*) AS total FROM ${this.#from}${this.#where(filters, params)}`, params: params.values }
  }

  /** The page: `limit` rows after `offset`, or after the keyset position of `query.after`. */
  page (query: ListQuery): Statement {
    const params = new Params()
    const orderBy = ` ORDER BY ${query.sort.map(key => this.#ordered(key)).join(', ')}`
    if (query.after === undefined) {
      const where = this.#where(query.filters, params)
      const sql = `${this.#select}${where}${orderBy} LIMIT ${params.add(query.limit)} OFFSET ${params.add(query.offset)}`
      return { sql, params: params.values }
    }
    if (query.offset !== 0) throw new Error('a keyset page takes no offset')
    const limit = params.add(query.limit)
    const filters = query.filters.map(f => this.#condition(f, params))
    const ranges = keysetRanges(query.sort, query.after, field => this.#column(field).nullable).map(range => {
      const conditions = [...filters, ...range.map(term => this.#term(term, params))]
      return `(${this.#select} WHERE ${conditions.join(' AND ')}${orderBy} LIMIT ${limit})`
    })
    return { sql: `SELECT * FROM (${ranges.join(' UNION ALL ')}) AS page${orderBy} LIMIT ${limit}`, params: params.values }
  }

  #where (filters: Filter[], params: Params): string {
    return filters.length === 0 ? '' : ` WHERE ${filters.map(f => this.#condition(f, params)).join(' AND ')}`
  }

  /** The column as it compares and sorts: folded for a case-insensitive one. */
  #expression (field: string): string {
    return this.#folded.has(field) ? `lower(${quote(field)})` : quote(field)
  }

  /** A value as its column compares it. */
  #value (field: string, value: Exclude<Scalar, null>): Exclude<Scalar, null> {
    return this.#folded.has(field) && typeof value === 'string' ? asciiLower(value) : value
  }

  #ordered (key: SortKey): string {
    return `${this.#expression(key.field)} ${key.direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'}`
  }

  #term (term: RangeTerm, params: Params): string {
    const column = this.#expression(term.field)
    if (!('value' in term)) return `${column} ${term.test.toUpperCase()}`
    return `${column} ${term.test} ${params.add(this.#value(term.field, term.value))}`
  }

  #condition (filter: Filter, params: Params): string {
    const column = this.#expression(filter.field)
    const value = filter.value
    if (Array.isArray(value)) {
      const type = this.#column(filter.field).kind === 'integer' ? 'bigint' : 'text'
      return `${column} = ANY(${params.add(value.map(v => this.#value(filter.field, v as Exclude<Scalar, null>)))}::${type}[])`
    }
    if (value === null) return filter.op === 'ne' ? `${column} IS NOT NULL` : `${column} IS NULL`
    const placeholder = params.add(this.#value(filter.field, value))
    switch (filter.op) {
      case 'eq': return `${column} = ${placeholder}`
      // "differs from" includes records that have no value at all.
      case 'ne': return `${column} IS DISTINCT FROM ${placeholder}`
      case 'gt': return `${column} > ${placeholder}`
      case 'gte': return `${column} >= ${placeholder}`
      case 'lt': return `${column} < ${placeholder}`
      case 'lte': return `${column} <= ${placeholder}`
      default: throw new Error(`operator ${filter.op} takes a list`)
    }
  }

  #column (field: string): Column {
    const column = this.#columns.get(field)
    if (column === undefined) throw new Error(`no column ${field}`)
    return column
  }
}
