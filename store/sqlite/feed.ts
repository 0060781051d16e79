import type Database from 'better-sqlite3'
import { SqlChangeLog, type FeedRow } from '../feed.ts'
import { raw } from '../sql.ts'
import type { SqlitePort } from './database.ts'
import { sqliteStatement } from '../observed.ts'

/**
 * The change feed in SQLite. A position is the row's id: one write transaction runs at a time, so
 * ids grow in commit order, and a change is final once its transaction has committed, which is
 * all another connection can see.
 */
export class SqliteChangeLog extends SqlChangeLog {
  readonly #record: Database.Statement
  readonly #recordOne: Database.Statement

  constructor (port: SqlitePort) {
    // The last position handed out, kept by AUTOINCREMENT even once its change is pruned.
    super(port, raw(''), raw("SELECT CAST(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0) AS TEXT) AS head"))
    // One statement however many changes: the rows come as one JSON array, inserted in its order.
    this.#record = port.db.prepare('INSERT INTO changes (collection, record_id, event, record, at) ' +
      'SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, ? FROM json_each(?)')
    // Nearly every write changes one record: its row bound as it is, without a JSON array around it.
    this.#recordOne = port.db.prepare('INSERT INTO changes (collection, record_id, event, record, at) VALUES (?, ?, ?, ?, ?)')
  }

  /** Records `rows` in the open transaction of their write, at `at`. */
  record (rows: readonly FeedRow[], at: string): void {
    if (rows.length === 0) return
    if (rows.length === 1) {
      const one = this.#recordOne
      sqliteStatement(one.source, () => one.run(...rows[0] as FeedRow, at))
    } else {
      const many = this.#record
      sqliteStatement(many.source, () => many.run(at, JSON.stringify(rows)))
    }
  }
}
