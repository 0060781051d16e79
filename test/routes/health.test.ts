import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { buildApi } from '../../app.ts'
import { build, call, query, testConfig, tokenRequest } from '../helper.ts'
import type { Storage } from '../../store/storage.ts'
import { checkContract } from '../contract.ts'

const READY = { status: 'ready', checks: { database: 'ok', migrations: 'ok', jobs: 'ok' } }

t.test('/health and /ready answer without a token, under API_PREFIX too, and are in the document', async t => {
  for (const prefix of ['', '/api']) {
    const app = await build(t, { API_PREFIX: prefix })
    const health = await app.inject({ method: 'GET', url: `${prefix}/health` })
    t.equal(health.statusCode, 200)
    t.same(health.json(), { status: 'ok' })
    const ready = await app.inject({ method: 'GET', url: `${prefix}/ready` })
    t.equal(ready.statusCode, 200)
    t.same(ready.json(), READY)
    t.equal((await app.inject({ method: 'HEAD', url: `${prefix}/ready` })).statusCode, 200, 'HEAD too')
    const document = (await app.inject({ method: 'GET', url: `${prefix}/documentation/json` })).json()
    t.match(document.paths['/health'].get, { operationId: 'getHealth', tags: ['operations'] })
    t.match(document.paths['/ready'].get, { operationId: 'getReady', tags: ['operations'] })
    t.same(document.paths['/ready'].get.security, [], 'public')
  }
})

t.test('the probes are neither logged nor rate-limited, and answer a load balancer over plain HTTP behind a proxy', async t => {
  const logs = new PassThrough()
  let logged = ''
  logs.on('data', chunk => { logged += String(chunk) })
  const app = await build(t, { RATE_LIMIT: '3', LOG_LEVEL: 'info', TLS: 'proxy' }, logs)
  for (let i = 0; i < 10; i++) {
    // No X-Forwarded-Proto: the balancer asks the instance itself.
    t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200)
    t.equal((await app.inject({ method: 'GET', url: '/ready' })).statusCode, 200)
  }
  t.equal((await app.inject({ method: 'GET', url: '/' })).statusCode, 403, 'anything else still needs HTTPS')
  const root = { method: 'GET' as const, url: '/', headers: { 'x-forwarded-proto': 'https' } }
  t.same([(await app.inject(root)).statusCode, (await app.inject(root)).statusCode, (await app.inject(root)).statusCode],
    [200, 200, 200], 'the probes used none of the budget')
  t.equal((await app.inject(root)).statusCode, 429)
  const paths = logged.split('\n').filter(Boolean).map(line => JSON.parse(line).path).filter(Boolean)
  t.same(new Set(paths), new Set(['/']), 'only the other requests are logged')
})

t.test('/ready is 503 while the database does not answer, a migration is missing or the job worker is not running', async t => {
  const unmigrated = await build(t)
  await query(unmigrated, 'DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)')
  const missing = await unmigrated.inject({ method: 'GET', url: '/ready' })
  t.equal(missing.statusCode, 503)
  t.match(missing.json(), {
    error: /^Not ready: migrations not applied: \d+_\w+\.sql$/,
    checks: { database: 'ok', migrations: /^not applied: /, jobs: 'ok' }
  })

  // The storage is the API plugin's, out of reach from the outside: a request's server is that plugin.
  const lost = checkContract(t, buildApi(testConfig(join(t.testdir(), 'lost'))))
  t.teardown(() => lost.close())
  let storage: Storage | undefined
  lost.addHook('onRequest', (request, _reply, done) => {
    storage ??= (request.server as FastifyInstance & { storage?: Storage }).storage
    done()
  })
  await lost.ready()
  t.equal((await lost.inject({ method: 'GET', url: '/ready' })).statusCode, 200)
  await storage?.close()
  const gone = await lost.inject({ method: 'GET', url: '/ready' })
  t.equal(gone.statusCode, 503)
  t.same(gone.json(), {
    error: 'Not ready: database does not answer; migrations unknown',
    checks: { database: 'does not answer', migrations: 'unknown', jobs: 'ok' }
  })
  t.equal((await lost.inject({ method: 'GET', url: '/health' })).statusCode, 200, 'the process still answers')

  const idle = checkContract(t, buildApi(testConfig(join(t.testdir(), 'idle')), { runJobs: false }))
  t.teardown(() => idle.close())
  await idle.ready()
  const stopped = await idle.inject({ method: 'GET', url: '/ready' })
  t.equal(stopped.statusCode, 503)
  t.same(stopped.json().checks, { database: 'ok', migrations: 'ok', jobs: 'the worker is not running' })
})

/** Keeps the event loop busy in slices of `sliceMs`, each followed by one turn of the loop, until `until` resolves. */
async function overload (sliceMs: number, until: Promise<unknown>): Promise<void> {
  const state = { done: false }
  until.finally(() => { state.done = true }).catch(() => {})
  while (!state.done) {
    const end = Date.now() + sliceMs
    while (Date.now() < end);
    await new Promise(resolve => setImmediate(resolve))
  }
}

/** Whether the API answers 200 again within five seconds (a token fetched on the way). */
async function recovers (app: FastifyInstance): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if ((await call(app, 'GET', '/v1/zoos').catch(() => undefined))?.statusCode === 200) return true
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return false
}

interface Seen { path: string, status: number, retryAfter: unknown, body: unknown }

/**
 * Requests to `paths` (the token endpoint among them) in turn while the event loop is kept busy,
 * until `enough` says so (or a thousand rounds have passed).
 */
async function underLoad (app: FastifyInstance, paths: string[], enough: (seen: Seen[]) => boolean): Promise<Seen[]> {
  const seen: Seen[] = []
  const probing = (async () => {
    for (let round = 0; round < 1000 && !enough(seen); round++) {
      for (const path of paths) {
        const res = path === '/oauth/token' ? await tokenRequest(app, { grant_type: 'client_credentials' }) : await call(app, 'GET', path)
        seen.push({ path, status: res.statusCode, retryAfter: res.headers['retry-after'], body: res.json() })
      }
    }
  })()
  await overload(100, probing)
  await probing
  return seen
}

t.test('an overloaded event loop gets 503 with Retry-After at once, /health still 200, until it recovers', async t => {
  const app = await build(t, { MAX_EVENT_LOOP_DELAY: '50' })
  t.ok(await recovers(app), 'the busy start-up is over')
  const refused = ['/v1/zoos', '/ready', '/oauth/token']
  const seen = await underLoad(app, [...refused, '/health'],
    seen => refused.every(path => seen.some(s => s.path === path && s.status === 503)))
  const refusal = (path: string) => seen.find(s => s.path === path && s.status === 503)
  t.match(refusal('/v1/zoos'), { retryAfter: '5', body: { error: 'The server is overloaded; retry in 5 s (Retry-After)' } },
    'a resource is refused')
  t.match(refusal('/ready'), { retryAfter: '5', body: { error: /overloaded/ } }, 'the instance leaves the balancer')
  t.match(refusal('/oauth/token'), { retryAfter: '5', body: { error: 'temporarily_unavailable', error_description: /overloaded/ } },
    'the token endpoint says it in its own words')
  t.same(seen.filter(s => s.path === '/health' && s.status !== 200), [], '/health always answers')

  t.ok(await recovers(app), 'answered again once the loop keeps up')
})

t.test('MAX_EVENT_LOOP_DELAY=0 turns the check off', async t => {
  const app = await build(t, { MAX_EVENT_LOOP_DELAY: '0' })
  await call(app, 'GET', '/v1/zoos')
  // Three seconds: the delay is sampled every second.
  const until = Date.now() + 3000
  const seen = await underLoad(app, ['/v1/zoos', '/ready'], () => Date.now() > until)
  t.same(seen.filter(s => s.status !== 200), [], 'nothing refused however late the loop runs')
})
