import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Writable } from 'node:stream'
import Database from 'better-sqlite3'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import tap, { type Test } from 'tap'
import { buildApi, type ApiOptions } from '../app.ts'
import { createClient, createUser } from '../auth/accounts.ts'
import { runCli } from '../cli/index.ts'
import { scopesOf } from '../auth/scopes.ts'
import { setHashCostForTests } from '../auth/secrets.ts'
import { FeedPositions } from '../collections/feed-positions.ts'
import { loadConfig, type Config } from '../config/index.ts'
import { openStorage } from '../store/open.ts'
import type { AccountStore, Storage } from '../store/storage.ts'
import type { CollectionStore } from '../store/contract.ts'
import { checkContract } from './contract.ts'

// The chosen secrets of the test apps (the bootstrap client's, the users') are hashed at a low
// scrypt cost: at the production cost, hundreds of apps would spend minutes hashing. So is the
// decoy an unknown name is checked against, made when the first app loads the authorization
// server. test/auth/secrets.test.ts proves the production cost; test/auth/token-guessing.test.ts,
// which tests the limits of hashing, sets it back for its own process.
setHashCostForTests(1024)

/** The bootstrap client every test app gets: it holds every scope. */
export const BOOTSTRAP = { id: 'test-bootstrap', secret: 'test-bootstrap-secret-0123456789' } as const

/**
 * The engine the suite runs on: SQLite, or PostgreSQL with `ZOO_TEST_ENGINE=postgres` (the
 * second pass of npm test), on the database of `ZOO_TEST_DATABASE_URL`.
 */
export const ENGINE: 'sqlite' | 'postgres' = process.env.ZOO_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'
export const POSTGRES = process.env.ZOO_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * The options of a test that runs in the PostgreSQL pass only: what it tests only PostgreSQL has
 * (a database several processes share, its statements, its tables). Skipped, saying so, on SQLite.
 */
export const POSTGRES_PASS = { skip: ENGINE !== 'postgres' && 'runs in the PostgreSQL pass' }

/** The URL of `schema` on the test database: the service makes the schema when it opens it. */
const inSchema = (schema: string): string => `${POSTGRES}?options=${encodeURIComponent(`-c search_path=${schema}`)}`
/** Names this test file's schemas apart from those of the files that run beside it, and of earlier runs. */
const RUN = randomBytes(4).toString('hex')
const schemas = new Set<string>()

/**
 * On PostgreSQL, a data directory's database: a schema of its own (which the service makes), the
 * same for every app started on that directory, so that a restart finds what the first app
 * wrote; dropped when the test file ends.
 */
function databaseOf (dataDir: string): Record<string, string> {
  if (ENGINE === 'sqlite') return {}
  const schema = `test_${RUN}_${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`
  if (schemas.size === 0) tap.teardown(dropSchemas)
  schemas.add(schema)
  return { DATABASE_URL: inSchema(schema) }
}

/** The URL of a new schema named `prefix_<random>`, for a test that opens the database itself; dropped at its teardown. */
export function freshSchema (t: Test, prefix: string): string {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`
  t.teardown(async () => {
    const client = new pg.Client({ connectionString: POSTGRES })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await client.end()
  })
  return inSchema(schema)
}

async function dropSchemas (): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES })
  await client.connect()
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await client.end()
  }
}

/** The configuration of a test app: quiet, on `dataDir` (and its database), with the known bootstrap client. */
export function testConfig (dataDir: string, settings: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    ...databaseOf(dataDir),
    LOG_LEVEL: 'silent',
    BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id,
    BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret,
    // Suites send hundreds of requests a minute from one address; test/routes/rate-limit.test.ts sets one.
    RATE_LIMIT: '0',
    // Tests block the event loop themselves (a reference query, a big fixture) and share two cores
    // with others: test/routes/health.test.ts sets the overload check and overloads on purpose.
    MAX_EVENT_LOOP_DELAY: '0',
    ...settings
  }, [])
}

/**
 * Memory when the system has it. The service commits with synchronous=FULL, and each commit
 * waits for an fsync: on this project's machines 3 ms on disk, nothing in memory, and the suite
 * builds hundreds of apps that write thousands of times. What a test checks of a commit does not
 * need the disk; the crash test and the tests of start-up on a data directory keep theirs.
 */
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()

/** A fresh empty directory for a test app's data (in memory when the system has it), removed at teardown. */
export function dataDir (t: Test): string {
  const dir = mkdtempSync(join(SCRATCH, 'zoo-data-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The API built in-process on a fresh data directory, every answer checked against its OpenAPI document, closed at teardown. */
export async function build (t: Test, settings: Record<string, string> = {}, logStream?: Writable): Promise<FastifyInstance> {
  return started(t, testConfig(dataDir(t), settings), logStream === undefined ? {} : { logStream })
}

/**
 * Another instance of the API on the data directory (and database) of `app`, as a second process
 * would be; serving `collections` when `app` serves collections of a test's own (buildServing).
 */
export async function buildBeside (
  t: Test, app: FastifyInstance, collections?: NonNullable<ApiOptions['collections']>, settings: Record<string, string> = {}
): Promise<FastifyInstance> {
  return started(t, testConfig(app.config.dataDir, settings), collections === undefined ? {} : { collections })
}

/** As `build`, serving `collections` (ApiOptions.collections): collections of a test's own. */
export async function buildServing (
  t: Test, collections: NonNullable<ApiOptions['collections']>, settings: Record<string, string> = {}
): Promise<FastifyInstance> {
  return started(t, testConfig(dataDir(t), settings), { collections })
}

/** The repository's route files. */
export const ROUTES = fileURLToPath(new URL('../routes', import.meta.url))

/**
 * A URL tree to serve instead of routes/ (ApiOptions.collections.routes): every route file of
 * `from` but those at the paths `leaveOut` names, and `files` (path in the tree -> the file
 * served there), each written as a module that re-exports the file it stands for. Removed in
 * teardown.
 */
export function routeTree (t: Test, files: Record<string, string>, leaveOut: Iterable<string> = [], from = ROUTES): string {
  const tree = mkdtempSync(join(tmpdir(), 'zoo-routes-'))
  t.teardown(() => rmSync(tree, { recursive: true, force: true }))
  const left = new Set(leaveOut)
  const served: Record<string, string> = {}
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    const path = relative(from, join(entry.parentPath, entry.name))
    if (entry.isFile() && path.endsWith('.ts') && !left.has(path)) served[path] = join(from, path)
  }
  for (const [path, file] of Object.entries({ ...served, ...files })) {
    const url = pathToFileURL(file).href
    mkdirSync(join(tree, dirname(path)), { recursive: true })
    // The named exports too: autoload reads autoPrefix from a route file.
    writeFileSync(join(tree, path), `export * from '${url}'\nexport { default } from '${url}'\n`)
  }
  return tree
}

/** Each test app's API plugin, out of reach from the outside: a request's server is that plugin. */
const apis = new WeakMap<FastifyInstance, FastifyInstance>()

async function started (t: Test, config: Config, options: ApiOptions): Promise<FastifyInstance> {
  const app = checkContract(t, buildApi(config, options))
  t.teardown(() => app.close())
  app.addHook('onRequest', (request, _reply, done) => {
    if (!apis.has(app) && request.server.hasDecorator('storage')) apis.set(app, request.server)
    done()
  })
  await app.ready()
  return app
}

/** The API plugin of the app, as its routes see it (its storage, its job queue), once it has answered a request through it. */
export function apiOf (app: FastifyInstance): FastifyInstance {
  const api = apis.get(app)
  if (api === undefined) throw new Error('the app has answered no request of its API yet')
  return api
}

/** The storage the app itself uses, known once it has answered a request through its API plugin. */
export const storageOf = (app: FastifyInstance): Storage => apiOf(app).storage

export const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`

/** A token request through the real token endpoint; returns the whole answer. */
export async function tokenRequest (
  app: FastifyInstance,
  params: Record<string, string>,
  authorization = basic(BOOTSTRAP.id, BOOTSTRAP.secret)
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `${app.config.apiPrefix}/oauth/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization === '' ? {} : { authorization }) },
    payload: new URLSearchParams(params).toString()
  })
}

const bearers = new WeakMap<FastifyInstance, Promise<string>>()

/** `Bearer <token>` of the bootstrap client (every scope), fetched once per app, however many requests ask at once. */
export async function bearer (app: FastifyInstance): Promise<string> {
  let value = bearers.get(app)
  if (value === undefined) {
    value = tokenRequest(app, { grant_type: 'client_credentials' }).then(res => {
      if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`)
      return `Bearer ${res.json().access_token as string}`
    })
    bearers.set(app, value)
  }
  return value
}

/** `inject` with a JSON body when one is given, as the bootstrap client unless `authorization` is given. */
export async function call (
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<LightMyRequestResponse> {
  const authorization = 'authorization' in headers ? {} : { authorization: await bearer(app) }
  return app.inject({
    method,
    url,
    headers: { ...authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) })
  })
}

/** Creates one record through the API and returns it. */
export async function create (
  app: FastifyInstance,
  collection: string,
  body: Record<string, unknown>
): Promise<Record<string, unknown> & { id: number }> {
  const res = await call(app, 'POST', `/v1/${collection}`, body)
  if (res.statusCode !== 201) throw new Error(`creating ${collection}: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** The app's database file, opened on its own read-only connection. */
export function openDatabaseFile (app: FastifyInstance): Database.Database {
  return new Database(join(app.config.dataDir, 'zoo.db'), { readonly: true })
}

/** Every row of every table, read from the file, for asserting that a refused request wrote nothing. */
export async function snapshot (app: FastifyInstance): Promise<Record<string, unknown[]>> {
  const tables = ENGINE === 'sqlite'
    ? await query(app, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    : await query(app, 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1')
  const all: Record<string, unknown[]> = {}
  for (const { name } of tables) all[String(name)] = await query(app, `SELECT * FROM "${String(name)}" ORDER BY 1`)
  return all
}

/**
 * A statement run on the app's database from the outside, as another program would: on SQLite
 * its file, on PostgreSQL its schema. `?` marks the parameters on both.
 */
export const query = (app: FastifyInstance, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> =>
  queryAt(app.config, sql, params)

/** Where a service keeps its data: its SQLite file in `dataDir`, or the PostgreSQL schema of `databaseUrl`. */
export interface DatabasePlace { dataDir: string, databaseUrl?: string | undefined }

/** As `query`, on the database of a service that is not an app of the test's own (a process it started). */
export async function queryAt (place: DatabasePlace, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (place.databaseUrl === undefined) {
    const db = new Database(join(place.dataDir, 'zoo.db'))
    try {
      const statement = db.prepare(sql)
      if (!statement.reader) {
        statement.run(...params)
        return []
      }
      return statement.all(...params) as Record<string, unknown>[]
    } finally {
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: place.databaseUrl })
  await client.connect()
  try {
    let n = 0
    return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows
  } finally {
    await client.end()
  }
}

/** How the service at `place` tells feed positions (collections/feed-positions.ts): what reads the numbers behind them. */
export async function feedPositionsAt (place: DatabasePlace): Promise<FeedPositions> {
  const [row] = await queryAt(place, 'SELECT key FROM feed_key WHERE id = 1')
  return new FeedPositions(String(row?.key))
}

/** The environment the CLI needs to work on the app's database. */
export const cliEnv = (app: FastifyInstance): Record<string, string> =>
  ({ DATA_DIR: app.config.dataDir, ...(app.config.databaseUrl === undefined ? {} : { DATABASE_URL: app.config.databaseUrl }) })

/** Clients and users made on the app's database file, as the CLI would. */
export async function withAccounts<T> (app: FastifyInstance, work: (store: AccountStore) => Promise<T>): Promise<T> {
  return withStorage(app, storage => work(storage.accounts))
}

/** The app's storage, opened apart from the app as the CLI would, and closed after `work`. */
export async function withStorage<T> (app: FastifyInstance, work: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await openStorage(app.config, app.collections)
  try {
    return await work(storage)
  } finally {
    await storage.close()
  }
}

export const addClient = (app: FastifyInstance, scope: string, clientId?: string) =>
  withAccounts(app, store => createClient(store, scopesOf(app.collections.resources), { scope, clientId }))

/** Counts the calls of `method` on a collection's store, which still answers them: what a request asked of the store. */
export function countCalls (t: Test, store: CollectionStore, method: 'getMany' | 'children' | 'list'): { calls: number } {
  const counter = { calls: 0 }
  const original = store[method].bind(store) as (...args: unknown[]) => unknown
  ;(store as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
    counter.calls++
    return original(...args)
  }
  t.teardown(() => { delete (store as unknown as Record<string, unknown>)[method] })
  return counter
}

/** `Bearer <token>` of a new client that holds `scope` only. */
export async function bearerWith (app: FastifyInstance, scope: string): Promise<string> {
  const client = await addClient(app, scope)
  const res = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret))
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`)
  return `Bearer ${res.json().access_token as string}`
}

export const addUser = (app: FastifyInstance, username: string, password: string, scope: string) =>
  withAccounts(app, store => createUser(store, scopesOf(app.collections.resources), { username, password, scope }))

/** What the CLI did: its exit code, what it printed, and that output read as JSON. */
export interface CliRun { code: number, out: string, err: string, json: () => any }

/** Runs the CLI in-process on the app's database, as an operator would beside the running service. */
export async function cli (app: FastifyInstance, argv: string[], stdin = ''): Promise<CliRun> {
  let out = ''
  let err = ''
  const code = await runCli(argv, {
    env: cliEnv(app),
    collections: app.collections,
    stdin: async () => stdin,
    stdout: text => { out += text },
    stderr: text => { err += text }
  })
  return { code, out, err, json: () => JSON.parse(out) }
}
