import type { SqliteDatabase } from './sqlite.js'

export interface StoredAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** What a keyed request finds: the key is now its own, or taken by a request in flight, by another request, or answered. */
export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'in_flight' }
  | { outcome: 'mismatch' }
  | { outcome: 'replay', answer: StoredAnswer }

interface Row {
  fingerprint: string
  state: 'in_flight' | 'done'
  status: number | null
  headers: string | null
  body: string | null
  created_at: string
}

/** Keys live this long. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000
/** A key in flight for longer belongs to a request that never finished (a crash): it is free again. */
const ABANDONED_MS = 5 * 60 * 1000

export class IdempotencyStore {
  constructor (readonly db: SqliteDatabase) {}

  claim (owner: string, key: string, fingerprint: string): Claim {
    return this.db.transaction((): Claim => {
      const now = Date.now()
      this.db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(new Date(now - KEY_LIFETIME_MS).toISOString())
      const row = this.db.prepare(
        'SELECT fingerprint, state, status, headers, body, created_at FROM idempotency_keys WHERE owner = ? AND key = ?'
      ).get(owner, key) as Row | undefined
      const abandoned = row?.state === 'in_flight' && Date.parse(row.created_at) < now - ABANDONED_MS
      if (row === undefined || abandoned) {
        this.db.prepare(`INSERT OR REPLACE INTO idempotency_keys (owner, key, fingerprint, state, created_at)
          VALUES (?, ?, ?, 'in_flight', ?)`).run(owner, key, fingerprint, new Date(now).toISOString())
        return { outcome: 'claimed' }
      }
      if (row.state === 'in_flight') return { outcome: 'in_flight' }
      if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' }
      return { outcome: 'replay', answer: { status: row.status as number, headers: JSON.parse(row.headers ?? '{}'), body: row.body ?? '' } }
    })()
  }

  complete (owner: string, key: string, answer: StoredAnswer): void {
    this.db.prepare('UPDATE idempotency_keys SET state = \'done\', status = ?, headers = ?, body = ? WHERE owner = ? AND key = ?')
      .run(answer.status, JSON.stringify(answer.headers), answer.body, owner, key)
  }

  /** A request that failed on the server's side leaves its key free for the retry. */
  release (owner: string, key: string): void {
    this.db.prepare('DELETE FROM idempotency_keys WHERE owner = ? AND key = ?').run(owner, key)
  }
}
