import type { ResourceRecord } from '../../model/resource.ts'
import type { Alongside, FeedEvent } from '../contract.ts'
import type { CollectionSql } from '../collection-sql.ts'
import { list, numbered, raw, sql, type Sql, type Statement } from '../sql.ts'
import { quote } from '../text.ts'
import { alongsideColumns } from '../table-collection.ts'
import { POSTGRES } from './dialect.ts'
import type { PostgresChangeLog } from './feed.ts'

/** A question asked alongside a write (the token's standing), with the answer it had when last accepted. */
export interface Standing { question: Alongside, accepted: readonly unknown[] }

/** The condition that `standing` is answered as accepted, else the statement fails (STANDING_CHANGED), firing no trigger. */
function stillAccepted ({ question, accepted }: Standing): Sql {
  const same = sql`ROW(${alongsideColumns(question)}) IS NOT DISTINCT FROM ROW(${list(accepted)})`
  return sql`CASE WHEN ${same} THEN true ELSE standing_changed() END`
}

/** The rows `written` returns, or where it wrote none the failure NOTHING_WRITTEN, which fires no trigger. */
const writtenOrFailed = (columns: string): Sql => raw(`SELECT ${columns} FROM (SELECT 1) AS one LEFT JOIN written ON true ` +
  'WHERE CASE WHEN written.id IS NULL THEN nothing_written() ELSE true END')

/**
 * A write of one record as one `WITH` statement in its own transaction, its change in the feed:
 * one round trip. It changes only the record at the version read (or, with nothing to check, the
 * record as it is); whatever it cannot write fails it, writing nothing (docs/architecture.md,
 * "Writes on PostgreSQL").
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

  /** Inserts `input` while the token's `standing` answers as last accepted, else fails (STANDING_CHANGED). */
  createdWhile (input: ResourceRecord, now: string, standing: Standing): Statement {
    return this.#recorded(this.#table.inserted(input, now, stillAccepted(standing)).statement, 'created', now)
  }

  /** Sets `values` of the record that is `current`, while it is at `version`; answers it as written, else fails (NOTHING_WRITTEN). */
  updated (current: ResourceRecord, version: number, values: ResourceRecord, now: string): Statement {
    return this.#recorded(this.#table.updated(current.id as number, values, now, { current, version }).statement, 'updated', now)
  }

  /** Sets `values` of record `id` as it is, unread, with the token's `standing` as `createdWhile`; else fails (NOTHING_WRITTEN). */
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
