import type { ChangeEntry, ChangeLog, FeedEvent } from '../contract.ts'
import type { FeedRow } from '../collections.ts'
import pg from 'pg'
import { prepared, transaction, type Pool } from './database.ts'

const COLUMNS = 'position::text, collection, record_id, event, record, at'
/** The insert of changes, up to the rank of each in its transaction: a position is the transaction's id and that rank. */
const RECORD = 'INSERT INTO changes (position, collection, record_id, event, record, at) ' +
  'SELECT pg_current_xact_id()::text::bigint * 1000000 + '
const { escapeLiteral } = pg

/**
 * Below it, every position is final: the transactions older than the snapshot's xmin have all
 * committed or been undone, so none of them can still add a change (migrations/postgres/090_changes.sql).
 */
const FINAL = 'position < pg_snapshot_xmin(pg_current_snapshot())::text::bigint * 1000000'

/**
 * The change feed in PostgreSQL, where the transactions of several instances commit side by side:
 * a change's position is its transaction's id and its rank in it, and a reader reads only final
 * positions, so that a change that commits late can never land before a position already read.
 */
export class PostgresChangeLog implements ChangeLog {
  readonly #listeners = new Set<() => void>()
  readonly #pool: Pool

  constructor (pool: Pool) {
    this.#pool = pool
  }

  /**
   * The statement that records `rows` in a transaction that writes no other changes (their ranks
   * run from 1 in one statement, so one transaction's positions never meet), with its values
   * written in: it runs in the same round trip as the commit (store/postgres/database.ts).
   * Undefined when there is nothing to record.
   */
  recording (rows: readonly FeedRow[], at: string): string | undefined {
    if (rows.length === 0) return undefined
    return `${RECORD}rank, change ->> 0, (change ->> 1)::bigint, change ->> 2, change ->> 3, ` +
      `${escapeLiteral(at)} FROM json_array_elements(${escapeLiteral(JSON.stringify(rows))}::json) ` +
      'WITH ORDINALITY AS changes (change, rank)'
  }

  /**
   * The statement that records the change of the one record a write of the same statement
   * returns (its `WITH` query `written`, with the record's `id`): `record` is the expression of the
   * record's JSON (NULL once deleted), `at` the placeholder of the time. For a write that is one
   * statement, its own transaction: its change is the only one there, rank 1.
   */
  recordingWritten (collection: string, event: FeedEvent, record: string, at: string): string {
    return `${RECORD}1, ${escapeLiteral(collection)}, id, '${event}', ${record}, ${at} FROM written`
  }

  /** Tells the listeners of this instance that a transaction with changes has committed. */
  committed (): void {
    for (const listener of this.#listeners) listener()
  }

  async after (position: string, collection: string | undefined, limit: number): Promise<ChangeEntry[]> {
    const { rows } = collection === undefined
      ? await this.#pool.query<Row>(prepared(`SELECT ${COLUMNS} FROM changes WHERE position > $1 AND ${FINAL} ` +
        'ORDER BY position LIMIT $2', [position, limit]))
      : await this.#pool.query<Row>(prepared(`SELECT ${COLUMNS} FROM changes WHERE collection = $3 AND position > $1 AND ${FINAL} ` +
        'ORDER BY position LIMIT $2', [position, limit, collection]))
    return rows.map(row => ({
      position: row.position,
      collection: row.collection,
      id: Number(row.record_id),
      event: row.event,
      record: row.record === null ? null : JSON.parse(row.record),
      at: row.at
    }))
  }

  async head (): Promise<string> {
    const { rows } = await this.#pool.query<{ head: string }>(prepared(
      `SELECT greatest((SELECT max(position) FROM changes WHERE ${FINAL}), (SELECT max(position) FROM changes_pruned), 0)::text ` +
      'AS head', []))
    return (rows[0] as { head: string }).head
  }

  async pruned (collection: string): Promise<string> {
    const { rows } = await this.#pool.query<{ position: string }>(prepared(
      'SELECT coalesce((SELECT position FROM changes_pruned WHERE collection = $1), 0)::text AS position', [collection]))
    return (rows[0] as { position: string }).position
  }

  /** Instances pruning at once agree: each remembers the larger position and deletes what is there. */
  async prune (before: string): Promise<number> {
    return transaction(this.#pool, async client => {
      const { rows } = await client.query<{ collection: string, position: string }>(prepared(
        'SELECT collection, max(position)::text AS position FROM changes WHERE at < $1 GROUP BY collection', [before]))
      let pruned = 0
      for (const { collection, position } of rows) {
        await client.query(prepared('INSERT INTO changes_pruned (collection, position) VALUES ($1, $2) ' +
          'ON CONFLICT (collection) DO UPDATE SET position = greatest(changes_pruned.position, excluded.position)', [collection, position]))
        pruned += (await client.query(prepared('DELETE FROM changes WHERE collection = $1 AND position <= $2', [collection, position])))
          .rowCount ?? 0
      }
      return pruned
    })
  }

  onCommit (listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => { this.#listeners.delete(listener) }
  }
}

interface Row {
  position: string
  collection: string
  record_id: string
  event: FeedEvent
  record: string | null
  at: string
}
