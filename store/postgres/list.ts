import type { ListQuery, SortKey } from '../contract.ts'
import type { CollectionSql } from '../collection-sql.ts'
import { counted, join, raw, sql, type Sql } from '../sql.ts'

/**
 * The SQL of a collection read in PostgreSQL, whose planner chooses the plan itself; the store
 * says only what it wants, sorted as SQLite sorts (NULL first ascending, text in code points, a
 * unique field by `lower()`), and a keyset cursor's ranges as subqueries in one round trip.
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
      return sql`${select}${this.#table.where(query.filters)}${orderBy} LIMIT ${counted(query.limit)} OFFSET ${query.offset}`
    }
    if (query.offset !== 0) throw new Error('a keyset page takes no offset')
    const filters = query.filters.map(f => this.#table.condition(f))
    const ranges = this.#table.after(query.sort, query.after)
      .map(range => sql`(${select} WHERE ${join([...filters, range], ' AND ')}${orderBy} LIMIT ${counted(query.limit)})`)
    return sql`SELECT * FROM (${join(ranges, ' UNION ALL ')}) AS page${orderBy} LIMIT ${counted(query.limit)}`
  }

  /** The column as it sorts (folded for a case-insensitive one), NULL first in ascending order. */
  #ordered (key: SortKey): Sql {
    return sql`${this.#table.compared(key.field)} ${raw(key.direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`
  }
}
