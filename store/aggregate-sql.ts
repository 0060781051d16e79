import type { KindName, Scalar } from '../model/kinds.ts'
import { foldsCase } from '../model/resource.ts'
import type { CollectionSql } from './collection-sql.ts'
import type { AggregateQuery, Group, GroupCondition, GroupKey, GroupMeasure, GroupSortKey } from './contract.ts'
import { identifier, join, raw, sql, type Sql } from './sql.ts'
import { storable } from './text.ts'

/** How many characters of a date's or timestamp's text make its bucket: `2020`, `2020-03`, `2020-03-01`. */
const BUCKET_LENGTH = { year: 4, month: 7, day: 10 } as const

const NOTHING = raw('')

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
   * order. The conditions and the sort name the grouped columns: a `HAVING` without `GROUP BY`
   * (one group of every record, what no key means) is not SQLite's.
   */
  page (query: AggregateQuery): Sql {
    // Without keys, one group at most: nothing to sort.
    const orderBy = query.sort.length === 0
      ? NOTHING
      : sql` ORDER BY ${join(query.sort.map(key => this.#sorted(key, query)), ', ')}`
    const paged = sql` LIMIT ${query.limit} OFFSET ${query.offset}`
    return sql`SELECT * FROM (${this.#grouped(query)}) AS grouped${this.#having(query)}${orderBy}${paged}`
  }

  /**
   * How many groups the query has, whatever the page: of the measures, only those its conditions
   * name are measured (a grouping by an indexed field is then read from its index alone).
   */
  count (query: AggregateQuery): Sql {
    const conditioned = (measure: AggregateQuery['measures'][number]): boolean =>
      query.having.some(({ of }) => of.measure === measure.measure && 'field' in of && of.field === measure.field)
    return sql`SELECT count(*) FROM (${this.#grouped(query, conditioned)}) AS grouped${this.#having(query)}`
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

  /** The groups, unsorted: the keys as k0, k1..., the count as n, the measures (those `wanted`) as m0, m1... */
  #grouped (query: AggregateQuery, wanted: (measure: AggregateQuery['measures'][number]) => boolean = () => true): Sql {
    const keys = query.groupBy.map(key => this.#key(key))
    const columns = [
      ...keys.map((key, i) => sql`${key} AS ${raw(`k${i}`)}`),
      raw('count(*) AS n'),
      ...query.measures.flatMap((measure, i) => wanted(measure) ? [sql`${this.#measure(measure)} AS ${raw(`m${i}`)}`] : [])
    ]
    const groupBy = keys.length === 0 ? NOTHING : sql` GROUP BY ${join(keys, ', ')}`
    return sql`SELECT ${join(columns, ', ')} FROM ${this.#table.table}${this.#table.where(query.filters)}${groupBy}`
  }

  /** The grouped column of a measure (the count, or one asked). */
  #measured (of: GroupMeasure, query: AggregateQuery): Sql {
    if (of.measure === 'count') return raw('n')
    const index = query.measures.findIndex(m => m.measure === of.measure && m.field === of.field)
    if (index < 0) throw new Error(`${of.measure} of ${of.field} is not measured`)
    return raw(`m${index}`)
  }

  #having (query: AggregateQuery): Sql {
    return query.having.length === 0
      ? NOTHING
      : sql` WHERE ${join(query.having.map(condition => this.#condition(condition, query)), ' AND ')}`
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
    if ('measure' in by) expression = this.#measured(by, query)
    else {
      const index = query.groupBy.findIndex(key => key.field === by.field)
      const key = query.groupBy[index]
      if (key === undefined) throw new Error(`${by.field} is not a group key`)
      const column = raw(`k${index}`)
      expression = key.bucket === undefined && foldsCase(this.#table.resource, key.field) ? this.#table.dialect.folded(column) : column
    }
    return sql`${expression} ${raw(direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`
  }

  #condition ({ of, op, value }: GroupCondition, query: AggregateQuery): Sql {
    const expression = this.#measured(of, query)
    const kind = this.#kindOfMeasure(of)
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

  /** The kind of a measure's values: a count's an integer, an average's a number, the others' their field's. */
  #kindOfMeasure (of: GroupMeasure): KindName {
    if (of.measure === 'count') return 'integer'
    if (of.measure === 'avg') return 'number'
    return this.#kindOf(of.field)
  }

  #kindOf (field: string): KindName {
    return this.#table.column(field).kind
  }
}
