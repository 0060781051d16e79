import type { ResourceRecord } from '../../model/resource.ts'
import type { Alongside, FeedEvent } from '../contract.ts'
import type { CollectionSql } from '../collection-sql.ts'
import { list, numbered, raw, sql, type Sql, type Statement } from '../sql.ts'
import { quote } from '../text.ts'
import { POSTGRES } from './dialect.ts'
import type { PostgresChangeLog } from './feed.ts'

/** A question asked alongside a write (the token's standing), with the answer it had when last accepted. */
export interface Standing { question: Alongside, accepted: readonly unknown[] }

/**
 * The condition that `standing` is answered exactly as accepted, which otherwise fails the
 * statement with STANDING_CHANGED (migrations/postgres/110_standing_changed.sql): a write of no
 * rows would still fire the collection's change-counter trigger.
 */
function stillAccepted ({ question, accepted }: Standing): Sql {
  const same = sql`ROW(${numbered(first => question.columns(first))}) IS NOT DISTINCT FROM ROW(${list(accepted)})`
  return sql`CASE WHEN ${same} THEN true ELSE standing_changed() END`
}

/**
 * The rows of the statement's `WITH` query `written` (`columns` of them), or, where it wrote none,
 * the failure NOTHING_WRITTEN (migrations/postgres/112_nothing_written.sql): a write of no rows
 * would still fire the collection's change-counter trigger. The one row joined to it is there
 * whatever `written` holds, so that the condition is asked even when `written` is empty.
 */
const writtenOrFailed = (columns: string): Sql => raw(`SELECT ${columns} FROM (SELECT 1) AS one LEFT JOIN written ON true ` +
  'WHERE CASE WHEN written.id IS NULL THEN nothing_written() ELSE true END')

/**
 * A write of one record as one statement in its own transaction (autocommit): the record written
 * and its change recorded in the feed by one `WITH` statement, in one round trip, where a
 * transaction of its own takes three or four (BEGIN, a read that locks the record, the write, the
 * feed row with the COMMIT). A create may also ask the token's standing there, going ahead only
 * while it is the one accepted before: an answer equal to an accepted one is accepted.
 *
 * It is correct because it changes only the record that was read: an update or a delete holds
 * `version = <the version read>`, so the checks made on that read (If-Match, the parent of a
 * nested path, the search words made of the fields it does not set) still hold when it writes.
 * Where no such check is asked, an update or a delete need not read the record at all: it writes
 * the record as it is, the standing asked in the statement as a create asks it, and the search
 * words of the fields an update does not set taken as the record keeps them, so that it is one
 * round trip too. What the constraints refuse (a reference that names no record, a unique value
 * taken, a record still named by others), a record changed since it was read and one that is not
 * there fail the statement, leaving nothing written, not even the collection's change counter:
 * the caller then writes in a transaction of its own, whose checks say why, as they always do.
 */
export class OneStatementWrites {
  readonly #table: CollectionSql
  readonly #feed: PostgresChangeLog
  /** The record as the feed keeps it: its columns, by name, in the order of the API's records. */
  readonly #json: string

  constructor (table: CollectionSql, feed: PostgresChangeLog) {
    if (table.search?.apart !== undefined) throw new Error('one-statement writes keep search words in a column of the table only')
    this.#table = table
    this.#feed = feed
    // A row of its own, not json_build_object: that function takes at most 100 arguments, 50 fields.
    const columns = table.columns.map(c => `written.${quote(c.name)} AS ${quote(c.name)}`).join(', ')
    this.#json = `(SELECT row_to_json(record) FROM (SELECT ${columns}) AS record)::text`
  }

  /** Inserts `input`; answers the record's columns and version. */
  created (input: ResourceRecord, now: string): Statement {
    return this.#recorded(this.#table.inserted(input, now).statement, 'created', now)
  }

  /**
   * Inserts `input` on condition that the token's `standing` answers exactly as it did when last
   * accepted; otherwise the statement fails with STANDING_CHANGED and writes nothing
   * (migrations/postgres/110_standing_changed.sql). Answers the record's columns and version.
   */
  createdWhile (input: ResourceRecord, now: string, standing: Standing): Statement {
    return this.#recorded(this.#table.inserted(input, now, stillAccepted(standing)).statement, 'created', now)
  }

  /** Sets `values` of the record that is `current`, while it is at `version`; answers it as written, else fails (NOTHING_WRITTEN). */
  updated (current: ResourceRecord, version: number, values: ResourceRecord, now: string): Statement {
    return this.#recorded(this.#table.updated(current.id as number, values, now, { current, version }).statement, 'updated', now)
  }

  /**
   * Sets `values` of record `id` as it is, unread (a record read before is not needed: no
   * precondition, and search words of the fields not set as the record keeps them), with the
   * token's `standing` when there is one to ask, as `createdWhile` does. Answers the record as
   * written, else fails (NOTHING_WRITTEN): none is live, or its words are not kept yet.
   */
  updatedUnread (id: number, values: ResourceRecord, now: string, standing: Standing | undefined): Statement {
    const condition = standing === undefined ? undefined : stillAccepted(standing)
    return this.#recorded(this.#table.updated(id, values, now, { condition }).statement, 'updated', now)
  }

  /** Deletes record `id` while it is at `version`, leaving its tombstone; answers its id, else fails (NOTHING_WRITTEN). */
  deleted (id: number, version: number, now: string): Statement {
    return this.#deleting(sql`id = ${id} AND version = ${version}`, now)
  }

  /** Deletes record `id` as it is, unread, with the token's `standing` as `updatedUnread`; answers its id, else fails. */
  deletedUnread (id: number, now: string, standing: Standing | undefined): Statement {
    return this.#deleting(standing === undefined ? sql`id = ${id}` : sql`id = ${id} AND ${stillAccepted(standing)}`, now)
  }

  /** `write`, which returns the record it writes, its change recorded in the same statement. */
  #recorded (write: Sql, event: FeedEvent, now: string): Statement {
    return sql`WITH written AS (${write}), recorded AS (${this.#recording(event, this.#json, now)}) ${writtenOrFailed('written.*')}`
      .render(POSTGRES.placeholder)
  }

  /** The delete of the record `where` finds, with its tombstone and its change. */
  #deleting (where: Sql, now: string): Statement {
    const written = sql`DELETE FROM ${this.#table.table} WHERE ${where} RETURNING id`
    const buried = sql`INSERT INTO tombstones (collection, id, deleted_at) SELECT ${this.#table.resource.name}, id, ${now} FROM written`
    const recorded = this.#recording('deleted', 'NULL', now)
    return sql`WITH written AS (${written}), buried AS (${buried}), recorded AS (${recorded}) ${writtenOrFailed('written.id')}`
      .render(POSTGRES.placeholder)
  }

  /** The feed's record of the change of the record `written` returns (`record`, the expression of its JSON), made at `now`. */
  #recording (event: FeedEvent, record: string, now: string): Sql {
    return numbered(first => ({ sql: this.#feed.recordingWritten(this.#table.resource.name, event, record, `$${first}`), params: [now] }))
  }
}
