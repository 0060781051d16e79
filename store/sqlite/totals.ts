import type { Comparator } from '../../model/kinds.ts'
import type { ResourceRecord } from '../../model/resource.ts'
import { matcher } from '../../model/filters.ts'
import type { Filter } from '../contract.ts'
import { KeptTotals } from '../kept-totals.ts'

interface Entry {
  matches: (record: ResourceRecord) => boolean
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
