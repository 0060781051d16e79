import type { SigningKeyStore, StoredSigningKey } from '../storage.ts'
import { prepared, type Pool } from './database.ts'

/** The keys that sign access tokens, in PostgreSQL (migrations/postgres/040_signing_keys.sql), shared by every instance. */
export class PostgresSigningKeyStore implements SigningKeyStore {
  readonly pool: Pool

  constructor (pool: Pool) {
    this.pool = pool
  }

  async all (): Promise<StoredSigningKey[]> {
    const sql = 'SELECT kid, jwk, created_at FROM signing_keys ORDER BY created_at DESC, kid'
    return (await this.pool.query<StoredSigningKey>(prepared(sql, []))).rows
  }

  async add (key: StoredSigningKey): Promise<void> {
    await this.pool.query('INSERT INTO signing_keys (kid, jwk, created_at) VALUES ($1, $2, $3) ON CONFLICT (kid) DO NOTHING',
      [key.kid, key.jwk, key.created_at])
  }

  async retire (before: Date): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM signing_keys AS old WHERE EXISTS (SELECT 1 FROM signing_keys AS newer
      WHERE newer.created_at > old.created_at AND newer.created_at < $1)`, [before.toISOString()])
    return rowCount ?? 0
  }
}
