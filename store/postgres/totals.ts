import { filterSetKey, type Alongside, type Filter } from '../contract.ts'
import { prepared, type Queryable } from './database.ts'

/** The sum of a collection's change counters, as text (a bigint may exceed what a JavaScript number keeps exact). */
const CHANGES = 'coalesce(sum(changes), 0)::text'

/**
 * The sum of the change counters of each of `collections`, in one read: what a list's ETag is
 * made of (collections/revalidation.ts), and what a kept total is checked against. `alongside`
 * is answered in the same round trip.
 */
export async function changesOf (db: Queryable, collections: readonly string[], alongside?: Alongside): Promise<string[]> {
  const asked = alongside?.settled === false ? alongside : undefined
  const also = asked?.columns(2)
  const { rows } = await db.query<unknown[]>({
    ...prepared(`SELECT ARRAY(SELECT (SELECT ${CHANGES} FROM collection_changes WHERE collection = name) ` +
      `FROM unnest($1::text[]) WITH ORDINALITY AS asked (name, position) ORDER BY position)${also === undefined ? '' : `, ${also.sql}`}`,
    [[...collections], ...also?.params ?? []]),
    rowMode: 'array'
  })
  const [stamps, ...answer] = rows[0] as [string[], ...unknown[]]
  asked?.answer(answer)
  return stamps
}

interface Entry {
  /** The collection's change counters, summed, when the total was counted. */
  changes: string
  total: number
}

/**
 * Matching-record counts (`X-Total-Count`) of one collection, kept between reads when no write
 * has committed since they were counted, by this instance or any other.
 *
 * Counting costs as much as the rows it counts (14 ms for 100,000 rows), so a total counted on
 * every read grows with the table. Every statement that writes the table raises a counter of
 * `collection_changes` in its own transaction (a trigger, migrations/postgres/050_*.sql), and the
 * counters only grow. A total is counted in the same statement, so the same snapshot, as the sum
 * of those counters, and kept with it. A later read asks for the sum (one primary-key range
 * read); the same sum means no write has committed since, so the kept total is still exact.
 * Unlike SQLite's totals, nothing is adjusted in place: another instance's write is known only
 * through the counters.
 *
 * Bounded: the least recently read set of filters is forgotten first.
 */
export class PostgresTotals {
  readonly #entries = new Map<string, Entry>()
  readonly #changes: string

  readonly collection: string
  readonly capacity: number

  constructor (collection: string, capacity = 256) {
    this.collection = collection
    this.capacity = capacity
    this.#changes = `SELECT ${CHANGES} AS changes FROM collection_changes WHERE collection = $1`
  }

  /**
   * The total of `filters`, where `count` is the SQL of the count and its parameters; `known`,
   * the collection's sum of counters when the caller has just read it (changesOf), spares reading it again.
   */
  async get (db: Queryable, filters: Filter[], count: { sql: string, params: unknown[] }, known?: string): Promise<number> {
    const key = filterSetKey(filters)
    const kept = this.#entries.get(key)
    if (kept !== undefined) {
      const now = known ?? (await db.query<{ changes: string }>(prepared(this.#changes, [this.collection]))).rows[0]?.changes
      if (now === kept.changes) {
        // Map order is insertion order: moving the entry to the end keeps the oldest first.
        this.#entries.delete(key)
        this.#entries.set(key, kept)
        return kept.total
      }
    }
    // Not a named statement, as the count itself never was: its text varies with the filters.
    const changes = this.#changes.replace('$1', `$${count.params.length + 1}`)
    const { rows } = await db.query<Entry>(`SELECT (${changes}) AS changes, (${count.sql}) AS total`, [...count.params, this.collection])
    const fresh = rows[0] as Entry
    this.#entries.delete(key)
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string)
    this.#entries.set(key, fresh)
    return fresh.total
  }
}
