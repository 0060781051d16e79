import type { ResourceRecord } from '../../model/resource.ts'
import type { Alongside, FeedEvent } from '../contract.ts'
import type { CollectionSql } from '../collection-sql.ts'
import { join, list, numbered, raw, sql, type Sql, type Statement } from '../sql.ts'
import { quote } from '../text.ts'
import { POSTGRES } from './dialect.ts'
import type { PostgresChangeLog } from './feed.ts'

/** A question asked alongside a write (the token's standing), with the answer it had when last accepted. */
export interface Standing { question: Alongside, accepted: readonly unknown[] }

/** The condition that `standing` is answered as accepted, else the statement fails (STANDING_CHANGED), firing no trigger. */
export function stillAccepted ({ question, accepted }: Standing): Sql {
  const same = sql`ROW(${question.columns()}) IS NOT DISTINCT FROM ROW(${list(accepted)})`
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

  /** Inserts `input` where `condition` holds (when given); answers the record's columns and version, else fails (NOTHING_WRITTEN). */
  created (input: ResourceRecord, now: string, condition?: Sql): Statement {
    return this.#recorded(this.#table.inserted(input, now, condition).statement, 'created', now)
  }

  /**
   * Sets `values` of record `id` where `condition` holds: of the record as it was read (`current`)
   * while it is at `version`, or, neither given, of the record as it is, unread. Answers it as
   * written, else fails (NOTHING_WRITTEN).
   */
  updated (id: number, values: ResourceRecord, now: string, read: { current?: ResourceRecord, version?: number, condition?: Sql }):
  Statement {
    return this.#recorded(this.#table.updated(id, values, now, read).statement, 'updated', now)
  }

  /** Deletes record `id` where `condition` holds, at `version` when given, leaving its tombstone; answers its id, else fails. */
  deleted (id: number, now: string, { version, condition }: { version?: number, condition?: Sql }): Statement {
    const where = [sql`id = ${id}`]
    if (version !== undefined) where.push(sql`version = ${version}`)
    if (condition !== undefined) where.push(condition)
    return this.#deleting(join(where, ' AND '), now)
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
