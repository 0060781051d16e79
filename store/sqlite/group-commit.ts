import { AsyncResource } from 'node:async_hooks'
import type Database from 'better-sqlite3'
import { groupCommits, heard, sqliteStatement, writeContexts } from '../observed.ts'

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
 * Milliseconds a group takes more writes for; the rest wait for the next group. A group holds the
 * process, so however many large writes arrive together, it is held at most this long beyond one.
 */
export const MAX_GROUP_MS = 50

/**
 * Group commit: the writes that arrive in one turn of the event loop share one transaction and its
 * one fsync, each in its own savepoint, and each is answered only once the COMMIT has returned
 * (docs/architecture.md, "Group commit").
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
      // With traces on, a write runs in the context of the request that sent it, its statements
      // children of that request's span rather than of the one whose write scheduled the group.
      const bound = heard.statements > 0 && writeContexts.hasSubscribers ? AsyncResource.bind(write) : write
      this.#pending.push({ write: bound, resolve: resolve as (value: unknown) => void, reject })
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
          // SQLITE_FULL or an I/O error rolls the whole transaction back: the group fails as a whole.
          if (!this.db.inTransaction) throw error
          this.#undo.run()
          this.#release.run()
          outcomes.push({ ok: false, error })
        }
      }
      sqliteStatement('COMMIT', () => this.#commit.run())
    } catch (error) {
      if (this.db.inTransaction) this.#rollback.run()
      for (const { reject } of group) reject(error)
      return group.length
    }
    this.commits++
    if (groupCommits.hasSubscribers) groupCommits.publish({ writes: taken })
    group.slice(0, taken).forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i] as typeof outcomes[number]
      if (!outcome.ok) return reject(outcome.error)
      for (const effect of outcome.effects) effect()
      resolve(outcome.value)
    })
    return taken
  }
}
