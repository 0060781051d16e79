import type { KindName, Scalar } from '../model/kinds.ts'
import { foldsCase } from '../model/resource.ts'
import type { CollectionSql } from './collection-sql.ts'
import type { AggregateQuery, Group, GroupCondition, GroupKey, GroupMeasure, GroupSortKey } from './contract.ts'
import { counted, identifier, join, raw, sql, type Sql } from './sql.ts'
import { storable } from './text.ts'

/** How many characters of a date's or timestamp's text make its bucket: `2020`, `2020-03`, `2020-03-01`. */
const BUCKET_LENGTH = { year: 4, month: 7, day: 10 } as const

const NOTHING = raw('')

/** The kind of a measure's values: a count's an integer, an average's a number, the others' their field's (`field`). */
export const measuredKind = (measure: GroupMeasure['measure'], field: KindName | undefined): KindName =>
  measure === 'count' ? 'integer' : measure === 'avg' ? 'number' : field as KindName

/**
 * The SQL of an aggregate of one collection (`GET /v1/<c>/aggregate`), the same on both engines:
 * one `GROUP BY` over the records the filters match, the groups then filtered by their conditions,
 * sorted and paged by the database. Dates and timestamps are kept as their RFC 3339 text, so a bucket is the
 * first characters of it. Nothing of a group's keys or measures is a parameter: PostgreSQL matches
 * a sorted expression with a grouped one by its text, which a numbered parameter would change.
 */
export class AggregateSql {
  readonly #table: CollectionSql

  constructor (table: CollectionSql) {
    this.#table = table
  }

  /**
   * The groups of a page: each row the group keys, the count, then the measures, in the query's
   * order. With keys, one `GROUP BY` sorted by its own expressions, which PostgreSQL then reads in
   * the order of an index and stops at the page's end; without, the one group of every record, its
   * conditions on its columns (a `HAVING` without `GROUP BY` is not SQLite's).
   */
  page (query: AggregateQuery): Sql {
    const paged = sql` LIMIT ${counted(query.limit)} OFFSET ${query.offset}`
    if (query.groupBy.length === 0) return sql`${this.#alone(query, () => true)}${paged}`
    const columns = [...query.groupBy.map(key => this.#key(key)), raw('count(*)'), ...query.measures.map(m => this.#measure(m))]
    const orderBy = join(query.sort.map(key => this.#sorted(key, query)), ', ')
    return sql`SELECT ${join(columns, ', ')}${this.#grouped(query)} ORDER BY ${orderBy}${paged}`
  }

  /**
   * How many groups the query has, whatever the page: only what its conditions name is measured (a
   * grouping by an indexed field is then read from its index alone).
   */
  count (query: AggregateQuery): Sql {
    const conditioned = (measure: AggregateQuery['measures'][number]): boolean =>
      query.having.some(({ of }) => of.measure === measure.measure && 'field' in of && of.field === measure.field)
    return query.groupBy.length === 0
      ? sql`SELECT count(*) FROM (${this.#alone(query, conditioned)}) AS grouped`
      : sql`SELECT count(*) FROM (SELECT 1 AS one${this.#grouped(query)}) AS grouped`
  }

  /** A group of a row of `page`. */
  group (query: AggregateQuery, row: Scalar[]): Group {
    const group: Group = {}
    let i = 0
    for (const key of query.groupBy) {
      const value = row[i++] as Scalar
      group[key.field] = key.bucket === undefined ? this.#table.dialect.read(this.#kindOf(key.field), value) : value
    }
    group.count = Number(row[i++])
    for (const measure of query.measures) {
      const value = row[i++] as Scalar
      const measured = (group[measure.measure] ??= {}) as Record<string, Scalar>
      const kept = measure.measure === 'min' || measure.measure === 'max'
      measured[measure.field] = value === null || kept ? this.#table.dialect.read(this.#kindOf(measure.field), value) : Number(value)
    }
    return group
  }

  /** FROM, WHERE, GROUP BY and HAVING of a query with keys: its conditions on the measures' expressions. */
  #grouped (query: AggregateQuery): Sql {
    const having = query.having.length === 0
      ? NOTHING
      : sql` HAVING ${join(query.having.map(condition => this.#condition(condition, this.#measure(condition.of))), ' AND ')}`
    const groupBy = join(query.groupBy.map(key => this.#key(key)), ', ')
    return sql` FROM ${this.#table.table}${this.#table.where(query.filters)} GROUP BY ${groupBy}${having}`
  }

  /**
   * The one group of a query without keys, its count as `n` and the measures `wanted` as m0, m1...,
   * kept when its conditions hold.
   */
  #alone (query: AggregateQuery, wanted: (measure: AggregateQuery['measures'][number]) => boolean): Sql {
    const columns = [
      raw('count(*) AS n'),
      ...query.measures.flatMap((measure, i) => wanted(measure) ? [sql`${this.#measure(measure)} AS ${raw(`m${i}`)}`] : [])
    ]
    const column = (of: GroupMeasure): Sql => raw(of.measure === 'count'
      ? 'n'
      : `m${query.measures.findIndex(m => m.measure === of.measure && m.field === of.field)}`)
    const having = query.having.length === 0
      ? NOTHING
      : sql` WHERE ${join(query.having.map(condition => this.#condition(condition, column(condition.of))), ' AND ')}`
    return sql`SELECT * FROM (SELECT ${join(columns, ', ')} FROM ${this.#table.table}${this.#table.where(query.filters)}) AS alone${having}`
  }

  #key ({ field, bucket }: GroupKey): Sql {
    return bucket === undefined ? identifier(field) : sql`substr(${identifier(field)}, 1, ${raw(String(BUCKET_LENGTH[bucket]))})`
  }

  /**
   * A measure's expression. A sum of integers is an integer and an average a double on both
   * engines (PostgreSQL's are numeric otherwise); a text's least and greatest compare by code
   * points, whatever the column's collation.
   */
  #measure (of: GroupMeasure): Sql {
    if (of.measure === 'count') return raw('count(*)')
    const column = identifier(of.field)
    switch (of.measure) {
      case 'sum': return this.#kindOf(of.field) === 'number' ? sql`sum(${column})` : sql`CAST(sum(${column}) AS BIGINT)`
      case 'avg': return sql`CAST(avg(${column}) AS DOUBLE PRECISION)`
      case 'min': case 'max': {
        // Only a unique field's column compares otherwise; any other, so wrapped, would not be read from an index.
        const compared = foldsCase(this.#table.resource, of.field) ? this.#table.dialect.codePoints(column) : column
        return sql`${raw(of.measure)}(${compared})`
      }
    }
  }

  /** A key or measure as the groups sort by it, NULL first ascending: a bucket as its text, a field as its list sorts it. */
  #sorted ({ by, direction }: GroupSortKey, query: AggregateQuery): Sql {
    let expression: Sql
    if ('measure' in by) expression = this.#measure(by)
    else {
      const key = query.groupBy.find(k => k.field === by.field)
      if (key === undefined) throw new Error(`${by.field} is not a group key`)
      expression = key.bucket === undefined ? this.#table.compared(key.field) : this.#key(key)
    }
    return sql`${expression} ${raw(direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`
  }

  /** A condition on a group, on `expression`, what its measure is where the condition stands. */
  #condition ({ of, op, value }: GroupCondition, expression: Sql): Sql {
    const kind = measuredKind(of.measure, 'field' in of ? this.#kindOf(of.field) : undefined)
    const bound = (v: Scalar): Scalar => v === null ? null : this.#table.dialect.bind(kind, storable(v) as Exclude<Scalar, null>)
    if (Array.isArray(value)) return this.#table.dialect.oneOf(expression, kind, value.map(v => bound(v) as Exclude<Scalar, null>))
    const compared = bound(value)
    switch (op) {
      case 'eq': return sql`${expression} = ${compared}`
      case 'ne': return sql`${expression} ${this.#table.dialect.distinct} ${compared}`
      case 'gt': return sql`${expression} > ${compared}`
      case 'gte': return sql`${expression} >= ${compared}`
      case 'lt': return sql`${expression} < ${compared}`
      case 'lte': return sql`${expression} <= ${compared}`
      case 'in': throw new Error('in takes a list')
    }
  }

  #kindOf (field: string): KindName {
    return this.#table.column(field).kind
  }
}
