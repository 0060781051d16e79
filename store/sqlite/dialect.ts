import type { Dialect } from '../dialect.ts'
import { identifier, list, raw, sql } from '../sql.ts'
import { COLUMNS } from './columns.ts'

/** The FTS5 table of a collection's search words (store/sqlite/schema.ts makes it). */
export const searchTable = (table: string): string => `${table}_search`

const NOTHING = raw('')

/**
 * SQLite's side of store/collection-sql.ts: `?` parameters, no row locks (BEGIN IMMEDIATE holds the
 * file), text compared by its column's collation, values as STRICT columns hold them, FTS5 words.
 */
export const SQLITE: Dialect = {
  placeholder: () => '?',
  bind: (kind, value) => COLUMNS[kind].bind?.(value) ?? value,
  read: (kind, stored) => stored === null ? null : COLUMNS[kind].read?.(stored) ?? stored,
  forUpdate: NOTHING,
  forKeyShare: NOTHING,
  distinct: raw('IS NOT'),
  folded: column => column,
  fold: value => value,
  codePoints: column => sql`${column} COLLATE BINARY`,
  oneOf: (expression, _kind, values) => sql`${expression} IN (${list(values)})`,
  // An FTS5 table apart, its rowid the record's id; a query word in double quotes is one token
  // (the words hold letters and digits only), `*` makes it a prefix.
  searchIndex: table => {
    const search = identifier(searchTable(table))
    return {
      apart: {
        put: (id, words) => sql`INSERT INTO ${search} (rowid, words) VALUES (${id}, ${words})`,
        remove: id => sql`DELETE FROM ${search} WHERE rowid = ${id}`
      },
      match: words => sql`id IN (SELECT rowid FROM ${search} WHERE ${search} MATCH ${words.map(w => `"${w}"*`).join(' ')})`,
      // Only the kept ids after `after`: the list of all of them, made again for every batch, would
      // make the words of a large table in a time that grows with its square.
      unindexed: after => sql`id NOT IN (SELECT rowid FROM ${search} WHERE rowid > ${after})`
    }
  }
}
