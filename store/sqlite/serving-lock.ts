import { join } from 'node:path'
import { connect } from './database.ts'

/** Held by another process: the message names the directory. */
export class DataDirInUse extends Error {}

/**
 * Holds `DATA_DIR/zoo.lock` for as long as this process serves, or restores into, the SQLite
 * database of `dataDir`: a second service, or a restore, is then refused rather than writing the
 * same file. The lock is SQLite's own, an operating-system lock on the file taken by a write in
 * exclusive locking mode and kept until the connection closes; the system drops it when the
 * process ends, however it ends, so a crash leaves nothing to clean up. The database itself cannot
 * hold it: the CLI's client and user commands open that file beside the running service.
 */
export function holdDataDir (dataDir: string, holder: 'serving' | 'restoring'): { release: () => void } {
  const file = join(dataDir, 'zoo.lock')
  const db = connect(file)
  try {
    db.pragma('busy_timeout = 0')
    db.pragma('locking_mode = EXCLUSIVE')
    db.exec('CREATE TABLE IF NOT EXISTS holder (kind TEXT NOT NULL, pid INTEGER NOT NULL, since TEXT NOT NULL)')
    db.transaction(() => {
      db.exec('DELETE FROM holder')
      db.prepare('INSERT INTO holder VALUES (?, ?, ?)').run(holder, process.pid, new Date().toISOString())
    })()
  } catch (err) {
    db.close()
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DataDirInUse(`${dataDir} is in use by another zoo-api process (a running service, or a restore): ${file} is locked`)
    }
    throw err
  }
  return { release: () => { db.close() } }
}
