import type { Scalar } from '../model/kinds.ts'
import type { ResourceRecord } from '../model/resource.ts'
import type { CollectionSql } from './collection-sql.ts'
import type { Children, Filter } from './contract.ts'
import { counted, identifier, join, raw, sql, type Sql } from './sql.ts'

/*
 * The SQL of a collection's records embedded under their parents (`embed=` of a parent's
 * list, collections/embedding.ts): the first records of each parent in one statement, and the
 * count of those with more, over the collection's SQL (store/collection-sql.ts).
 */

/**
 * The first `limit` records of each parent for which `within` holds, in id order: a branch per
 * parent, each read by the index led by `field` (which holds a parent's records in id order),
 * joined into one statement.
 */
export function childrenOf (table: CollectionSql, field: string, parents: readonly number[], limit: number, within: Filter[]): Sql {
  return join(parents.map((parent, i) => {
    const branch = sql`${table.select} WHERE ${identifier(field)} = ${parent}${table.and(within)} ORDER BY id LIMIT ${counted(limit)}`
    return sql`SELECT * FROM (${branch}) AS ${raw(`parent${i}`)}`
  }), ' UNION ALL ')
}

/**
 * The rows `childrenOf` read, as records by parent (an empty list for a parent without any), and
 * how many each parent has: one with fewer than `limit` has them all; the others, `full`, are
 * counted by `childCounts`.
 */
export function grouped (
  table: CollectionSql, field: string, parents: readonly number[], rows: Scalar[][], limit: number
): Children & { full: number[] } {
  const items = new Map<number, ResourceRecord[]>(parents.map(parent => [parent, []]))
  for (const row of rows) {
    const record = table.record(row)
    items.get(Number(record[field]))?.push(record)
  }
  const totals = new Map([...items].map(([parent, records]) => [parent, records.length]))
  const full = [...items].filter(([, records]) => records.length >= limit).map(([parent]) => parent)
  return { items, totals, full }
}

/** How many records for which `within` holds name each of `parents` in `field`: rows of [parent, count]. */
export function childCounts (table: CollectionSql, field: string, parents: readonly number[], within: Filter[]): Sql {
  const column = identifier(field)
  const named = table.dialect.oneOf(column, 'reference', [...parents])
  return sql`SELECT ${column}, count(*) FROM ${table.table} WHERE ${named}${table.and(within)} GROUP BY ${column}`
}
