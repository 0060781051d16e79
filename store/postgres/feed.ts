import pg from 'pg'
import type { FeedEvent } from '../contract.ts'
import type { DatabasePort } from '../database.ts'
import { SqlChangeLog, type FeedRow } from '../feed.ts'
import { raw } from '../sql.ts'

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
export class PostgresChangeLog extends SqlChangeLog {
  constructor (port: DatabasePort) {
    super(port, raw(` AND ${FINAL}`), raw(`SELECT greatest((SELECT max(position) FROM changes WHERE ${FINAL}), ` +
      '(SELECT max(position) FROM changes_pruned), 0)::text AS head'))
  }

  /** The statement that records `rows`, ranked from 1, values written in, to run with the COMMIT; undefined for none. */
  recording (rows: readonly FeedRow[], at: string): string | undefined {
    if (rows.length === 0) return undefined
    return `${RECORD}rank, change ->> 0, (change ->> 1)::bigint, change ->> 2, change ->> 3, ` +
      `${escapeLiteral(at)} FROM json_array_elements(${escapeLiteral(JSON.stringify(rows))}::json) ` +
      'WITH ORDINALITY AS changes (change, rank)'
  }

  /** The part of a one-statement write that records the change of the record its `written` returns, rank 1. */
  recordingWritten (collection: string, event: FeedEvent, record: string, at: string): string {
    return `${RECORD}1, ${escapeLiteral(collection)}, id, '${event}', ${record}, ${at} FROM written`
  }
}
