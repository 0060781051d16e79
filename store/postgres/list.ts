import type { ListQuery, SortKey } from '../contract.ts'
import type { CollectionSql } from '../collection-sql.ts'
import { join, raw, sql, type Sql } from '../sql.ts'

/**
 * The SQL of a collection read in PostgreSQL. Unlike SQLite's, PostgreSQL's planner keeps
 * statistics and knows a LIMIT: it chooses between walking an index of the sort and fetching the
 * matches first by itself, so the store only says what it wants. It says it as SQLite answers:
 *
 * - NULL sorts first in ascending order and last in descending order (`NULLS FIRST` / `NULLS
 *   LAST`; every index of migrations/postgres is built `NULLS FIRST`, which serves both ways);
 * - text compares in code-point order (the columns are `COLLATE "C"`), and a unique field (the
 *   email) without regard to ASCII case, as SQLite's NOCASE: `lower()` of a `"C"` column folds
 *   A-Z only, and the values compared with it are folded alike (store/collection-sql.ts).
 *
 * A keyset cursor is the same disjoint ranges as SQLite's (store/keyset.ts), each read by a
 * subquery an index can serve, joined in sort order: one round trip.
 */
export class PostgresListQueries {
  readonly #table: CollectionSql

  constructor (table: CollectionSql) {
    this.#table = table
  }

  /** The page: `limit` rows after `offset`, or after the keyset position of `query.after`. */
  page (query: ListQuery): Sql {
    const { select } = this.#table
    const orderBy = sql` ORDER BY ${join(query.sort.map(key => this.#ordered(key)), ', ')}`
    if (query.after === undefined) {
      return sql`${select}${this.#table.where(query.filters)}${orderBy} LIMIT ${query.limit} OFFSET ${query.offset}`
    }
    if (query.offset !== 0) throw new Error('a keyset page takes no offset')
    const filters = query.filters.map(f => this.#table.condition(f))
    const ranges = this.#table.after(query.sort, query.after)
      .map(range => sql`(${select} WHERE ${join([...filters, range], ' AND ')}${orderBy} LIMIT ${query.limit})`)
    return sql`SELECT * FROM (${join(ranges, ' UNION ALL ')}) AS page${orderBy} LIMIT ${query.limit}`
  }

  /** The column as it sorts (folded for a case-insensitive one), NULL first in ascending order. */
  #ordered (key: SortKey): Sql {
    return sql`${this.#table.compared(key.field)} ${raw(key.direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`
  }
}
