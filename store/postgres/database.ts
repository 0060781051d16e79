import { createHash } from 'node:crypto'
import { userInfo } from 'node:os'
import pg from 'pg'
import type { Alongside } from '../contract.ts'
import { ConfigError } from '../../config/index.ts'
import { asciiLower } from '../../model/text.ts'
import type { PortQuery, DatabasePort, Work } from '../database.ts'
import { runAwaiting } from '../sequence.ts'
import { raw, sql, type Sql } from '../sql.ts'
import { applying, type Migration } from '../migrations.ts'
import { quote } from '../text.ts'

// bigint (int8) arrives as text unless told otherwise: every one here is an id, a count or a
// version, below 2^53, and the API speaks numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value))

// A URL without a user name means the operating-system user, as for libpq (psql); the driver
// takes it from USER, which a service manager may not set (PGUSER still wins over both).
pg.defaults.user ??= userInfo().username

export type Pool = pg.Pool
export type Client = pg.PoolClient
/** A pool or one of its connections: what a query runs on. */
export type Queryable = Pool | Client

export interface PostgresSettings {
  url: string
  poolSize: number
  /** Milliseconds a statement may run before PostgreSQL cancels it. */
  statementTimeout: number
}

/** The URL without its password, to be named in a message. */
export function redacted (url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(not a URL)'
  }
}

/**
 * A pool of connections to the database of DATABASE_URL, checked by one query: a database that
 * cannot be reached stops start-up, naming the setting.
 */
export async function openPool (settings: PostgresSettings): Promise<Pool> {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize,
    statement_timeout: settings.statementTimeout,
    connectionTimeoutMillis: 10_000,
    application_name: 'zoo-api'
  })
  // A connection that breaks while idle in the pool is dropped by it; unheard, the error would end the process.
  pool.on('error', () => {})
  try {
    await pool.query('SELECT 1')
  } catch (err) {
    await pool.end()
    throw new ConfigError(`DATABASE_URL: ${redacted(settings.url)} cannot be reached (${(err as Error).message})`)
  }
  return pool
}

/**
 * A statement PostgreSQL parses and plans once per connection instead of on every run: named
 * after its text, so that the same text is the same statement everywhere. For the statements
 * whose text is one of a few (a read by id, an insert); a list's vary with its filters.
 */
export function prepared (text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text)
  if (name === undefined) {
    // Hashing a statement's text cost more than a tenth of a one-record read's CPU.
    if (names.size >= NAMES_KEPT) names.clear()
    names.set(text, name = `zoo_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`)
  }
  return { name, text, values }
}

/** The names of statements by text: as many as the service's statements, which are few; cleared should they not be. */
const names = new Map<string, string>()
const NAMES_KEPT = 10_000

/**
 * A statement's text with its parameters written in as literals, for the simple protocol, which
 * takes several statements in one round trip but no parameters. For the values of the
 * service's own questions: text, numbers and null.
 */
export function inline (sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1]
    if (value === null || value === undefined) return 'NULL'
    if (typeof value === 'number' && Number.isFinite(value)) return String(value)
    if (typeof value === 'string') return pg.escapeLiteral(value)
    throw new Error(`no literal for a parameter of type ${typeof value}`)
  })
}

/**
 * Runs `work` in one transaction on one connection: committed if it returns, rolled back if it
 * throws. `last`, given what `work` returned, is what to run just before the commit, in the same
 * round trip (statements without parameters, their values written in); `first`, a question asked
 * in the round trip of the BEGIN.
 */
export async function transaction<T> (
  pool: Pool, work: (client: Client) => Promise<T>, last?: (result: T) => string | undefined, first?: Alongside
): Promise<T> {
  const client = await pool.connect()
  try {
    return await transactionOn(client, work, last, first)
  } finally {
    client.release()
  }
}

/** `transaction`, on a connection already taken. */
async function transactionOn<T> (
  client: Client, work: (client: Client) => Promise<T>, last?: (result: T) => string | undefined, first?: Alongside
): Promise<T> {
  try {
    if (first === undefined || first.settled) await client.query('BEGIN')
    else {
      // The question asked with the BEGIN, in one round trip; its answer may refuse the write before it starts.
      const asked = first.columns(1)
      const [, answer] = await client.query({ text: `BEGIN; SELECT ${inline(asked.sql, asked.params)}`, rowMode: 'array' }) as unknown as
        pg.QueryArrayResult[]
      first.answer(answer?.rows[0] as unknown[])
    }
    const result = await work(client)
    const before = last?.(result)
    await client.query(before === undefined ? 'COMMIT' : `${before}; COMMIT`)
    return result
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {})
    throw err
  }
}

/** The advisory locks of the service: numbers no other application on the database is likely to take. */
export const LOCKS = { migrations: 0x5a4f4f01, startup: 0x5a4f4f02 } as const

/**
 * Runs `work` holding an advisory lock of this database: another instance that asks for the same
 * lock waits until `work` is done. Held by a connection of its own, released with it.
 */
export async function withLock<T> (pool: Pool, lock: number, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [lock])
    try {
      return await work(client)
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [lock])
    }
  } finally {
    client.release()
  }
}

/**
 * Applies the migrations (by default `migrations/postgres/`) not applied yet, all of them in one
 * transaction, under an advisory lock: instances that start together apply them once. A schema
 * that DATABASE_URL names first in its `search_path` (`options=-c search_path=zoo`) is made if
 * missing, so that one database can hold several deployments apart.
 */
export async function migrate (pool: Pool, migrations: Migration[]): Promise<void> {
  await withLock(pool, LOCKS.migrations, async client => {
    const { rows } = await client.query<{ schema: string | null, path: string }>(
      "SELECT current_schema() AS schema, current_setting('search_path') AS path")
    const { schema, path } = rows[0] as { schema: string | null, path: string }
    const wanted = path.split(',')[0]?.trim().replace(/^"(.*)"$/, '$1') ?? ''
    if (schema === null && wanted !== '' && wanted !== '$user') await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(wanted)}`)
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations ' +
      '(version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)')
    await transactionOn(client, async client => runAwaiting(applying(migrations), ask => answer(client, ask)))
  })
}

/**
 * The database port (store/database.ts) on PostgreSQL: each statement prepared by its text
 * (`prepared`: the stores' statements are few and fixed), on any connection of the pool, or on
 * the transaction's own. Rows read in a transaction are locked `FOR UPDATE`, and a unique name
 * compares as `lower()` of its "C" column, which folds A-Z only, as SQLite's NOCASE does.
 */
export class PostgresPort implements DatabasePort {
  readonly forUpdate = raw(' FOR UPDATE')
  readonly pool: Pool

  constructor (pool: Pool) {
    this.pool = pool
  }

  async rows<R> (statement: Sql): Promise<R[]> {
    return await answer(this.pool, { statement, want: 'rows' }) as R[]
  }

  async row<R> (statement: Sql): Promise<R | undefined> {
    return (await this.rows<R>(statement))[0]
  }

  async run (statement: Sql): Promise<number> {
    return await answer(this.pool, { statement, want: 'changes' }) as number
  }

  async transaction<T> (work: Work<T>): Promise<T> {
    return transaction(this.pool, client => runAwaiting(work, ask => answer(client, ask)))
  }

  caseless (column: string, value: string): Sql {
    return sql`lower(${raw(column)}) = ${asciiLower(value)}`
  }
}

async function answer (db: Queryable, { statement, want }: PortQuery): Promise<unknown> {
  const { sql: text, params } = statement.render(n => `$${n}`)
  if (want === 'script') return await db.query(text)
  const result = await db.query(prepared(text, params))
  return want === 'rows' ? result.rows : result.rowCount ?? 0
}
