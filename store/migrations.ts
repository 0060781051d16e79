import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { shippedFile, shippedNames } from '../packaging/shipped.ts'
import { changesOf, rowsOf, scriptOf, type Work } from './database.ts'
import { sql } from './sql.ts'

export type Engine = 'sqlite' | 'postgres'

export interface Migration {
  /** The file's name, such as `001_collections.sql`. */
  name: string
  /** Its number: migrations are applied in this order, each once. */
  version: number
  sql: string
}

const MIGRATION_FILE = /^(\d+)_[\w-]+\.sql$/

/**
 * The migrations of `engine`, in order: those this version ships (`migrations/<engine>/`), or
 * those of a folder laid out the same way (`<folder>/<engine>/`: a test's, for collections of its
 * own, written by store/migration-plan.ts).
 */
export function migrationsOf (engine: Engine, folder?: string): Migration[] {
  const names = folder === undefined ? shippedNames(`migrations/${engine}`) : readdirSync(join(folder, engine))
  const read = (name: string): string => folder === undefined
    ? shippedFile(`migrations/${engine}/${name}`).toString('utf8')
    : readFileSync(join(folder, engine, name), 'utf8')
  const migrations = names
    .map(name => ({ name, match: MIGRATION_FILE.exec(name) }))
    .filter(m => m.match !== null)
    .map(m => ({ name: m.name, version: Number(m.match?.[1]), sql: read(m.name) }))
    .sort((a, b) => a.version - b.version)
  // A database records the versions it applied: of two files with one number, the second would
  // never run where the first had.
  const twice = migrations.find((m, i) => migrations[i - 1]?.version === m.version)
  if (twice !== undefined) {
    const first = migrations.find(m => m.version === twice.version) as Migration
    throw new Error(`migrations/${engine}: ${first.name} and ${twice.name} have the same number; give the later one the next free number`)
  }
  return migrations
}

/** Of `migrations`, those the database has not applied (its table `schema_migrations` says which), in order. */
export function * pending (migrations: Migration[]): Work<Migration[]> {
  const applied = new Set((yield * rowsOf<{ version: number }>(sql`SELECT version FROM schema_migrations`)).map(m => m.version))
  return migrations.filter(m => !applied.has(m.version))
}

/** Applies, in one transaction, each of `migrations` the database has not, recording it in `schema_migrations`. */
export function * applying (migrations: Migration[]): Work<void> {
  for (const m of yield * pending(migrations)) {
    yield * scriptOf(m.sql)
    const now = new Date().toISOString()
    yield * changesOf(sql`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${now})`)
  }
}
