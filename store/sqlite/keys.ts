import type { SigningKeyStore, StoredSigningKey } from '../storage.ts'
import type { SqliteDatabase } from './database.ts'

/** The keys that sign access tokens, in SQLite (migrations/sqlite/040_signing_keys.sql). */
export class SqliteSigningKeyStore implements SigningKeyStore {
  readonly db: SqliteDatabase

  constructor (db: SqliteDatabase) {
    this.db = db
  }

  async all (): Promise<StoredSigningKey[]> {
    return this.db.prepare('SELECT kid, jwk, created_at FROM signing_keys ORDER BY created_at DESC, kid').all() as StoredSigningKey[]
  }

  async add (key: StoredSigningKey): Promise<void> {
    this.db.prepare('INSERT OR IGNORE INTO signing_keys (kid, jwk, created_at) VALUES (?, ?, ?)').run(key.kid, key.jwk, key.created_at)
  }

  async retire (before: Date): Promise<number> {
    return this.db.prepare(`DELETE FROM signing_keys WHERE EXISTS (SELECT 1 FROM signing_keys AS newer
      WHERE newer.created_at > signing_keys.created_at AND newer.created_at < ?)`).run(before.toISOString()).changes
  }
}
