import { createHash } from 'node:crypto'
import { userInfo } from 'node:os'
import pg from 'pg'
import type { Alongside } from '../contract.ts'
import { ConfigError, redacted } from '../../config/index.ts'
import { asciiLower } from '../../model/text.ts'
import { DatabasePort, type PortQuery, type Work } from '../database.ts'
import { runAwaiting } from '../sequence.ts'
import { raw, sql, type Sql } from '../sql.ts'
import { applying, type Migration } from '../migrations.ts'
import { quote } from '../text.ts'
import { POSTGRES } from './dialect.ts'
import { announced, heard, laterStatement, statementTimes } from '../observed.ts'

// bigint arrives as text unless told otherwise: every one here is an id, a count or a version, below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value))

// A URL without a user name means the operating-system user, as for psql, even where USER is not set.
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

/**
 * A connection that announces each of its statements (store/observed.ts) when someone listens.
 * The pool makes its connections of this class (pg's Pool option `Client`), so every statement of
 * the engine passes here, those of `pool.query` too, which pg sends with a callback.
 */
class ObservedClient extends pg.Client {}
const query = pg.Client.prototype.query
ObservedClient.prototype.query = function observedQuery (this: pg.Client, ...args: unknown[]): unknown {
  if (!statementTimes.hasSubscribers && heard.statements === 0) return Reflect.apply(query, this, args)
  const [config] = args
  const text = announced(typeof config === 'string' ? config : (config as { text: string }).text)
  return laterStatement('postgresql', text, query as (...args: unknown[]) => unknown, this, args)
} as typeof query

/** A pool of connections to DATABASE_URL, checked by one query: a database that cannot be reached stops start-up. */
export async function openPool (settings: PostgresSettings): Promise<Pool> {
  const pool = new pg.Pool({
    Client: ObservedClient,
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

/** A statement planned once per connection: named after its text. For statements of a fixed text; a list's vary. */
export function prepared (text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text)
  if (name === undefined) {
    // Its text is hashed once (docs/benchmarks.md).
    if (names.size >= NAMES_KEPT) names.clear()
    names.set(text, name = `zoo_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`)
  }
  return { name, text, values }
}

/** The names of statements by text: as many as the service's statements, which are few; cleared should they not be. */
const names = new Map<string, string>()
const NAMES_KEPT = 10_000

/** A statement's text with its values (text, numbers, null) written in, for the simple protocol's several statements in one round trip. */
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
 * Runs `work` in one transaction on one connection, committed if it returns. `last(result)` runs
 * in the COMMIT's round trip (values written in); `first`, a question asked in the BEGIN's.
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
      const asked = first.columns().rendered(POSTGRES.placeholder)
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

/** Runs `work` holding an advisory lock of the database, on a connection of its own: another instance waits for it. */
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
 * Applies the migrations not applied yet, in one transaction, under an advisory lock. The schema
 * DATABASE_URL names first in its `search_path` is made if missing: one database, several deployments.
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
 * The database port on PostgreSQL: each statement prepared by its text, on the pool or the
 * transaction's connection; rows read in a transaction locked `FOR UPDATE`; a unique name as `lower()`.
 */
export class PostgresPort extends DatabasePort {
  readonly forUpdate = raw(' FOR UPDATE')
  readonly pool: Pool

  constructor (pool: Pool) {
    super()
    this.pool = pool
  }

  protected answer (query: PortQuery): Promise<unknown> {
    return answer(this.pool, query)
  }

  async transaction<T> (work: Work<T>): Promise<T> {
    return transaction(this.pool, client => runAwaiting(work, ask => answer(client, ask)))
  }

  caseless (column: string, value: string): Sql {
    return sql`lower(${raw(column)}) = ${asciiLower(value)}`
  }

  jsonRows (array: string): Sql {
    return sql`json_array_elements(${array}::json) AS rows (value)`
  }
}

async function answer (db: Queryable, { statement, want }: PortQuery): Promise<unknown> {
  const { sql: text, params } = statement.render(POSTGRES.placeholder)
  if (want === 'script') return await db.query(text)
  const result = await db.query(prepared(text, params))
  return want === 'rows' ? result.rows : result.rowCount ?? 0
}
