import { migrationsOf } from '../migrations.ts'
import { serviceStores } from '../service-stores.ts'
import type { StoredCollections, Storage } from '../storage.ts'
import { SqliteCollectionStores } from './collections.ts'
import { takeBackup } from './backup.ts'
import { openDatabase } from './database.ts'

/**
 * Pages a scheduled backup copies before the event loop runs again: 4 MiB of 4 KiB pages, a few
 * milliseconds of copying between two requests.
 */
const PAGES_PER_STEP = 1024

/**
 * The embedded engine: one SQLite file, `DATA_DIR/zoo.db`, in this process. Its reads cost no
 * round trip; every collection write is group-committed (store/sqlite/group-commit.ts).
 */
export function openSqliteStorage (dataDir: string, collections: StoredCollections): Storage {
  const migrations = migrationsOf('sqlite', collections.migrations)
  const db = openDatabase(dataDir, migrations)
  const stores = new SqliteCollectionStores(db, collections.resources)
  return {
    engine: 'sqlite',
    // One process serves a SQLite file, so its jobs need no lease and nothing is done exclusively of
    // another; another process on the same file (the CLI) only manages clients and users.
    shared: false,
    collections: stores,
    // The standing is answered at once, in the process, without a promise.
    ...serviceStores({ port: stores.port, migrations, standingAlone: statement => stores.row(statement) as unknown[] }),
    exclusively: async work => work(),
    backUp: async file => takeBackup(db, file, PAGES_PER_STEP),
    close: async () => {
      await stores.readers.close()
      if (!db.open) return
      // The write-ahead log moved into the database file: once stopped, the file alone holds everything.
      db.pragma('wal_checkpoint(TRUNCATE)')
      db.close()
    }
  }
}
