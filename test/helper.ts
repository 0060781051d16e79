import { join } from 'node:path'
import type { Writable } from 'node:stream'
import Database from 'better-sqlite3'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { buildApi } from '../app.js'
import { loadConfig, type Config } from '../config.js'

/** The API built in-process on a fresh data directory (or a given one), closed at teardown. */
export async function build (t: Test, settings: Record<string, string> = {}, logStream?: Writable): Promise<FastifyInstance> {
  const config: Config = loadConfig({ DATA_DIR: t.testdir(), LOG_LEVEL: 'silent', ...settings }, [])
  const app = buildApi(config, logStream === undefined ? {} : { logStream })
  t.teardown(() => app.close())
  await app.ready()
  return app
}

/** `inject` with a JSON body when one is given. */
export async function call (app: FastifyInstance, method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) })
  })
}

/** Creates one record through the API and returns it. */
export async function create (app: FastifyInstance, collection: string, body: Record<string, unknown>): Promise<Record<string, unknown> & { id: number }> {
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
