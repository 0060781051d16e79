import { closeSync, existsSync, openSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { privateDirectory, privateFiles } from '../../config/index.ts'
import { sqliteBinding } from '../../packaging/shipped.ts'
import { DatabasePort, type PortQuery, type Work } from '../database.ts'
import { sqliteStatement } from '../observed.ts'
import { Recent } from '../recent.ts'
import { runNow } from '../sequence.ts'
import { raw, sql, type Sql } from '../sql.ts'
import { SQLITE } from './dialect.ts'
import type { GroupCommit } from './group-commit.ts'
import { applying, migrationsOf, type Migration } from '../migrations.ts'

export type SqliteDatabase = Database.Database

/** Opens (or makes) the database file of `dataDir`, sets its pragmas and applies the migrations not applied yet, in one transaction. */
export function openDatabase (dataDir: string, migrations: Migration[] = migrationsOf('sqlite')): SqliteDatabase {
  const file = join(dataDir, 'zoo.db')
  makePrivate(dataDir, file)
  const db = connect(file)
  db.pragma('journal_mode = WAL')
  // FULL: a write the API answered 201 for survives a power cut, not only a crash.
  db.pragma('synchronous = FULL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  // 32 MiB of pages kept (the default is 2 MiB): a walk of an index fetches rows all over the table.
  db.pragma('cache_size = -32768')
  migrate(db, migrations)
  return db
}

/**
 * Makes in `db` the schema start-up makes: the table of the migrations applied, and then, in one
 * transaction, each of `migrations` not applied yet. The only objects the program makes outside
 * the migrations are made here, so that a restore can make the schema a backup should have.
 */
export function migrate (db: SqliteDatabase, migrations: Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT')
  new SqlitePort(db).now(applying(migrations))
}

/** A connection to the SQLite file `file`, through the addon the binary unpacked when it runs as one. */
export function connect (file: string, options: Database.Options = {}): SqliteDatabase {
  const addon = sqliteBinding()
  // better-sqlite3 takes the loaded addon too, though its types name only a path.
  return new Database(file, addon === undefined ? options : { ...options, nativeBinding: addon as unknown as string })
}

/**
 * Only the service's user may read the database (password hashes, emails): the directory 0700
 * (config/private-directory.ts), the file 0600 before SQLite opens it (its WAL and shared memory
 * take that mode), older files too.
 */
function makePrivate (dataDir: string, file: string): void {
  privateDirectory(dataDir, 'DATA_DIR')
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600))
  privateFiles([file, `${file}-wal`, `${file}-shm`])
}

/** Compiled statements kept: a list's vary with its filters, so the least recently used are dropped. */
const STATEMENTS_KEPT = 512

/**
 * The database port on SQLite: each statement answered at once on the one connection; a
 * transaction holds the whole file. Given the collections' group commit, a transaction is one
 * write of it: it shares the commit, and its wait for the disk, with the writes that arrive with
 * it (the webhooks' deliveries kept beside the creates that made them: each alone waited for the
 * disk, docs/benchmarks.md), and is answered once that commit returns.
 */
export class SqlitePort extends DatabasePort {
  readonly #statements = new Recent<string, Database.Statement>(STATEMENTS_KEPT)
  readonly #groups: GroupCommit | undefined
  readonly forUpdate = raw('')
  readonly db: SqliteDatabase

  constructor (db: SqliteDatabase, groups?: GroupCommit) {
    super()
    this.db = db
    this.#groups = groups
  }

  async transaction<T> (work: Work<T>): Promise<T> {
    if (this.#groups === undefined) return this.now(work)
    return await this.#groups.submit(() => runNow(work, ask => this.answer(ask)))
  }

  /** Runs `work` in one transaction at once. */
  now<T> (work: Work<T>): T {
    return this.db.transaction(() => runNow(work, ask => this.answer(ask)))()
  }

  caseless (column: string, value: string): Sql {
    return sql`${raw(column)} = ${value}`
  }

  jsonRows (array: string): Sql {
    // jsonb_each: each element a JSONB value, which `->>` reads as it is; json_each's are text,
    // parsed again by each `->>` (a row of eleven values took 4.2 µs so, 2.3 µs as JSONB).
    return sql`jsonb_each(${array})`
  }

  /** `statement` compiled, and the values of its placeholders. */
  compiled (statement: Sql): { compiled: Database.Statement, params: unknown[] } {
    const { sql: text, params } = statement.render(SQLITE.placeholder)
    return { compiled: this.#statements.get(text, () => this.db.prepare(text)), params }
  }

  protected answer ({ statement, want }: PortQuery): unknown {
    if (want === 'script') {
      const { sql: text } = statement.render(SQLITE.placeholder)
      return sqliteStatement(text, () => this.db.exec(text))
    }
    const { compiled, params } = this.compiled(statement)
    // Rows as objects: a collection's read of the same text may have left it answering arrays or values.
    return sqliteStatement(compiled.source, () =>
      want === 'rows' ? compiled.raw(false).pluck(false).all(...params) : compiled.run(...params).changes)
  }
}
