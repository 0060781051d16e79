import type { Comparator } from '../model/kinds.ts'
import { matcher } from '../model/filters.ts'
import type { ResourceRecord } from '../model/resource.ts'
import { filterSetKey, type Filter } from './contract.ts'

/**
 * The matching-record counts (`X-Total-Count`) an engine keeps of one collection between reads,
 * one per set of filters (whatever the order its filters came in), so that a read need not count
 * again what was counted before: counting costs as much as the rows it counts, so a total counted
 * on every read grows with the table. Each engine says what it keeps with a count and when a kept
 * count is still exact (SQLite's are AppliedTotals, below; PostgreSQL's StampedTotals, checked
 * against the change counters).
 *
 * Bounded: the least recently read set of filters is forgotten first.
 */
export class KeptTotals<Entry> {
  readonly #entries = new Map<string, Entry>()
  readonly capacity: number

  constructor (capacity = 256) {
    this.capacity = capacity
  }

  /** What is kept for `filters`, which become the most recently read. */
  read (filters: Filter[]): Entry | undefined {
    const key = filterSetKey(filters)
    const entry = this.#entries.get(key)
    if (entry !== undefined) {
      // Map order is insertion order: moving the entry to the end keeps the oldest first.
      this.#entries.delete(key)
      this.#entries.set(key, entry)
    }
    return entry
  }

  /** What is kept for `filters`, as it is: they do not become the most recently read. */
  peek (filters: Filter[]): Entry | undefined {
    return this.#entries.get(filterSetKey(filters))
  }

  /** Keeps `entry` for `filters`, instead of what was kept for them, forgetting the least recently read set when full. */
  keep (filters: Filter[], entry: Entry): void {
    const key = filterSetKey(filters)
    this.#entries.delete(key)
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string)
    this.#entries.set(key, entry)
  }

  /** Everything kept. */
  entries (): Iterable<Entry> {
    return this.#entries.values()
  }

  clear (): void {
    this.#entries.clear()
  }
}

/**
 * Totals kept with the stamp of the collection's writes they were counted at (store/contract.ts's
 * `changes`), and exact while the stamp is the same: for an engine whose every write no process sees
 * (PostgreSQL, whose instances write side by side: docs/architecture.md, "Writes on PostgreSQL").
 */
export class StampedTotals {
  readonly #kept: KeptTotals<{ stamp: string, total: number }>

  constructor (capacity?: number) {
    this.#kept = new KeptTotals(capacity)
  }

  /**
   * The total of `filters`: the one kept while `stamp` (the collection's now, or a read of it) is the
   * one it was counted at, else what `count` counts with the stamp it read, kept.
   */
  async get (filters: Filter[], stamp: string | (() => Promise<string>), count: () => Promise<{ stamp: string, total: number }>):
  Promise<number> {
    const kept = this.#kept.read(filters)
    if (kept !== undefined && kept.stamp === (typeof stamp === 'string' ? stamp : await stamp())) return kept.total
    const fresh = await count()
    this.#kept.keep(filters, fresh)
    return fresh.total
  }
}

/**
 * Totals kept exact by the writes themselves: the record before and after each committed change is
 * tested, in memory, against every kept set of filters, with the SQL condition's semantics
 * (model/filters.ts). For an engine that sees every write committed (SQLite, one process a file);
 * a write it did not see must `clear()` them.
 */
export class AppliedTotals {
  readonly #kept: KeptTotals<{ matches: (record: ResourceRecord) => boolean, count: number }>

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
