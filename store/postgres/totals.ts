import type { Alongside } from '../contract.ts'
import { raw, sql, type Sql } from '../sql.ts'
import { prepared, type Queryable } from './database.ts'
import { POSTGRES } from './dialect.ts'

/** The sum of a collection's change counters, as text (a bigint may exceed what a JavaScript number keeps exact). */
const CHANGES = raw('coalesce(sum(changes), 0)::text')

/** The sum of the change counters of `collection`. */
export const changesOfOne = (collection: string): Sql =>
  sql`SELECT ${CHANGES} AS changes FROM collection_changes WHERE collection = ${collection}`

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
