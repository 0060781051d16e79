import type Database from 'better-sqlite3'

/** Registers work to run once the write's transaction has committed (never if it is undone). */
export type OnCommit = (effect: () => void) => void

/** A write: synchronous SQL against the open transaction; it throws to be undone. */
export type Write<T> = (onCommit: OnCommit) => T

interface Pending {
  write: Write<unknown>
  resolve: (value: unknown) => void
  reject: (reason: unknown) => void
}

/** Writes a single transaction holds at most: a longer one would keep readers waiting. */
const MAX_GROUP = 500
/**
 * Milliseconds a group takes more writes for: past them, the writes left wait for the next group.
 * A group runs synchronously, so nothing else of the process runs meanwhile; between two groups
 * the event loop turns and answers the requests received. However many large writes arrive
 * together (a change of many records, a batch: WRITE_MAX_RECORDS bounds each), the process is
 * held at most this long beyond one of them. Groups of small writes end far sooner (500 inserts
 * take about 20 ms), so this costs them nothing.
 */
export const MAX_GROUP_MS = 50

/**
 * Group commit. With `synchronous=FULL` every COMMIT waits for an fsync (about 0.2 ms here, most
 * of a small write's cost), so the writes that arrive while one is being prepared share the next
 * transaction and its single fsync:
 *
 * - `submit()` queues a write and schedules a flush after the current turn of the event loop
 *   (`setImmediate`), so every request read in that turn joins the same group, up to MAX_GROUP
 *   writes and MAX_GROUP_MS.
 * - The flush runs the group in one `BEGIN IMMEDIATE` ... `COMMIT`, each write in its own
 *   savepoint: a write that throws is rolled back to its savepoint and refused alone, the others
 *   go on.
 * - Every promise settles only after the COMMIT returned: a write is answered when it is durable,
 *   never before. If the transaction itself fails, every write of the group is refused.
 *
 * The whole group runs synchronously (better-sqlite3 is synchronous), so no read on this
 * connection ever sees a transaction half done.
 */
export class GroupCommit {
  readonly #pending: Pending[] = []
  #scheduled = false
  /** Transactions committed so far: one per group. */
  commits = 0
  readonly #begin: Database.Statement
  readonly #commit: Database.Statement
  readonly #rollback: Database.Statement
  readonly #savepoint: Database.Statement
  readonly #release: Database.Statement
  readonly #undo: Database.Statement

  readonly db: Database.Database

  constructor (db: Database.Database) {
    this.db = db
    this.#begin = db.prepare('BEGIN IMMEDIATE')
    this.#commit = db.prepare('COMMIT')
    this.#rollback = db.prepare('ROLLBACK')
    this.#savepoint = db.prepare('SAVEPOINT write')
    this.#release = db.prepare('RELEASE write')
    this.#undo = db.prepare('ROLLBACK TO write')
  }

  submit<T> (write: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ write, resolve: resolve as (value: unknown) => void, reject })
      this.#schedule()
    })
  }

  #schedule (): void {
    if (this.#scheduled) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      const group = this.#pending.splice(0, MAX_GROUP)
      const taken = this.#flush(group)
      this.#pending.unshift(...group.slice(taken))
      if (this.#pending.length > 0) this.#schedule()
    })
  }

  /** Runs the first writes of `group` in one transaction, until MAX_GROUP_MS have passed: how many it took. */
  #flush (group: Pending[]): number {
    const outcomes: ({ ok: true, value: unknown, effects: (() => void)[] } | { ok: false, error: unknown })[] = []
    const started = performance.now()
    let taken = 0
    try {
      this.#begin.run()
      for (const { write } of group) {
        if (taken > 0 && performance.now() - started >= MAX_GROUP_MS) break
        taken++
        const effects: (() => void)[] = []
        this.#savepoint.run()
        try {
          const value = write(effect => { effects.push(effect) })
          this.#release.run()
          outcomes.push({ ok: true, value, effects })
        } catch (error) {
          // Some errors (SQLITE_FULL, an I/O error) make SQLite roll the whole transaction back:
          // then the writes before this one are undone too, and the group fails as a whole.
          if (!this.db.inTransaction) throw error
          this.#undo.run()
          this.#release.run()
          outcomes.push({ ok: false, error })
        }
      }
      this.#commit.run()
    } catch (error) {
      if (this.db.inTransaction) this.#rollback.run()
      for (const { reject } of group) reject(error)
      return group.length
    }
    this.commits++
    group.slice(0, taken).forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i] as typeof outcomes[number]
      if (!outcome.ok) return reject(outcome.error)
      for (const effect of outcome.effects) effect()
      resolve(outcome.value)
    })
    return taken
  }
}
