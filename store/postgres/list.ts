import type { Value } from '../../model/kinds.ts'
import type { Filter, ListQuery, SortKey } from '../contract.ts'
import type { CollectionCore } from '../collections.ts'
import { Parameters, type Statement } from '../dialect.ts'
import { keysetRanges, type RangeTerm } from '../keyset.ts'
import { quote } from '../text.ts'
import { POSTGRES } from './dialect.ts'

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
  readonly #core: CollectionCore
  readonly #folded: Set<string>

  constructor (core: CollectionCore) {
    this.#core = core
    this.#folded = new Set(core.resource.unique)
  }

  count (filters: Filter[]): Statement {
    const params = new Parameters(POSTGRES)
    return { sql: `SELECT count(*) AS total FROM ${this.#core.table}${this.#where(filters, params)}`, params: params.values }
  }

  /** The page: `limit` rows after `offset`, or after the keyset position of `query.after`. */
  page (query: ListQuery): Statement {
    const params = new Parameters(POSTGRES)
    const select = this.#core.select
    const orderBy = ` ORDER BY ${query.sort.map(key => this.#ordered(key)).join(', ')}`
    if (query.after === undefined) {
      const where = this.#where(query.filters, params)
      const sql = `${select}${where}${orderBy} LIMIT ${params.add(query.limit)} OFFSET ${params.add(query.offset)}`
      return { sql, params: params.values }
    }
    if (query.offset !== 0) throw new Error('a keyset page takes no offset')
    const limit = params.add(query.limit)
    const filters = query.filters.map(f => this.#core.condition(f, params))
    const ranges = keysetRanges(query.sort, query.after, field => this.#core.column(field).nullable).map(range => {
      const conditions = [...filters, ...range.map(term => this.#term(term, params))]
      return `(${select} WHERE ${conditions.join(' AND ')}${orderBy} LIMIT ${limit})`
    })
    return { sql: `SELECT * FROM (${ranges.join(' UNION ALL ')}) AS page${orderBy} LIMIT ${limit}`, params: params.values }
  }

  #where (filters: Filter[], params: Parameters): string {
    return filters.length === 0 ? '' : ` WHERE ${filters.map(f => this.#core.condition(f, params)).join(' AND ')}`
  }

  /** The column as it compares and sorts: folded for a case-insensitive one. */
  #expression (field: string): string {
    return this.#folded.has(field) ? POSTGRES.folded(quote(field)) : quote(field)
  }

  #ordered (key: SortKey): string {
    return `${this.#expression(key.field)} ${key.direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'}`
  }

  #term (term: RangeTerm, params: Parameters): string {
    const column = this.#expression(term.field)
    if (!('value' in term)) return `${column} ${term.test.toUpperCase()}`
    const value = this.#core.bind(term.field, term.value) as Value
    return `${column} ${term.test} ${params.add(this.#folded.has(term.field) ? POSTGRES.fold(value) : value)}`
  }
}
