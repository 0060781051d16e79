import type { ResourceRecord } from '../../collections/resource.ts'
import type { Alongside, FeedEvent } from '../../collections/store.ts'
import type { CollectionCore, Statement } from '../collections.ts'
import { quote } from '../text.ts'
import type { PostgresChangeLog } from './feed.ts'

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
 * What the constraints refuse (a reference that names no record, a unique value taken, a
 * record still named by others) and a record changed since it was read leave nothing written:
 * the caller then writes in a transaction of its own, whose checks say why, as they always do.
 */
export class OneStatementWrites {
  readonly #core: CollectionCore
  readonly #feed: PostgresChangeLog
  /** The record as the feed keeps it: its columns, by name, in the order of the API's records. */
  readonly #json: string
  /** The texts of the create and the delete, the same every time: made once. */
  readonly #create: string
  readonly #delete: string

  constructor (core: CollectionCore, feed: PostgresChangeLog) {
    if (core.search?.apart !== undefined) throw new Error('one-statement writes keep search words in a column of the table only')
    this.#core = core
    this.#feed = feed
    // A row of its own, not json_build_object: that function takes at most 100 arguments, 50 fields.
    const columns = core.columns.map(c => `written.${quote(c.name)} AS ${quote(c.name)}`).join(', ')
    this.#json = `(SELECT row_to_json(record) FROM (SELECT ${columns}) AS record)::text`
    // Every insert has as many parameters as an empty record's.
    this.#create = this.#recording(core.insert, core.inserted({}, '').values.length, 'created')
    this.#delete = `WITH written AS (DELETE FROM ${core.table} WHERE id = $1 AND version = $2 RETURNING id), ` +
      'buried AS (INSERT INTO tombstones (collection, id, deleted_at) SELECT $3, id, $4 FROM written), ' +
      `recorded AS (${feed.recordingWritten(core.resource.name, 'deleted', 'NULL', '$4')}) SELECT id FROM written`
  }

  /** Inserts `input`; answers the record's columns and version. */
  created (input: ResourceRecord, now: string): Statement {
    return { sql: this.#create, params: [...this.#core.inserted(input, now).values, now] }
  }

  /**
   * Inserts `input` on condition that `question` answers exactly as it did when last `accepted`;
   * otherwise the statement fails with STANDING_CHANGED and writes nothing (migrations/postgres/
   * 110_standing_changed.sql). Answers the record's columns and version.
   */
  createdWhile (input: ResourceRecord, now: string, question: Alongside, accepted: readonly unknown[]): Statement {
    const { values } = this.#core.inserted(input, now)
    const asked = question.columns(values.length + 1)
    const first = values.length + asked.params.length + 1
    const same = `ROW(${asked.sql}) IS NOT DISTINCT FROM ROW(${accepted.map((_, i) => `$${first + i}`).join(', ')})`
    const write = this.#core.insertWhere(`CASE WHEN ${same} THEN true ELSE standing_changed() END`)
    return this.#recorded(write, [...values, ...asked.params, ...accepted], 'created', now)
  }

  /** Sets `values` of the record that is `current`, while it is at `version`; answers it as written, or no row. */
  updated (current: ResourceRecord, version: number, values: ResourceRecord, now: string): Statement {
    const { sql, params } = this.#core.updated(current, values, now, version)
    return this.#recorded(sql, params, 'updated', now)
  }

  /** Deletes record `id` while it is at `version`, leaving its tombstone; answers its id, or no row. */
  deleted (id: number, version: number, now: string): Statement {
    return { sql: this.#delete, params: [id, version, this.#core.resource.name, now] }
  }

  /** `write` (of `count` parameters), its change recorded in the same statement, the time its last parameter. */
  #recording (write: string, count: number, event: FeedEvent): string {
    const recording = this.#feed.recordingWritten(this.#core.resource.name, event, this.#json, `$${count + 1}`)
    return `WITH written AS (${write}), recorded AS (${recording}) SELECT * FROM written`
  }

  #recorded (write: string, params: unknown[], event: FeedEvent, now: string): Statement {
    return { sql: this.#recording(write, params.length, event), params: [...params, now] }
  }
}
