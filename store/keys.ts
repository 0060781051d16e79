import type { DatabasePort } from './database.ts'
import { sql } from './sql.ts'
import type { SigningKeyStore, StoredSigningKey } from './storage.ts'

/** The keys that sign access tokens (migrations/{sqlite,postgres}/040_signing_keys.sql), shared by every instance. */
export class SqlSigningKeyStore implements SigningKeyStore {
  readonly db: DatabasePort

  constructor (db: DatabasePort) {
    this.db = db
  }

  async all (): Promise<StoredSigningKey[]> {
    return this.db.rows<StoredSigningKey>(sql`SELECT kid, jwk, created_at FROM signing_keys ORDER BY created_at DESC, kid`)
  }

  async add (key: StoredSigningKey): Promise<void> {
    await this.db.run(sql`INSERT INTO signing_keys (kid, jwk, created_at) VALUES (${key.kid}, ${key.jwk}, ${key.created_at})
      ON CONFLICT (kid) DO NOTHING`)
  }

  async retire (before: Date): Promise<number> {
    return this.db.run(sql`DELETE FROM signing_keys WHERE EXISTS (SELECT 1 FROM signing_keys AS newer
      WHERE newer.created_at > signing_keys.created_at AND newer.created_at < ${before.toISOString()})`)
  }
}
