import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { TakenBackup } from '../storage.ts'
import { connect, type SqliteDatabase } from './database.ts'

/** A step's page count that SQLite reads as every page left. */
const ALL_PAGES = 0x7fffffff

/** A database file that cannot be used as a copy of the service's: the message says why. */
export class UnusableCopy extends Error {}

/** A migration a database file records as applied. */
export interface AppliedMigration {
  version: number
  name: string
}

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

/**
 * Copies the database of `db` into `file`: into a file of its own beside it first, checked by
 * SQLite's integrity check, made private (0600: password hashes and emails) and flushed to disk,
 * then renamed onto `file`, so that `file` is never a partial or unchecked copy. A failure leaves
 * nothing behind. `pagesPerStep`: copyDatabase's.
 */
export async function takeBackup (db: SqliteDatabase, file: string, pagesPerStep?: number): Promise<TakenBackup> {
  const partial = join(dirname(file), `.${basename(file)}.partial-${process.pid}`)
  try {
    rmSync(partial, { force: true })
    closeSync(openSync(partial, 'wx', 0o600))
    await copyDatabase(db, partial, pagesPerStep)
    // The copy is in WAL mode, as its source: a file alone is easier to keep, move and check, and
    // the service turns WAL on again when it opens a restored copy.
    const copy = connect(partial, { fileMustExist: true })
    try {
      copy.pragma('journal_mode = DELETE')
    } finally {
      copy.close()
    }
    const migrations = checkCopy(partial)
    flush(partial)
    renameSync(partial, file)
    flush(dirname(file))
    return { file, bytes: statSync(file).size, migration: migrations.at(-1)?.name ?? null }
  } catch (err) {
    rmSync(partial, { force: true })
    throw err
  }
}

/** Puts what was written to `path`, a file or a directory (whose entries a rename changed), on disk. */
export function flush (path: string): void {
  const descriptor = openSync(path, 'r')
  try {
    fsyncSync(descriptor)
  } finally {
    closeSync(descriptor)
  }
}
