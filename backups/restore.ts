import { existsSync, linkSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { privateDirectory } from '../config/index.ts'
import type { Migration } from '../store/migrations.ts'
import { flush, UnusableCopy } from '../store/copies.ts'
import { checkCopy, checkSchema, takeBackup } from '../store/sqlite/backup.ts'
import { connect } from '../store/sqlite/database.ts'
import { holdDataDir } from '../store/sqlite/serving-lock.ts'

/** What a restore did. */
export interface Restored {
  restored: string
  from: string
  /** Where the database it replaced now is, if there was one. */
  replaced: string | null
}

/**
 * Makes `from`, a backup, the SQLite database of `dataDir`. Refused, with nothing changed, while a
 * service runs on `dataDir` (store/sqlite/serving-lock.ts; the lock is held throughout, so none
 * starts meanwhile), when `from` fails SQLite's integrity check, when it records a migration
 * `migrations` (this program's) do not have (a newer program made it), or when its schema is not
 * what the migrations it records make (checkSchema). The database replaced is
 * kept beside it as `zoo.db.replaced-<UTC time>`, with its write-ahead log if it had one (SQLite
 * finds a log by its database's name, so the pair stays whole).
 */
export async function restoreBackup (dataDir: string, from: string, migrations: Migration[], now = new Date()): Promise<Restored> {
  // A new machine's data directory is made, private, as the service makes it.
  privateDirectory(dataDir, 'DATA_DIR')
  const lock = holdDataDir(dataDir, 'restoring')
  try {
    const applied = checkCopy(from)
    const known = new Map(migrations.map(m => [m.version, m.name]))
    const unknown = applied.find(m => known.get(m.version) !== m.name)
    if (unknown !== undefined) {
      throw new UnusableCopy(`${from} holds migration ${unknown.name}, which this program does not have: ` +
        'a newer version of zoo-api made it; restore it with that version or a later one')
    }
    const database = join(dataDir, 'zoo.db')
    const incoming = join(dataDir, `.zoo.db.restoring-${process.pid}`)
    // Copied by SQLite, as a backup is: what `from`'s own write-ahead log holds comes too, and the
    // copy is the one checked (takeBackup), not a file read again after the check.
    const source = connect(from, { readonly: true, fileMustExist: true })
    try {
      await takeBackup(source, incoming)
    } finally {
      source.close()
    }
    try {
      checkSchema(incoming, migrations, from)
    } catch (err) {
      rmSync(incoming, { force: true })
      throw err
    }
    let replaced: string | null = null
    if (existsSync(database)) {
      // A second name first: `zoo.db` is never missing, whatever stops the restore midway.
      replaced = `${database}.replaced-${timestamp(now)}`
      linkSync(database, replaced)
      if (existsSync(`${database}-wal`)) renameSync(`${database}-wal`, `${replaced}-wal`)
    }
    // The shared-memory index belongs to the log moved away; SQLite makes a new one.
    rmSync(`${database}-shm`, { force: true })
    renameSync(incoming, database)
    flush(dataDir)
    return { restored: database, from, replaced }
  } finally {
    lock.release()
  }
}

/** A UTC time in a form that sorts as it reads and fits a file name: `20261128T051500.123Z`. */
export function timestamp (at: Date): string {
  return at.toISOString().replaceAll('-', '').replaceAll(':', '')
}
