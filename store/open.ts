import type { Config } from '../config/index.ts'
import type { StoredCollections, Storage } from './storage.ts'

/**
 * The storage the configuration names: PostgreSQL when DATABASE_URL is set, else SQLite in
 * DATA_DIR, keeping `collections`. Each engine's modules are loaded only when it is used.
 */
export async function openStorage (
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'databasePoolSize' | 'databaseStatementTimeout'>,
  collections: StoredCollections
): Promise<Storage> {
  if (config.databaseUrl === undefined) return (await import('./sqlite/storage.ts')).openSqliteStorage(config.dataDir, collections)
  const { openPostgresStorage } = await import('./postgres/storage.ts')
  return openPostgresStorage({
    url: config.databaseUrl,
    poolSize: config.databasePoolSize,
    statementTimeout: config.databaseStatementTimeout
  }, collections)
}
