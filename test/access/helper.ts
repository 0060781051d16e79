import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import { createClient, createUser } from '../../auth/accounts.ts'
import { scopesOf } from '../../auth/scopes.ts'
import { RESOURCES } from '../../schemas/index.ts'
import { planMigration, writeMigration } from '../../store/migration-plan.ts'
import { basic, buildServing, call, routeTree, tokenRequest, withAccounts } from '../helper.ts'
import { Keepers, Rangers } from './fixture/keepers.ts'

/*
 * The collections with access rules of fixture/keepers.ts served beside the shipped ones, from
 * their schema file, route files and the migration `npm run migrations` writes, and tokens bound
 * by their rules: what test/access/keepers.test.ts and test/fuzz/access.test.ts start from.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const RESOURCES_SERVED = [...RESOURCES, Keepers, Rangers]
const ROUTES = [
  'v1/keepers/index.ts', 'v1/zoos/_zoo_id/keepers/index.ts', 'v1/rangers/index.ts', 'v1/keepers/_keeper_id/rangers/index.ts'
]

/** The collections served: the shipped ones, keepers and rangers, with their migration and routes. */
export function served (t: Test) {
  const migrations = mkdtempSync(join(tmpdir(), 'zoo-migrations-'))
  t.teardown(() => rmSync(migrations, { recursive: true, force: true }))
  cpSync(join(ROOT, 'migrations'), migrations, { recursive: true })
  const planned = planMigration(RESOURCES_SERVED, migrations)
  if (planned === undefined) throw new Error('npm run migrations found nothing to write for keepers')
  writeMigration(migrations, planned)
  const fixture = (path: string): string => fileURLToPath(new URL(`./fixture/routes/${path}`, import.meta.url))
  const routes = routeTree(t, Object.fromEntries(ROUTES.map(path => [path, fixture(path)])))
  return { resources: RESOURCES_SERVED, migrations, routes }
}

export const serve = async (t: Test): Promise<FastifyInstance> => buildServing(t, served(t))

export const SCOPE = 'keepers:read keepers:write rangers:read rangers:write zoos:read'

/** A user made with `claims`, and a bearer token of theirs from the password grant; their subject. */
export async function userToken (app: FastifyInstance, username: string, claims: Record<string, unknown>, scope = SCOPE) {
  const user = await withAccounts(app, store => createUser(store, scopesOf(app.collections.resources),
    { username, password: 'a long password', scope, claims }))
  return { bearer: await passwordBearer(app, username), sub: `user:${user.id}` }
}

export async function passwordBearer (app: FastifyInstance, username: string): Promise<string> {
  const res = await tokenRequest(app, { grant_type: 'password', username, password: 'a long password' })
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`)
  return `Bearer ${res.json().access_token as string}`
}

/** A client made with `claims` (and the id `clientId`, when given), and a bearer token of its own. */
export async function clientToken (
  app: FastifyInstance, claims: Record<string, unknown>, scope = SCOPE, clientId?: string
): Promise<string> {
  const client = await withAccounts(app, store => createClient(store, scopesOf(app.collections.resources), { scope, claims, clientId }))
  const res = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret))
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`)
  return `Bearer ${res.json().access_token as string}`
}

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

export const as = (app: FastifyInstance, bearer: string) =>
  (method: Method, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(app, method, url, body, { authorization: bearer, ...headers })

/** The bootstrap client holds every scope, keepers:all among them: no rule binds it. */
export const unbound = (app: FastifyInstance) => (method: 'GET' | 'POST', url: string, body?: unknown) => call(app, method, url, body)
