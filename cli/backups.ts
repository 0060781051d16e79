import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { restoreBackup } from '../backups/restore.ts'
import { migrationsOf } from '../store/migrations.ts'
import { UnusableCopy } from '../store/copies.ts'
import { takeBackup } from '../store/sqlite/backup.ts'
import { connect } from '../store/sqlite/database.ts'
import { cliDataDir, failed, UsageError, type CliIo } from './io.ts'

/** The first words of a command line that backs the database up or restores it. */
export const BACKUP_COMMANDS = ['backup', 'restore']

const USAGE = `usage: zoo-api backup --to FILE [--data-dir DIR]     copies the SQLite database of DATA_DIR, even while the service runs
       zoo-api restore --from FILE [--data-dir DIR]  makes FILE the database of DATA_DIR, where no service runs;
                                                     the database replaced is kept beside it
prints JSON; on DATABASE_URL use PostgreSQL's pg_dump and pg_restore instead`

const POSTGRES = 'DATABASE_URL is set: back PostgreSQL up with its own tools, ' +
  '`pg_dump --format=custom --file=FILE "$DATABASE_URL"` and `pg_restore --clean --dbname="$DATABASE_URL" FILE`'

/**
 * `backup --to FILE` and `restore --from FILE` (docs/operations.md#backups). JSON on stdout; a
 * failure is `{"error": ...}` on stderr, exit 1 (2 for a usage or configuration error).
 */
export async function runBackupCommand (argv: string[], io: Omit<CliIo, 'stdin'>): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { to: { type: 'string' }, from: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } }
    })
    if (values.help === true) {
      io.stdout(`${USAGE}\n`)
      return 0
    }
    const [command, ...extra] = positionals
    const [wanted, unwanted] = command === 'backup' ? ['to', 'from'] as const : ['from', 'to'] as const
    const file = values[wanted]
    if (extra.length > 0 || file === undefined || file === '') throw new UsageError(`${command} needs --${wanted} FILE`)
    if (values[unwanted] !== undefined) throw new UsageError(`${command} takes no --${unwanted}`)
    if ((io.env.DATABASE_URL ?? '') !== '') throw new Error(POSTGRES)
    const dataDir = cliDataDir(values['data-dir'], io.env)
    const result = command === 'backup'
      ? await backUp(dataDir, resolve(file))
      : await restoreBackup(dataDir, resolve(file), migrationsOf('sqlite', io.collections?.migrations))
    io.stdout(`${JSON.stringify(result)}\n`)
    return 0
  } catch (err) {
    return failed(err, USAGE, io)
  }
}

/** A copy of DATA_DIR's database into `file`, from a connection of this process's own beside the service's. */
async function backUp (dataDir: string, file: string): ReturnType<typeof takeBackup> {
  const database = join(dataDir, 'zoo.db')
  if (!existsSync(database)) throw new UnusableCopy(`DATA_DIR: ${dataDir} holds no database (zoo.db) to back up`)
  if (existsSync(file)) throw new Error(`${file} exists: back up into a new file`)
  const db = connect(database, { fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    return await takeBackup(db, file)
  } finally {
    db.close()
  }
}
