import { statSync } from 'node:fs'
import { refuseDifferences, UnusableCopy, writeWhole, type AppliedMigration } from '../copies.ts'
import type { Migration } from '../migrations.ts'
import type { TakenBackup } from '../storage.ts'
import { connect, migrate, type SqliteDatabase } from './database.ts'

/** A step's page count that SQLite reads as every page left. */
const ALL_PAGES = 0x7fffffff

/**
 * Copies the database `db` is connected to into `file` (which must not exist) with SQLite's online
 * backup: a consistent state, whatever is written meanwhile.
 *
 * - `pagesPerStep` undefined copies every page in one step, under one read transaction. That is
 *   what another process must do: a write committed by another connection between two steps
 *   starts the copy again, and the service may write all the time. A read transaction in WAL
 *   mode blocks no writer.
 * - A number copies that many pages a step, letting the event loop run between steps. That is
 *   for the service's own connection: SQLite carries the writes of the copying connection into
 *   the copy as they are made, so the copy never starts again.
 */
export async function copyDatabase (db: SqliteDatabase, file: string, pagesPerStep?: number): Promise<void> {
  // The first step copies nothing; the next copies `pagesPerStep` pages, or every page left however
  // many the database has grown to since (the most better-sqlite3 passes on).
  await db.backup(file, { progress: () => pagesPerStep ?? ALL_PAGES })
}

/**
 * The migrations `file` records, once SQLite's `integrity_check` has found it sound. Throws
 * UnusableCopy for a file that is not a sound SQLite database of this service.
 */
export function checkCopy (file: string): AppliedMigration[] {
  let db: SqliteDatabase
  try {
    db = connect(file, { readonly: true, fileMustExist: true })
  } catch (err) {
    throw new UnusableCopy(`${file} cannot be opened (${(err as Error).message})`)
  }
  try {
    const problems = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[]
    if (problems[0]?.integrity_check !== 'ok') {
      throw new UnusableCopy(`${file} fails SQLite's integrity check: ${problems.slice(0, 3).map(p => p.integrity_check).join('; ')}`)
    }
    const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get()
    if (table === undefined) throw new UnusableCopy(`${file} is a SQLite database, but not the service's: it has no schema_migrations`)
    return db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as AppliedMigration[]
  } catch (err) {
    if (err instanceof UnusableCopy) throw err
    // SQLITE_NOTADB and SQLITE_CORRUPT: what a file that is not a database, or a torn one, answers.
    throw new UnusableCopy(`${file} is not a sound SQLite database (${(err as Error).message})`)
  } finally {
    db.close()
  }
}

/** An object of a schema, as `sqlite_schema` lists it. */
interface SchemaObject { type: string, name: string, tbl_name: string, sql: string | null }

/** The objects of `db`'s schema by type and name, but the statistics ANALYZE keeps for the query planner, which run nothing. */
function schemaOf (db: SqliteDatabase): Map<string, SchemaObject> {
  const objects = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all() as SchemaObject[]
  return new Map(objects.filter(o => !(o.type === 'table' && /^sqlite_stat\d$/.test(o.name))).map(o => [`${o.type} ${o.name}`, o]))
}

/** An object as a refusal names it: the file's names quoted, on one line, cut short. */
function named ({ type, name, tbl_name: table }: SchemaObject): string {
  const quoted = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text)
  return `${type} ${quoted(name)}${type === 'index' || type === 'trigger' ? ` on ${quoted(table)}` : ''}`
}

/**
 * Throws UnusableCopy, naming `from`, when the schema of `file` (its tables, indexes, triggers and
 * views) is not the one the migrations it records make, made as start-up makes it (migrate) in a
 * database of its own: a trigger or a view the migrations do not make would run in the service,
 * and a table or index they make differently could break it.
 */
export function checkSchema (file: string, migrations: Migration[], from: string): void {
  const db = connect(file, { readonly: true, fileMustExist: true })
  const expected = connect(':memory:')
  try {
    const recorded = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[])
    migrate(expected, migrations.filter(m => recorded.has(m.version)))
    refuseDifferences(from, schemaOf(db), schemaOf(expected), (a, b) => a.tbl_name === b.tbl_name && a.sql === b.sql, named)
  } finally {
    expected.close()
    db.close()
  }
}

/**
 * Copies the database of `db` into `file`, whole or not at all (copies.ts's writeWhole), the copy
 * checked by SQLite's integrity check. `pagesPerStep`: copyDatabase's.
 */
export async function takeBackup (db: SqliteDatabase, file: string, pagesPerStep?: number): Promise<TakenBackup> {
  const migrations = await writeWhole(file, async partial => {
    await copyDatabase(db, partial, pagesPerStep)
    // The copy is in WAL mode, as its source: a file alone is easier to keep, move and check, and
    // the service turns WAL on again when it opens a restored copy.
    const copy = connect(partial, { fileMustExist: true })
    try {
      copy.pragma('journal_mode = DELETE')
    } finally {
      copy.close()
    }
    return checkCopy(partial)
  })
  return { file, bytes: statSync(file).size, migration: migrations.at(-1)?.name ?? null }
}
