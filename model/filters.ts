import { KINDS, type Comparator, type FilterOperator, type Scalar, type Value } from './kinds.ts'
import type { Column, ResourceRecord } from './column.ts'
import { matchesWords, recordWords } from './search.ts'

/*
 * What chooses records, in the words of a list's query string (`field=value`, `field_gt=value`,
 * ... `field_in=a,b`): a list's filters and a collection's access rules (model/access.ts) are
 * written alike and read here alike, so that both compile into the same SQL on either engine.
 */

/** One comparison of a field with a value. */
export interface FieldFilter {
  /** The field compared; for `search`, `q`. */
  field: string
  op: FilterOperator
  /** A list for `in`, the words of the query for `search`; null for `eq`/`ne` means "has no value". */
  value: Scalar | Scalar[]
}

/**
 * The records that match every filter of any one of the sets: an access rule bound to a token.
 * No set at all matches no record.
 */
export interface AnyOf {
  field: ''
  op: 'any'
  value: FieldFilter[][]
}

export type Filter = FieldFilter | AnyOf

/** A query-string parameter that names a field and an operator: `<field>_<op>`; otherwise equality. */
const OPERATORS = /^(.+)_(gt|gte|lt|lte|ne|in)$/

/** The field and operator a parameter name says, when it names a column of `columns`; undefined otherwise. */
export function termOf (columns: ReadonlyMap<string, Column>, name: string): { column: Column, op: FilterOperator } | undefined {
  const match = OPERATORS.exec(name)
  const [field, op] = columns.has(name) || match === null
    ? [name, 'eq' as FilterOperator]
    : [match[1] as string, match[2] as FilterOperator]
  const column = columns.get(field)
  if (column === undefined) return undefined
  if (op !== 'eq' && !(KINDS[column.kind].operators as readonly string[]).includes(op)) return undefined
  return { column, op }
}

/** A text value of a field as the stores compare it; throws the reason it is refused, named by the field. */
export function parseValue (column: Column, raw: string): Scalar {
  try {
    return KINDS[column.kind].parse(raw)
  } catch (err) {
    throw new Error(`${column.name}: ${(err as Error).message}`)
  }
}

/**
 * The filter of a value given as text: a list for `_in` (split at commas); for equality and
 * difference on a field that may be empty, `null` means "has no value" (a range compares with
 * the text "null").
 */
export function filterOfText (column: Column, op: FilterOperator, raw: string): FieldFilter {
  const field = column.name
  if (op === 'in') return { field, op, value: raw.split(',').map(v => parseValue(column, v)) }
  if (raw === 'null' && column.nullable && (op === 'eq' || op === 'ne')) return { field, op, value: null }
  return { field, op, value: parseValue(column, raw) }
}

/** Whether a record matches: a set of filters, evaluated in memory. */
export type Matcher = (record: ResourceRecord) => boolean

/**
 * Whether a record matches every one of `filters`, with the semantics of the SQL condition the
 * stores make of them (store/collection-sql.ts), evaluated in memory: what keeps SQLite's totals
 * exact as writes commit, and what tells a change of the feed inside a token's access rules.
 * `compare` orders a field's values as the database does; `searched`, the fields `q` searches.
 */
export function matcher (filters: readonly Filter[], compare: (field: string) => Comparator, searched: readonly string[]): Matcher {
  const tests = filters.map((filter): Matcher => {
    if (filter.op === 'any') {
      const sets = filter.value.map(set => matcher(set, compare, searched))
      return record => sets.some(matches => matches(record))
    }
    return filter.op === 'search'
      ? record => matchesWords(recordWords(searched, record), filter.value as string[])
      : test(filter, compare(filter.field))
  })
  return record => tests.every(t => t(record))
}

/** SQL semantics: a comparison with NULL is never true, but `ne`, which the store writes `IS NOT`. */
function test ({ field, op, value }: FieldFilter, compare: Comparator): Matcher {
  if (Array.isArray(value)) return record => record[field] != null && value.some(v => compare(record[field] as Value, v as Value) === 0)
  if (value === null) return op === 'ne' ? record => record[field] != null : record => record[field] == null
  const is = (predicate: (order: number) => boolean): Matcher =>
    record => record[field] != null && predicate(compare(record[field] as Value, value))
  switch (op) {
    case 'eq': return is(order => order === 0)
    case 'ne': return record => record[field] == null || compare(record[field] as Value, value) !== 0
    case 'gt': return is(order => order > 0)
    case 'gte': return is(order => order >= 0)
    case 'lt': return is(order => order < 0)
    case 'lte': return is(order => order <= 0)
    default: throw new Error(`operator ${op} takes a list`)
  }
}
