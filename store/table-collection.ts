import type { Scalar } from '../model/kinds.ts'
import type { Resource, ResourceRecord } from '../model/resource.ts'
import { AggregateSql } from './aggregate-sql.ts'
import type {
  AggregateOptions, AggregateQuery, Alongside, Children, CollectionStore, Filter, Groups, ListOptions, ListQuery, Page, Presence,
  ReadOptions, Versioned
} from './contract.ts'
import { childCounts, childrenOf, grouped } from './children-sql.ts'
import { CollectionSql } from './collection-sql.ts'
import { CollectionWrites } from './collections.ts'
import type { Dialect } from './dialect.ts'
import { sql, type Sql } from './sql.ts'

/** What a delete removes: a record by its id, or the records of a change of many (what refuses it names them so). */
export type Deleting = number | 'many'

/** Whether a page of `query` is empty by its exact `total` alone (none, or a page that starts past it): then nothing is read. */
export const emptyByTotal = (query: ListQuery, total: number | undefined): boolean =>
  total === 0 || (total !== undefined && query.after === undefined && query.offset >= total)

/**
 * A collection kept in a table of an SQL database: what both engines' collections do alike, over
 * the collection's SQL (store/collection-sql.ts); its write sequences (store/collections.ts) run
 * by its store (store/table-store.ts). Each engine says how a read runs (`rows`), and keeps its own
 * lists and totals (store/sqlite/collections.ts, store/postgres/collections.ts).
 */
export abstract class TableCollection implements CollectionStore {
  readonly resource: Resource
  readonly sql: CollectionSql
  readonly writes: CollectionWrites
  readonly aggregates: AggregateSql

  constructor (resource: Resource, resources: Resource[], dialect: Dialect) {
    this.resource = resource
    this.sql = new CollectionSql(resource, dialect)
    this.writes = new CollectionWrites(this.sql, resources)
    this.aggregates = new AggregateSql(this.sql)
  }

  abstract list (query: ListQuery, options: ListOptions): Promise<Page>

  /** Every row of a read, each its values in the order of the select list; `varies`, its text varies with what is asked. */
  protected abstract rows (statement: Sql, varies?: boolean): Promise<Scalar[][]>

  /**
   * One record, where `within` (a token's access rules) holds. The text of the read is one of a few
   * per resource whatever the token: a rule's claims are values, an `_in` claim one array value, so
   * it varies only with which of its rules' claims a token lacks. It is prepared like any other.
   */
  async get (id: number, { alongside, within = [] }: ReadOptions = {}): Promise<Versioned | undefined> {
    if (alongside === undefined || alongside.settled) {
      const [row] = await this.rows(this.sql.read(id, within))
      return row === undefined ? undefined : this.sql.versioned(row)
    }
    // One row whatever the record, so that `alongside` is answered in the same statement even for a record that is not there.
    const [row] = await this.rows(sql`SELECT ${alongside.columns()}, record.* FROM (SELECT 1) AS one
      LEFT JOIN (${this.sql.read(id, within)}) AS record ON true`)
    if (row === undefined) throw new Error('a select of one row answered none')
    return this.answered(alongside, row)
  }

  /**
   * The record of a row that holds `alongside`'s answer and then the record's columns and version
   * (nulls when there is no record); `alongside` answered.
   */
  protected answered (alongside: Alongside, row: Scalar[]): Versioned | undefined {
    const answered = row.length - this.sql.columns.length - 1
    alongside.answer(row.slice(0, answered))
    const record = row.slice(answered)
    return record[0] === null ? undefined : this.sql.versioned(record)
  }

  /** Asks `alongside` in a statement of its own, unless it is answered. */
  protected async settle (alongside: Alongside | undefined): Promise<void> {
    if (alongside === undefined || alongside.settled) return
    const [row] = await this.rows(sql`SELECT ${alongside.columns()}`)
    alongside.answer(row as Scalar[])
  }

  async getMany (ids: readonly number[], within: Filter[] = []): Promise<ResourceRecord[]> {
    if (ids.length === 0) return []
    return (await this.rows(this.sql.byIds(ids, within))).map(row => this.sql.record(row))
  }

  async children (field: string, parents: readonly number[], limit: number, within: Filter[] = []): Promise<Children> {
    if (parents.length === 0) return { items: new Map(), totals: new Map() }
    const read = await this.rows(childrenOf(this.sql, field, parents, limit, within), true)
    const { items, totals, full } = grouped(this.sql, field, parents, read, limit)
    if (full.length > 0) {
      for (const [parent, count] of await this.rows(childCounts(this.sql, field, full, within))) totals.set(Number(parent), Number(count))
    }
    return { items, totals }
  }

  async aggregate (query: AggregateQuery, { counting, timeout }: AggregateOptions): Promise<Groups> {
    const statements = [this.aggregates.page(query), ...(counting === 'none' ? [] : [this.aggregates.count(query)])]
    const [page, counted] = await this.readApart(statements, timeout) as [Scalar[][], Scalar[][] | undefined]
    const groups = page.map(row => this.aggregates.group(query, row))
    return { groups, total: counted === undefined ? undefined : Number(counted[0]?.[0]) }
  }

  /**
   * The rows of each of `statements`, which only read, all of one state of the records, read
   * apart from what answers the requests and ended after `timeout` seconds (StoreError `timed_out`).
   */
  protected abstract readApart (statements: Sql[], timeout: number): Promise<Scalar[][][]>

  async presence (id: number): Promise<Presence> {
    // One statement for both questions: on PostgreSQL, one round trip.
    const [live, deleted] = [sql`EXISTS (${this.sql.live(id)})`, sql`EXISTS (${this.sql.tombstone(id)})`]
    const [row] = await this.rows(sql`SELECT CASE WHEN ${live} THEN 'live' WHEN ${deleted} THEN 'deleted' ELSE 'absent' END`)
    return row?.[0] as Presence
  }
}
