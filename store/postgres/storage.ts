import { migrationsOf } from '../migrations.ts'
import { serviceStores } from '../service-stores.ts'
import type { StoredCollections, Storage } from '../storage.ts'
import { PostgresCollectionStores } from './collections.ts'
import { LOCKS, migrate, openPool, PostgresPort, withLock, type PostgresSettings } from './database.ts'
import { POSTGRES_LEASE } from './jobs.ts'
import { checkTables } from './schema.ts'

/**
 * PostgreSQL, shared by every instance of the service: whatever must hold across instances
 * (records, keys, revocations, idempotency keys, jobs) is in the database, and nothing an
 * instance remembers is trusted where another may have written since.
 */
export async function openPostgresStorage (settings: PostgresSettings, collections: StoredCollections): Promise<Storage> {
  const migrations = migrationsOf('postgres', collections.migrations)
  const pool = await openPool(settings)
  const store = new PostgresCollectionStores(pool, collections.resources)
  try {
    await migrate(pool, migrations)
    await checkTables(pool, collections.resources)
    await store.indexSearchWords()
  } catch (err) {
    await pool.end()
    throw err
  }
  const port = new PostgresPort(pool)
  return {
    engine: 'postgres',
    shared: true,
    collections: store,
    ...serviceStores({ port, migrations, standingAlone: statement => store.row(statement), lease: POSTGRES_LEASE }),
    exclusively: async work => withLock(pool, LOCKS.startup, () => work()),
    connections: () => ({
      used: pool.totalCount - pool.idleCount, idle: pool.idleCount, pending: pool.waitingCount, max: settings.poolSize
    }),
    close: async () => {
      if (!pool.ended) await pool.end()
    }
  }
}
