import { RESOURCES } from '../../schemas/index.js'
import type { Storage } from '../storage.js'
import { SqliteAccountStore } from './accounts.js'
import { SqliteStore } from './collections.js'
import { openDatabase, pendingMigrations } from './database.js'
import { SqliteIdempotencyStore } from './idempotency.js'
import { SqliteJobStore } from './jobs.js'
import { SqliteSigningKeyStore } from './keys.js'

/**
 * The embedded engine: one SQLite file, `DATA_DIR/zoo.db`, in this process. Its reads cost no
 * round trip; every collection write is group-committed (store/sqlite/group-commit.ts).
 */
export function openSqliteStorage (dataDir: string): Storage {
  const db = openDatabase(dataDir)
  return {
    engine: 'sqlite',
    // Another process on the same file (the CLI) only manages clients and users.
    shared: false,
    collections: new SqliteStore(db, RESOURCES),
    accounts: new SqliteAccountStore(db),
    idempotency: new SqliteIdempotencyStore(db),
    jobs: new SqliteJobStore(db),
    signingKeys: new SqliteSigningKeyStore(db),
    pendingMigrations: async () => pendingMigrations(db).map(m => m.name),
    // One process serves a SQLite file.
    exclusively: async work => work(),
    close: async () => {
      if (!db.open) return
      // The write-ahead log moved into the database file: once stopped, the file alone holds everything.
      db.pragma('wal_checkpoint(TRUNCATE)')
      db.close()
    }
  }
}
