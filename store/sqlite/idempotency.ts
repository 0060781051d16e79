import { KEY_COLUMNS, outcomeOf, type KeyRow } from '../idempotency-rows.ts'
import { KEY_LIFETIME_MS, type Claim, type IdempotencyStore, type StoredAnswer } from '../storage.ts'
import type { SqliteDatabase } from './database.ts'

/** Idempotency keys in SQLite (migrations/sqlite/020_idempotency_keys.sql). */
export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly db: SqliteDatabase

  constructor (db: SqliteDatabase) {
    this.db = db
  }

  async claim (owner: string, key: string, fingerprint: string): Promise<Claim> {
    return this.db.transaction((): Claim => {
      const now = Date.now()
      this.db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(new Date(now - KEY_LIFETIME_MS).toISOString())
      const row = this.db.prepare(`SELECT ${KEY_COLUMNS} FROM idempotency_keys WHERE owner = ? AND key = ?`)
        .get(owner, key) as KeyRow | undefined
      const outcome = outcomeOf(row, fingerprint, now)
      if (outcome === 'free') {
        this.db.prepare(`INSERT OR REPLACE INTO idempotency_keys (owner, key, fingerprint, state, created_at)
          VALUES (?, ?, ?, 'in_flight', ?)`).run(owner, key, fingerprint, new Date(now).toISOString())
        return { outcome: 'claimed' }
      }
      return outcome
    })()
  }

  async complete (owner: string, key: string, answer: StoredAnswer): Promise<void> {
    this.db.prepare('UPDATE idempotency_keys SET state = \'done\', status = ?, headers = ?, body = ? WHERE owner = ? AND key = ?')
      .run(answer.status, JSON.stringify(answer.headers), answer.body, owner, key)
  }

  /** A request that failed on the server's side leaves its key free for the retry. */
  async release (owner: string, key: string): Promise<void> {
    this.db.prepare('DELETE FROM idempotency_keys WHERE owner = ? AND key = ?').run(owner, key)
  }
}
