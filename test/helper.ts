import { join } from 'node:path'
import type { Writable } from 'node:stream'
import Database from 'better-sqlite3'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { buildApi } from '../app.js'
import { createClient, createUser } from '../auth/accounts.js'
import { loadConfig, type Config } from '../config.js'
import { OAuthStore } from '../store/oauth.js'
import { checkContract } from './contract.js'

/** The bootstrap client every test app gets: it holds every scope. */
export const BOOTSTRAP = { id: 'test-bootstrap', secret: 'test-bootstrap-secret-0123456789' } as const

/** The configuration of a test app: quiet, on `dataDir`, with the known bootstrap client. */
export function testConfig (dataDir: string, settings: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id,
    BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret,
    // Suites send hundreds of requests a minute from one address; test/routes/rate-limit.test.ts sets one.
    RATE_LIMIT: '0',
    ...settings
  }, [])
}

/** The API built in-process on a fresh data directory, every answer checked against its OpenAPI document, closed at teardown. */
export async function build (t: Test, settings: Record<string, string> = {}, logStream?: Writable): Promise<FastifyInstance> {
  const app = checkContract(t, buildApi(testConfig(t.testdir(), settings), logStream === undefined ? {} : { logStream }))
  t.teardown(() => app.close())
  await app.ready()
  return app
}

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

const bearers = new WeakMap<FastifyInstance, string>()

/** `Bearer <token>` of the bootstrap client (every scope), fetched once per app. */
export async function bearer (app: FastifyInstance): Promise<string> {
  let value = bearers.get(app)
  if (value === undefined) {
    const res = await tokenRequest(app, { grant_type: 'client_credentials' })
    if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`)
    value = `Bearer ${res.json().access_token}`
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
export function snapshot (app: FastifyInstance): Record<string, unknown[]> {
  const db = openDatabaseFile(app)
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]
    return Object.fromEntries(tables.map(name => [name, db.prepare(`SELECT * FROM "${name}"`).all()]))
  } finally {
    db.close()
  }
}

/** Clients and users made on the app's database file, as the CLI would. */
export async function withAccounts<T> (app: FastifyInstance, work: (store: OAuthStore) => Promise<T>): Promise<T> {
  const db = new Database(join(app.config.dataDir, 'zoo.db'))
  try {
    return await work(new OAuthStore(db))
  } finally {
    db.close()
  }
}

export const addClient = (app: FastifyInstance, scope: string, clientId?: string) =>
  withAccounts(app, store => createClient(store, { scope, clientId }))

export const addUser = (app: FastifyInstance, username: string, password: string, scope: string) =>
  withAccounts(app, store => createUser(store, { username, password, scope }))
