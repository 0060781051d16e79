import type { Comparator, Value } from '../../model/kinds.ts'
import type { ResourceRecord } from '../../model/resource.ts'
import { matchesWords, recordWords } from '../../model/search.ts'
import type { Filter } from '../contract.ts'
import { KeptTotals } from '../kept-totals.ts'

/** A record matches a filter: the filter's semantics, evaluated in memory. */
type Matcher = (record: ResourceRecord) => boolean

interface Entry {
  matches: Matcher
  count: number
}

/**
 * The kept totals of one collection in SQLite (store/kept-totals.ts), kept exact by every committed
 * write, whose record before and after each kept filter set is evaluated on, in memory, with the
 * SQL condition's semantics. Another connection's write must `clear()` them.
 */
export class SqliteTotals {
  readonly #kept: KeptTotals<Entry>

  readonly compare: (field: string) => Comparator
  /** The fields `q` searches. */
  readonly searched: readonly string[]

  constructor (compare: (field: string) => Comparator, searched: readonly string[], capacity?: number) {
    this.compare = compare
    this.searched = searched
    this.#kept = new KeptTotals(capacity)
  }

  /** The count for `filters`, as kept, or from `count()` once. */
  get (filters: Filter[], count: () => number): number {
    const kept = this.#kept.read(filters)
    if (kept !== undefined) return kept.count
    const fresh = { matches: matcher(filters, this.compare, this.searched), count: count() }
    this.#kept.keep(filters, fresh)
    return fresh.count
  }

  /** The kept count for `filters`, without counting. */
  peek (filters: Filter[]): number | undefined {
    return this.#kept.peek(filters)?.count
  }

  /** A committed write: `before` undefined for a create, `after` undefined for a delete. */
  apply (before: ResourceRecord | undefined, after: ResourceRecord | undefined): void {
    for (const entry of this.#kept.entries()) {
      if (before !== undefined && entry.matches(before)) entry.count--
      if (after !== undefined && entry.matches(after)) entry.count++
    }
  }

  clear (): void {
    this.#kept.clear()
  }
}

function matcher (filters: Filter[], compare: (field: string) => Comparator, searched: readonly string[]): Matcher {
  const tests = filters.map(filter => filter.op === 'search'
    ? (record: ResourceRecord) => matchesWords(recordWords(searched, record), filter.value as string[])
    : test(filter, compare(filter.field)))
  return record => tests.every(t => t(record))
}

/** SQL semantics: a comparison with NULL is never true, but `ne`, which the store writes `IS NOT`. */
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
