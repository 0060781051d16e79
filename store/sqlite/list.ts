import type { ListQuery, SortKey } from '../contract.ts'
import type { CollectionSql } from '../collection-sql.ts'
import { counted, identifier, join, raw, sql, type Sql } from '../sql.ts'
import type { TableIndex } from '../tables.ts'
import { quote } from '../text.ts'
import type { SqliteDatabase } from './database.ts'
import { indexesIn } from './schema.ts'

/**
 * The plain-column indexes of a table (each key implicitly followed by the rowid, `id`), and each
 * column's collation (that of the index it leads), read from the database: the planner walks only
 * indexes that exist, and counts compare text as the columns do.
 */
export function readIndexes (db: SqliteDatabase, table: string): { indexes: TableIndex[], collations: Map<string, string> } {
  const indexes: TableIndex[] = []
  const collations = new Map<string, string>()
  // An expression's key has no name: such an index serves no plain column.
  for (const { name, keys } of indexesIn(db, table).filter(index => index.keys.every(k => k.name !== null))) {
    indexes.push({ name, columns: keys.map(k => k.name as string) })
    const lead = keys[0]
    if (lead !== undefined && !collations.has(lead.name as string)) collations.set(lead.name as string, lead.coll)
  }
  return { indexes, collations }
}

/** Operators an index can serve: a filter on one of them lets SQLite fetch only the matches (`search` through the FTS5 table). */
const SEEKABLE = new Set(['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'search'])

/** What SQLite spends on one row, in microseconds as measured (docs/benchmarks.md): only their ratios matter. */
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
 * The SQL of a collection read in SQLite, whose planner knows neither how many rows a filter
 * matches nor that one page is wanted. The store knows both (`matching`, `size`), chooses between
 * walking the sort's index and fetching the matches first by COST, and states its choice in the
 * SQL (`INDEXED BY`, or `+` on the first sort key): docs/architecture.md, "List plans on SQLite".
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
   * The count of the matching records, stopped at 4√(wanted × size): from there on a walk costs
   * a sixteenth of a fetch by COST, whatever the true count beyond. Below it the count is exact.
   * The stop is written in the text (`counted`), rounded up to three significant binary digits (a
   * quarter more at most), so that the text changes four times as the table doubles rather than at
   * each write.
   */
  countUpTo (query: ListQuery, size: number): Sql {
    const cap = Math.ceil(4 * Math.sqrt((query.offset + query.limit) * size))
    const step = 2 ** Math.max(0, Math.floor(Math.log2(cap)) - 2)
    const stop = counted(Math.ceil(cap / step) * step)
    return sql`SELECT count(*) FROM (SELECT 1 FROM ${this.#table.table}${this.#table.where(query.filters)} LIMIT ${stop})`
  }

  /** The statements that read the page, in order, each to be run with the LIMIT still wanted and the OFFSET: one per keyset range. */
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
    // A search is tested on the id each index entry holds, no dearer than the step; any other filter needs the row.
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
