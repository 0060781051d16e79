import { changesOf, rowOf, type DatabasePort, type Work } from './database.ts'
import { raw, sql, type Sql } from './sql.ts'
import { ABANDONED_KEY_MS, KEY_LIFETIME_MS, type Claim, type IdempotencyStore, type StoredAnswer } from './storage.ts'

/** An idempotency key as the table holds it. */
interface KeyRow {
  fingerprint: string
  state: 'in_flight' | 'done'
  status: number | null
  headers: string | null
  body: string | null
  created_at: string
}

const KEY = raw('fingerprint, state, status, headers, body, created_at')

/**
 * What the row found for a key means for a request that brings it: `free` when there is none, or
 * only one abandoned by a request that never finished (the caller then claims it), else the
 * claim's outcome.
 */
function outcomeOf (row: KeyRow | undefined, fingerprint: string, now: number): Claim | 'free' {
  if (row === undefined || (row.state === 'in_flight' && Date.parse(row.created_at) < now - ABANDONED_KEY_MS)) return 'free'
  if (row.state === 'in_flight') return { outcome: 'in_flight' }
  if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' }
  return { outcome: 'replay', answer: { status: row.status as number, headers: JSON.parse(row.headers ?? '{}'), body: row.body ?? '' } }
}

/**
 * Idempotency keys (migrations/{sqlite,postgres}/020_idempotency_keys.sql), shared by every
 * instance that shares the database: a retry sent to another instance than the first request
 * finds the same key. The claim inserts the key, or locks the row it finds (`forUpdate`), so two
 * requests with one key never both claim it.
 */
export class SqlIdempotencyStore implements IdempotencyStore {
  readonly db: DatabasePort

  constructor (db: DatabasePort) {
    this.db = db
  }

  async claim (owner: string, key: string, fingerprint: string): Promise<Claim> {
    const now = Date.now()
    await this.db.run(sql`DELETE FROM idempotency_keys WHERE created_at < ${new Date(now - KEY_LIFETIME_MS).toISOString()}`)
    return this.db.transaction(claiming(owner, key, fingerprint, now, this.db.forUpdate))
  }

  async complete (owner: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db.run(sql`UPDATE idempotency_keys SET state = 'done', status = ${answer.status},
      headers = ${JSON.stringify(answer.headers)}, body = ${answer.body} WHERE owner = ${owner} AND key = ${key}`)
  }

  async release (owner: string, key: string): Promise<void> {
    await this.db.run(sql`DELETE FROM idempotency_keys WHERE owner = ${owner} AND key = ${key}`)
  }
}

function * claiming (owner: string, key: string, fingerprint: string, now: number, forUpdate: Sql): Work<Claim> {
  const createdAt = new Date(now).toISOString()
  const inserted = yield * changesOf(sql`INSERT INTO idempotency_keys (owner, key, fingerprint, state, created_at)
    VALUES (${owner}, ${key}, ${fingerprint}, 'in_flight', ${createdAt}) ON CONFLICT (owner, key) DO NOTHING`)
  if (inserted !== 0) return { outcome: 'claimed' }
  const found = yield * rowOf<KeyRow>(sql`SELECT ${KEY} FROM idempotency_keys WHERE owner = ${owner} AND key = ${key}${forUpdate}`)
  const outcome = outcomeOf(found, fingerprint, now)
  if (outcome !== 'free') return outcome
  // Gone since the insert was refused (released), or abandoned by a request that never finished.
  yield * changesOf(sql`INSERT INTO idempotency_keys (owner, key, fingerprint, state, created_at)
    VALUES (${owner}, ${key}, ${fingerprint}, 'in_flight', ${createdAt})
    ON CONFLICT (owner, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_flight', status = NULL, headers = NULL,
    body = NULL, created_at = excluded.created_at`)
  return { outcome: 'claimed' }
}
