import type { Alongside, Filter } from '../contract.ts'
import { KeptTotals } from '../kept-totals.ts'
import { raw, sql, type Sql } from '../sql.ts'
import { prepared, type Queryable } from './database.ts'
import { POSTGRES } from './dialect.ts'

/** The sum of a collection's change counters, as text (a bigint may exceed what a JavaScript number keeps exact). */
const CHANGES = raw('coalesce(sum(changes), 0)::text')

/** The sum of the change counters of `collection`. */
const changesOfOne = (collection: string): Sql => sql`SELECT ${CHANGES} AS changes FROM collection_changes WHERE collection = ${collection}`

/** The sums of the change counters of `collections`, in one read (what a list's ETag is made of), `alongside` answered with them. */
export async function changesOf (db: Queryable, collections: readonly string[], alongside?: Alongside): Promise<string[]> {
  const asked = alongside?.settled === false ? alongside : undefined
  const names = sql`unnest(${[...collections]}::text[]) WITH ORDINALITY AS asked (name, position)`
  const stamps = sql`ARRAY(SELECT (SELECT ${CHANGES} FROM collection_changes WHERE collection = name) FROM ${names} ORDER BY position)`
  const also = asked === undefined ? raw('') : sql`, ${asked.columns()}`
  const { sql: text, params } = sql`SELECT ${stamps}${also}`.render(POSTGRES.placeholder)
  const { rows } = await db.query<unknown[]>({ ...prepared(text, params), rowMode: 'array' })
  const [changes, ...answer] = rows[0] as [string[], ...unknown[]]
  asked?.answer(answer)
  return changes
}

interface Entry {
  /** The collection's change counters, summed, when the total was counted. */
  changes: string
  total: number
}

/**
 * The kept totals of one collection in PostgreSQL (store/kept-totals.ts), each kept with the sum of
 * the collection's change counters it was counted with, and exact while that sum is the same
 * (docs/architecture.md, "Writes on PostgreSQL").
 */
export class PostgresTotals {
  readonly #kept: KeptTotals<Entry>

  readonly collection: string

  constructor (collection: string, capacity?: number) {
    this.collection = collection
    this.#kept = new KeptTotals(capacity)
  }

  /** The total of `filters`, counted by `count`; `known`, the sum of counters the caller has just read. */
  async get (db: Queryable, filters: Filter[], count: Sql, known?: string): Promise<number> {
    const kept = this.#kept.read(filters)
    if (kept !== undefined) {
      const changes = changesOfOne(this.collection).render(POSTGRES.placeholder)
      const now = known ?? (await db.query<{ changes: string }>(prepared(changes.sql, changes.params))).rows[0]?.changes
      if (now === kept.changes) return kept.total
    }
    // Not a named statement, as the count itself never was: its text varies with the filters.
    const counted = sql`SELECT (${changesOfOne(this.collection)}) AS changes, (${count}) AS total`
    const { sql: text, params } = counted.render(POSTGRES.placeholder)
    const fresh = (await db.query<Entry>(text, params)).rows[0] as Entry
    this.#kept.keep(filters, fresh)
    return fresh.total
  }
}
