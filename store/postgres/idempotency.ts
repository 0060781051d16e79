import { KEY_COLUMNS, outcomeOf, type KeyRow } from '../idempotency-rows.ts'
import { KEY_LIFETIME_MS, type Claim, type IdempotencyStore, type StoredAnswer } from '../storage.ts'
import { transaction, type Pool } from './database.ts'

/**
 * Idempotency keys in PostgreSQL (migrations/postgres/020_idempotency_keys.sql), shared by every
 * instance: a retry sent to another instance than the first request finds the same key. The
 * claim inserts the key, or locks the row it finds (`FOR UPDATE`), so two requests with one key
 * never both claim it.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly pool: Pool

  constructor (pool: Pool) {
    this.pool = pool
  }

  async claim (owner: string, key: string, fingerprint: string): Promise<Claim> {
    const now = Date.now()
    await this.pool.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now - KEY_LIFETIME_MS).toISOString()])
    return transaction(this.pool, async (client): Promise<Claim> => {
      const claimed = await client.query(`INSERT INTO idempotency_keys (owner, key, fingerprint, state, created_at)
        VALUES ($1, $2, $3, 'in_flight', $4) ON CONFLICT (owner, key) DO NOTHING`, [owner, key, fingerprint, new Date(now).toISOString()])
      if (claimed.rowCount !== 0) return { outcome: 'claimed' }
      const row = (await client.query<KeyRow>(`SELECT ${KEY_COLUMNS}
        FROM idempotency_keys WHERE owner = $1 AND key = $2 FOR UPDATE`, [owner, key])).rows[0]
      const outcome = outcomeOf(row, fingerprint, now)
      if (outcome === 'free') {
        // Gone since the insert was refused (released), or abandoned by a request that never finished.
        await client.query(`INSERT INTO idempotency_keys (owner, key, fingerprint, state, created_at) VALUES ($1, $2, $3, 'in_flight', $4)
          ON CONFLICT (owner, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_flight', status = NULL, headers = NULL,
          body = NULL, created_at = excluded.created_at`, [owner, key, fingerprint, new Date(now).toISOString()])
        return { outcome: 'claimed' }
      }
      return outcome
    })
  }

  async complete (owner: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.pool.query(`UPDATE idempotency_keys SET state = 'done', status = $1, headers = $2, body = $3
      WHERE owner = $4 AND key = $5`,
    [answer.status, JSON.stringify(answer.headers), answer.body, owner, key])
  }

  async release (owner: string, key: string): Promise<void> {
    await this.pool.query('DELETE FROM idempotency_keys WHERE owner = $1 AND key = $2', [owner, key])
  }
}
