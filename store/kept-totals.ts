import { filterSetKey, type Filter } from './contract.ts'

/**
 * The matching-record counts (`X-Total-Count`) an engine keeps of one collection between reads,
 * one per set of filters (whatever the order its filters came in), so that a read need not count
 * again what was counted before: counting costs as much as the rows it counts, so a total counted
 * on every read grows with the table. Each engine says what it keeps with a count and when a kept
 * count is still exact (store/sqlite/totals.ts adjusts them as writes commit;
 * store/postgres/totals.ts checks them against the change counters).
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
