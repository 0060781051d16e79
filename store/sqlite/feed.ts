import type Database from 'better-sqlite3'
import type { ChangeEntry, ChangeLog, FeedEvent } from '../contract.ts'
import type { FeedRow } from '../collections.ts'
import type { SqliteDatabase } from './database.ts'

type Row = [number, string, number, FeedEvent, string | null, string]

const COLUMNS = 'position, collection, record_id, event, record, at'

/**
 * The change feed in SQLite (migrations/sqlite/090_changes.sql). A position is the row's id: one
 * write transaction runs at a time, so ids grow in commit order, and a change is final once its
 * transaction has committed, which is all another connection can see.
 */
export class SqliteChangeLog implements ChangeLog {
  readonly #listeners = new Set<() => void>()
  readonly #record: Database.Statement
  readonly #recordOne: Database.Statement
  readonly #after: Database.Statement
  readonly #afterOf: Database.Statement
  readonly #head: Database.Statement
  readonly #pruned: Database.Statement
  readonly #prune: Database.Transaction<(before: string) => number>

  constructor (db: SqliteDatabase) {
    // One statement however many changes: the rows come as one JSON array, inserted in its order.
    this.#record = db.prepare('INSERT INTO changes (collection, record_id, event, record, at) ' +
      'SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, ? FROM json_each(?)')
    // Nearly every write changes one record: its row bound as it is, without a JSON array around it.
    this.#recordOne = db.prepare('INSERT INTO changes (collection, record_id, event, record, at) VALUES (?, ?, ?, ?, ?)')
    this.#after = db.prepare(`SELECT ${COLUMNS} FROM changes WHERE position > ? ORDER BY position LIMIT ?`).raw()
    this.#afterOf = db.prepare(`SELECT ${COLUMNS} FROM changes WHERE collection = ? AND position > ? ORDER BY position LIMIT ?`).raw()
    // The last position handed out, kept by AUTOINCREMENT even once its change is pruned.
    this.#head = db.prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0)").pluck()
    this.#pruned = db.prepare('SELECT coalesce((SELECT position FROM changes_pruned WHERE collection = ?), 0)').pluck()
    const last = db.prepare('SELECT collection, max(position) FROM changes WHERE at < ? GROUP BY collection').raw()
    const remember = db.prepare('INSERT INTO changes_pruned (collection, position) VALUES (?, ?) ' +
      'ON CONFLICT (collection) DO UPDATE SET position = max(position, excluded.position)')
    const forget = db.prepare('DELETE FROM changes WHERE collection = ? AND position <= ?')
    this.#prune = db.transaction((before: string) => {
      let pruned = 0
      for (const [collection, position] of last.all(before) as [string, number][]) {
        remember.run(collection, position)
        pruned += forget.run(collection, position).changes
      }
      return pruned
    })
  }

  /** Records `rows` in the open transaction of their write, at `at`. */
  record (rows: readonly FeedRow[], at: string): void {
    if (rows.length === 0) return
    if (rows.length === 1) this.#recordOne.run(...rows[0] as FeedRow, at)
    else this.#record.run(at, JSON.stringify(rows))
  }

  /** Tells the listeners that a transaction with changes has committed. */
  committed (): void {
    for (const listener of this.#listeners) listener()
  }

  async after (position: string, collection: string | undefined, limit: number): Promise<ChangeEntry[]> {
    const rows = (collection === undefined
      ? this.#after.all(Number(position), limit)
      : this.#afterOf.all(collection, Number(position), limit)) as Row[]
    return rows.map(([at, name, id, event, record, when]) =>
      ({ position: String(at), collection: name, id, event, record: record === null ? null : JSON.parse(record), at: when }))
  }

  async head (): Promise<string> {
    return String(this.#head.get())
  }

  async pruned (collection: string): Promise<string> {
    return String(this.#pruned.get(collection))
  }

  async prune (before: string): Promise<number> {
    return this.#prune(before)
  }

  onCommit (listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => { this.#listeners.delete(listener) }
  }
}
