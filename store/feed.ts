import { randomBytes } from 'node:crypto'
import type { ResourceRecord } from '../model/resource.ts'
import type { ChangeEntry, ChangeLog, FeedEvent } from './contract.ts'
import { changesOf, rowsOf, type DatabasePort } from './database.ts'
import type { Change } from './sequence.ts'
import { counted, raw, sql, type Sql } from './sql.ts'

/** A change as the feed's statement binds it: collection, record id, event, the record as JSON (null once deleted). */
export type FeedRow = [string, number, FeedEvent, string | null]

/** The feed rows of changes, in the order they were made. */
export function feedRows (changes: readonly Change[]): FeedRow[] {
  return changes.map(({ collection, before, after }) => {
    const record = after ?? before as ResourceRecord
    const event: FeedEvent = before === undefined ? 'created' : after === undefined ? 'deleted' : 'updated'
    return [collection, record.id as number, event, after === undefined ? null : JSON.stringify(after)]
  })
}

/** Of the position remembered and the one being pruned, the larger: another instance may have pruned further meanwhile. */
const LARGER = raw('CASE WHEN excluded.position > changes_pruned.position THEN excluded.position ELSE changes_pruned.position END')

interface Row { feed_position: string, collection: string, record_id: number, event: FeedEvent, record: string | null, at: string }

/** How far back the change of a record before another is looked for (`previous`): beyond, it is not known. */
export const PREVIOUS_WITHIN = 10_000

/** A position as text on both engines (PostgreSQL's may pass 2^53), named apart from the column so that it sorts as a number. */
const COLUMNS = raw('CAST(position AS TEXT) AS feed_position, collection, record_id, event, record, at')

function entryOf ({ feed_position: position, collection, record_id: id, event, record, at }: Row): ChangeEntry {
  return { position, collection, id, event, record: record === null ? null : JSON.parse(record), at }
}

/**
 * The change feed's reading and pruning (migrations/<engine>/090_changes.sql), written once over
 * the database port; each engine records the changes in its writes' transactions its own way
 * (store/sqlite/feed.ts, store/postgres/feed.ts) and says which positions are final and which is
 * the last.
 */
export class SqlChangeLog implements ChangeLog {
  readonly #listeners = new Set<() => void>()
  readonly #port: DatabasePort
  /** A condition (after AND) that keeps only final positions, or nothing where every committed one is. */
  readonly #final: Sql
  /** A statement whose `head` is the last final position, as text. */
  readonly #head: Sql

  constructor (port: DatabasePort, final: Sql, head: Sql) {
    this.#port = port
    this.#final = final
    this.#head = head
  }

  /** Tells the listeners of this process that a transaction with changes has committed. */
  committed (): void {
    for (const listener of this.#listeners) listener()
  }

  onCommit (listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => { this.#listeners.delete(listener) }
  }

  async positionKey (): Promise<string> {
    // Instances starting together each offer a key; the first kept is the one they all read.
    await this.#port.run(sql`INSERT INTO feed_key (id, key) VALUES (1, ${randomBytes(32).toString('base64')}) ON CONFLICT (id) DO NOTHING`)
    return (await this.#port.row<{ key: string }>(sql`SELECT key FROM feed_key WHERE id = 1`) as { key: string }).key
  }

  async after (position: string, collection: string | undefined, limit: number): Promise<ChangeEntry[]> {
    const of = collection === undefined ? raw('') : sql`collection = ${collection} AND `
    const rows = await this.#port.rows<Row>(
      sql`SELECT ${COLUMNS} FROM changes WHERE ${of}position > ${position}${this.#final} ORDER BY position LIMIT ${counted(limit)}`)
    return rows.map(entryOf)
  }

  async previous ({ collection, id, position }: ChangeEntry): Promise<ChangeEntry | undefined> {
    // Among the collection's last PREVIOUS_WITHIN changes before it, by the index every read of
    // the feed walks: an index by record would cost every write of every collection, for what only
    // the feeds of tokens bound by access rules ask (docs/access-rules.md).
    const recent = sql`SELECT position, record_id FROM changes WHERE collection = ${collection} AND position < ${position}
      ORDER BY position DESC LIMIT ${counted(PREVIOUS_WITHIN)}`
    const row = await this.#port.row<Row>(sql`SELECT ${COLUMNS} FROM changes WHERE position =
      (SELECT max(position) FROM (${recent}) AS recent WHERE record_id = ${id})`)
    return row === undefined ? undefined : entryOf(row)
  }

  async head (): Promise<string> {
    return (await this.#port.row<{ head: string }>(this.#head) as { head: string }).head
  }

  async pruned (collection: string): Promise<string> {
    const pruned = sql`SELECT CAST(coalesce((SELECT position FROM changes_pruned WHERE collection = ${collection}), 0) AS TEXT) AS position`
    return (await this.#port.row<{ position: string }>(pruned) as { position: string }).position
  }

  /** Instances pruning at once agree: each remembers the larger position and deletes what is there. */
  async prune (before: string): Promise<number> {
    return this.#port.transaction(function * () {
      const last = yield * rowsOf<{ collection: string, position: string }>(
        sql`SELECT collection, CAST(max(position) AS TEXT) AS position FROM changes WHERE at < ${before} GROUP BY collection`)
      let pruned = 0
      for (const { collection, position } of last) {
        yield * changesOf(sql`INSERT INTO changes_pruned (collection, position) VALUES (${collection}, ${position})
          ON CONFLICT (collection) DO UPDATE SET position = ${LARGER}`)
        pruned += yield * changesOf(sql`DELETE FROM changes WHERE collection = ${collection} AND position <= ${position}`)
      }
      return pruned
    }())
  }
}
