import type Database from 'better-sqlite3'
import type { ListQuery, SortKey } from '../contract.ts'
import type { CollectionSql } from '../collection-sql.ts'
import { identifier, join, raw, sql, type Sql } from '../sql.ts'
import { quote } from '../text.ts'

/** An index as the planner uses it: its key columns, each entry implicitly followed by the rowid (`id`). */
export interface TableIndex {
  name: string
  columns: string[]
}

/**
 * The plain-column indexes of a table and the collation of each column, read from the database
 * itself: the planner walks only indexes that exist, and counts compare text as the columns do.
 * A column's collation is that of the index it leads (an index on a column uses the column's
 * collation unless it names another, which the migrations never do).
 */
export function readIndexes (db: Database.Database, table: string): { indexes: TableIndex[], collations: Map<string, string> } {
  const indexes: TableIndex[] = []
  const collations = new Map<string, string>()
  const list = db.prepare(`PRAGMA index_list(${quote(table)})`).all() as { name: string, partial: number }[]
  for (const { name, partial } of list) {
    if (partial === 1) continue
    const info = db.prepare(`PRAGMA index_xinfo(${quote(name)})`).all() as { cid: number, name: string | null, coll: string, key: number }[]
    const keys = info.filter(k => k.key === 1)
    // An expression index (cid -2) serves no plain column.
    if (keys.some(k => k.cid < 0 || k.name === null)) continue
    indexes.push({ name, columns: keys.map(k => k.name as string) })
    const lead = keys[0]
    if (lead !== undefined && !collations.has(lead.name as string)) collations.set(lead.name as string, lead.coll)
  }
  return { indexes, collations }
}

/** Operators an index can serve: a filter on one of them lets SQLite fetch only the matches (`search` through the FTS5 table). */
const SEEKABLE = new Set(['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'search'])

/**
 * What SQLite spends on one row, in microseconds, measured on a table of 100,000 rows (2 cores, Node 20):
 * only their ratios matter, they say which plan reads less. Skipping a row of the table in id
 * order costs next to nothing, walking an index a little more, but fetching the row an index entry
 * names (to test a filter, or for each match a filter's index finds) six times that; and SQLite's
 * sorter keeps offset + limit rows, so a deep page sorts nearly every match.
 */
const COST = {
  /** A row of the table skipped in id order. */
  tableStep: 0.01,
  /** A row of the table read and tested against the filters. */
  tableRead: 0.04,
  /** An index entry stepped over. */
  indexStep: 0.05,
  /** The row an index entry names, fetched. */
  lookup: 0.3,
  /** A match compared with the rows the sorter keeps. */
  compared: 0.01,
  /** A row the sorter keeps. */
  kept: 0.2
}

/**
 * The SQL of a collection read over one table. Every list query over any filter and any sort must
 * stay cheap however large the table is, and SQLite's planner, which knows neither how many rows
 * a filter matches nor that only one page is wanted, cannot be relied on for that: given
 * `country = 'DE' ORDER BY name`, it fetches every row of that country through the country index
 * and sorts them all to return 20. The store knows more: the exact number of matching rows (the total it
 * keeps for X-Total-Count, `matching`) and of rows in the table (`size`). So it chooses:
 *
 * - **walk**: read the sort's index in order and test each row against the filters, stopping once
 *   the page is full. Rows read ≈ (offset + limit) × size / matching, if the filters do not
 *   correlate with the sort order.
 * - **filter first**: let SQLite fetch the matching rows through a filter's index and sort them.
 *   Rows read ≈ matching (the whole table when no filter can use an index), all of them sorted.
 *
 * whichever costs less by the measured costs of COST, and states it in the SQL (`INDEXED BY`, or a unary `+` on the first
 * sort key, which keeps its collation but hides its index), so SQLite cannot choose otherwise.
 * Where a composite index leads with a column the filters fix by equality (`zoo_id` of the nested
 * routes, followed by each sortable field), walking it within that group is taken at once: it
 * reads at most the group, already in order.
 *
 * A keyset cursor is a position in the sort order; "after it" is split into disjoint ranges that
 * an index can seek to (`name = ? AND id > ?`, then `name > ?`, and for a nullable key in
 * descending order the NULLs last), read one after the other until the page is full, so a page
 * deep in a large collection costs what the first page costs.
 *
 * A sort on several fields is walked by the index of the first and the ties of that field are
 * sorted: its cost grows with the largest group of equal values of the first field.
 */
export class ListQueries {
  readonly #table: CollectionSql
  /** The shortest index led by each column. */
  readonly #leading = new Map<string, TableIndex>()
  /** Two-column indexes (lead, sort field) and one-column ones (lead, then id): walkable within an equality group of `lead`. */
  readonly #grouped: TableIndex[]

  constructor (table: CollectionSql, indexes: TableIndex[]) {
    this.#table = table
    for (const index of [...indexes].sort((a, b) => a.columns.length - b.columns.length)) {
      const lead = index.columns[0] as string
      if (!this.#leading.has(lead)) this.#leading.set(lead, index)
    }
    // Every column a list may sort by leads an index: start-up checked it (store/sqlite/schema.ts).
    this.#grouped = indexes.filter(i => i.columns.length <= 2)
  }

  /**
   * The count of the matching records, stopped at the number past which walking the sort's index
   * is surely cheaper than fetching the matches first: with m matches, a walk reads about
   * wanted × size / m rows and a fetch at least m, so from m = 4√(wanted × size) on the walk
   * costs a sixteenth of the fetch by COST's figures, and #access chooses it whatever the
   * true count beyond. Below that number the count is exact.
   */
  countUpTo (query: ListQuery, size: number): Sql {
    const cap = Math.min(size, Math.ceil(4 * Math.sqrt((query.offset + query.limit) * size)))
    return sql`SELECT count(*) FROM (SELECT 1 FROM ${this.#table.table}${this.#table.where(query.filters)} LIMIT ${cap})`
  }

  /**
   * The statements that read the page, in order: run each followed by the LIMIT of the rows still
   * wanted and the OFFSET (0 with a cursor), until the page is full. One statement without a
   * cursor; with one, a statement per keyset range. Each row holds the columns in order.
   */
  page (query: ListQuery, matching: number, size: number): Sql[] {
    const access = this.#access(query, matching, size)
    const [first, ...rest] = query.sort as [SortKey, ...SortKey[]]
    // Filter first: `+` keeps the first key's collation but no index can give its order.
    const lead = raw(access.walk ? '' : '+')
    const keys = [sql`${lead}${identifier(first.field)} ${direction(first)}`, ...rest.map(k => sql`${identifier(k.field)} ${direction(k)}`)]
    const orderBy = join(keys, ', ')
    const read = sql`${this.#table.select} ${raw(access.hint)}`
    if (query.after === undefined) return [sql`${read}${this.#table.where(query.filters)} ORDER BY ${orderBy}`]
    if (query.offset !== 0) throw new Error('a keyset page takes no offset')
    const filters = query.filters.map(f => this.#table.condition(f))
    return this.#table.after(query.sort, query.after, lead)
      .map(range => sql`${read} WHERE ${join([...filters, range], ' AND ')} ORDER BY ${orderBy}`)
  }

  #access (query: ListQuery, matching: number, size: number): { hint: string, walk: boolean } {
    const first = (query.sort[0] as SortKey).field
    const fixed = new Set(query.filters.filter(f => f.op === 'eq').map(f => f.field))
    const group = this.#grouped.find(index => fixed.has(index.columns[0] as string) &&
      (first === 'id' ? index.columns.length === 1 : index.columns[1] === first))
    if (group !== undefined) return { hint: `INDEXED BY ${quote(group.name)}`, walk: true }
    const wanted = query.offset + query.limit
    const walked = Math.min(size, wanted * size / Math.max(matching, 1))
    const tested = query.filters.length > 0
    // A search lists its matches once, before the walk (`id IN (SELECT rowid ...)`), and is then
    // tested on the id each index entry holds (measured: no dearer than the step itself); any other
    // filter needs the row.
    const rowTested = query.filters.some(f => f.op !== 'search')
    const walk = walked * (first === 'id' ? (tested ? COST.tableRead : COST.tableStep) : COST.indexStep + (rowTested ? COST.lookup : 0))
    const fetch = query.filters.some(f => SEEKABLE.has(f.op)) ? matching * COST.lookup : size * COST.tableRead
    const filterFirst = fetch + matching * COST.compared + Math.min(matching, wanted) * COST.kept
    if (walk > filterFirst) return { hint: '', walk: false }
    // The rowid is the table's own order: NOT INDEXED walks it.
    return { hint: first === 'id' ? 'NOT INDEXED' : `INDEXED BY ${quote((this.#leading.get(first) as TableIndex).name)}`, walk: true }
  }
}

const direction = (key: SortKey): Sql => raw(key.direction === 'asc' ? 'ASC' : 'DESC')
