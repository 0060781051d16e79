import type { Comparator, Value } from '../../model/kinds.ts'
import type { ResourceRecord } from '../../model/resource.ts'
import { matchesWords, recordWords } from '../../model/search.ts'
import { filterSetKey, type Filter } from '../contract.ts'

/** A record matches a filter: the filter's semantics, evaluated in memory. */
type Matcher = (record: ResourceRecord) => boolean

interface Entry {
  matches: Matcher
  count: number
}

/**
 * Matching-record counts (`X-Total-Count`) of one collection, one per set of filters, kept exact
 * across writes instead of counted again on every read.
 *
 * Counting costs as much as the rows it counts, so a total that is counted per request grows with
 * the table. A count read once stays exact if every committed write adjusts it: the write knows
 * the record before and after, and each cached filter set is evaluated on both (in memory, with
 * the same semantics as the SQL condition; the list tests compare the two on random filters). A
 * write rolled back adjusts nothing. Anything else that changes the table (another connection)
 * must call `clear()`.
 *
 * Bounded: the least recently read set is forgotten first, and every write costs one evaluation
 * per kept set.
 */
export class Totals {
  readonly #entries = new Map<string, Entry>()

  readonly compare: (field: string) => Comparator
  /** The fields `q` searches. */
  readonly searched: readonly string[]
  readonly capacity: number

  constructor (compare: (field: string) => Comparator, searched: readonly string[], capacity = 256) {
    this.compare = compare
    this.searched = searched
    this.capacity = capacity
  }

  /** The count for `filters`, from the cache, or from `count()` once. */
  get (filters: Filter[], count: () => number): number {
    const key = filterSetKey(filters)
    const entry = this.#entries.get(key)
    if (entry !== undefined) {
      // Map order is insertion order: moving the entry to the end keeps the oldest first.
      this.#entries.delete(key)
      this.#entries.set(key, entry)
      return entry.count
    }
    const fresh = { matches: matcher(filters, this.compare, this.searched), count: count() }
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string)
    this.#entries.set(key, fresh)
    return fresh.count
  }

  /** The kept count for `filters`, without counting. */
  peek (filters: Filter[]): number | undefined {
    return this.#entries.get(filterSetKey(filters))?.count
  }

  /** A committed write: `before` undefined for a create, `after` undefined for a delete. */
  apply (before: ResourceRecord | undefined, after: ResourceRecord | undefined): void {
    for (const entry of this.#entries.values()) {
      if (before !== undefined && entry.matches(before)) entry.count--
      if (after !== undefined && entry.matches(after)) entry.count++
    }
  }

  clear (): void {
    this.#entries.clear()
  }
}

function matcher (filters: Filter[], compare: (field: string) => Comparator, searched: readonly string[]): Matcher {
  const tests = filters.map(filter => filter.op === 'search'
    ? (record: ResourceRecord) => matchesWords(recordWords(searched, record), filter.value as string[])
    : test(filter, compare(filter.field)))
  return record => tests.every(t => t(record))
}

/**
 * SQL semantics: a comparison with a record that has no value (NULL) is never true, except
 * `ne`, which the store writes `IS NOT` (a record without a value differs from any value).
 */
function test ({ field, op, value }: Filter, compare: Comparator): Matcher {
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
