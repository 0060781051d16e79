import type { FastifyInstance } from 'fastify'
import type { Payload } from 'oauth2-mock-server'
import t from 'tap'
import { startProvider } from '../auth/oauth-provider.ts'
import { addClient, addUser, basic, BOOTSTRAP, build, call, dataDir, query, testConfig, tokenRequest } from '../helper.ts'
import { accepted, ASYNC, finished, jobPath, start, ZOO } from './helper.ts'

/** `Bearer <token>` of a new client holding `scope`. */
async function clientBearer (app: FastifyInstance, scope: string, clientId?: string): Promise<string> {
  const client = await addClient(app, scope, clientId)
  const res = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret as string))
  return `Bearer ${res.json().access_token}`
}

const unknown = (id: string) => ({ error: `No job ${id}: a job is visible only to the client that queued it` })

t.test('a job is visible only to the client that queued it: another answers 404, as for an unknown id', async t => {
  const app = await build(t)
  const path = accepted(t, await call(app, 'POST', '/v1/zoos', ZOO, ASYNC))
  const id = path.split('/').at(-1) as string
  t.equal((await finished(app, path)).status, 'succeeded')

  const other = await call(app, 'GET', path, undefined, { authorization: await clientBearer(app, 'zoos:read zoos:write') })
  t.equal(other.statusCode, 404)
  t.same(other.json(), unknown(id))
  const never = await call(app, 'GET', '/v1/jobs/3f0e1c9e-8d1b-4d0a-9a51-6f1f0f8f2a11')
  t.equal(never.statusCode, 404)
  t.same(never.json(), unknown('3f0e1c9e-8d1b-4d0a-9a51-6f1f0f8f2a11'))
  t.same(Object.keys(other.headers).sort(), Object.keys(never.headers).sort(), 'the same headers too')
  t.equal((await call(app, 'GET', '/v1/jobs/1')).statusCode, 404, 'an id of another shape is just unknown')

  // A user signing in through the same client is someone else too (a sign-in client is shared by all its users).
  await addUser(app, 'ada', 'ada-password-0123', 'zoos:read zoos:write')
  const user = await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'ada-password-0123' })
  const asUser = await call(app, 'GET', path, undefined, { authorization: `Bearer ${user.json().access_token}` })
  t.equal(asUser.statusCode, 404)

  const noToken = await app.inject({ method: 'GET', url: path })
  t.equal(noToken.statusCode, 401)
  t.equal(noToken.headers['www-authenticate'], 'Bearer realm="zoo-api"')
})

t.test('an id no job has, a null byte included, is unknown: 404, never a 500', async t => {
  const app = await build(t)
  // The fuzzer's find (test/fuzz/api.test.ts): PostgreSQL refuses a text holding a null byte.
  for (const id of ['%00', 'a%00b', '3f0e1c9e-8d1b-4d0a-9a51-6f1f0f8f2a1%00', '%E2%80%AE', 'x'.repeat(100)]) {
    const res = await call(app, 'GET', `/v1/jobs/${id}`)
    t.equal(res.statusCode, 404, id)
    t.same(res.json(), unknown(decodeURIComponent(id)), id)
  }
})

t.test('reading a job needs a valid token and no particular scope', async t => {
  const app = await build(t)
  const writer = await clientBearer(app, 'animals:write')
  const knut = { name: 'Knut', species: 'Polar bear', animal_type_id: 3 }
  const path = accepted(t, await call(app, 'POST', '/v1/animals', knut, { ...ASYNC, authorization: writer }))
  const job = await finished(app, path, { authorization: writer })
  t.match(job, { status: 'succeeded', result: { status: 201, body: { name: 'Knut' } } })
  const head = await call(app, 'HEAD', path, undefined, { authorization: writer })
  t.equal(head.statusCode, 200)
  t.equal(head.body, '')
})

t.test('a user\'s job is the user\'s', async t => {
  const app = await build(t)
  await addUser(app, 'ada', 'ada-password-0123', 'zoos:write')
  const tokens = await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'ada-password-0123' })
  const authorization = `Bearer ${tokens.json().access_token}`
  const path = accepted(t, await call(app, 'POST', '/v1/zoos', ZOO, { ...ASYNC, authorization }))
  t.equal((await finished(app, path, { authorization })).status, 'succeeded')
  t.equal((await call(app, 'GET', path)).statusCode, 404, 'not the client\'s own')
})

t.test('only GET and HEAD are served on a job; unknown query parameters are refused', async t => {
  const app = await build(t)
  const path = accepted(t, await call(app, 'POST', '/v1/zoos', ZOO, ASYNC))
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
    const res = await call(app, method, path, undefined, ASYNC)
    t.equal(res.statusCode, 405, method)
    t.equal(res.headers.allow, 'GET, HEAD')
    t.same(res.json(), { error: `${method} is not allowed here; allowed: GET, HEAD` })
  }
  const query = await call(app, 'GET', `${path}?verbose=1`)
  t.equal(query.statusCode, 400)
  t.equal((await call(app, 'GET', '/v1/jobs')).statusCode, 404, 'jobs are not listed')
})

t.test('a queued job says so, with Retry-After', async t => {
  const app = await start(t, testConfig(dataDir(t)), { runJobs: false })
  const path = accepted(t, await call(app, 'POST', '/v1/zoos', ZOO, ASYNC))
  const res = await call(app, 'GET', path)
  t.equal(res.statusCode, 200)
  t.equal(res.headers['retry-after'], '1')
  t.equal(res.headers['cache-control'], 'private, no-cache')
  t.match(res.json(), { status: 'queued', finished_at: null, result: null })
})

t.test('a user may have at most 100 jobs waiting: the next is 429 with Retry-After, and others still queue theirs', async t => {
  const app = await start(t, testConfig(dataDir(t)), { runJobs: false })
  const batch = Array.from({ length: 100 }, async () => call(app, 'POST', '/v1/zoos', ZOO, ASYNC))
  t.same([...new Set((await Promise.all(batch)).map(res => res.statusCode))], [202])
  const refused = await call(app, 'POST', '/v1/zoos', ZOO, ASYNC)
  t.equal(refused.statusCode, 429)
  t.match(refused.json(), { error: /^100 jobs of yours are waiting/ })
  t.ok(Number(refused.headers['retry-after']) > 0)
  t.equal((await call(app, 'GET', '/v1/zoos')).headers['x-total-count'], '0', 'nothing written')
  const other = await clientBearer(app, 'zoos:read zoos:write')
  t.equal((await call(app, 'POST', '/v1/zoos', ZOO, { ...ASYNC, authorization: other })).statusCode, 202)

  // A 429 is "not now", not an answer: the key it came with stays free for the retry.
  const keyed = { ...ASYNC, 'idempotency-key': 'later' }
  t.equal((await call(app, 'POST', '/v1/zoos', ZOO, keyed)).statusCode, 429)
  await query(app, "DELETE FROM jobs WHERE status = 'queued'", [])
  const retried = await call(app, 'POST', '/v1/zoos', ZOO, keyed)
  t.equal(retried.statusCode, 202, 'the retry is queued, not the 429 replayed')
  t.notOk(retried.headers['idempotent-replayed'])
})

t.test('under API_PREFIX the Location and the replay include it', async t => {
  const app = await build(t, { API_PREFIX: '/api' })
  const path = accepted(t, await call(app, 'POST', '/api/v1/zoos', ZOO, ASYNC), '/api')
  t.match(await finished(app, path), { status: 'succeeded', result: { status: 201, body: ZOO } })
})

t.test('behind a TLS-terminating proxy the replay is taken as received over HTTPS', async t => {
  const app = await build(t, { TLS: 'proxy' })
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'zoo.example.com' }
  const token = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { ...forwarded, authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret), 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=client_credentials'
  })
  const headers = { ...forwarded, authorization: `Bearer ${token.json().access_token}` }
  const res = await call(app, 'POST', '/v1/zoos', ZOO, { ...ASYNC, ...headers })
  t.equal(res.statusCode, 202)
  t.match(res.headers.location, /^https:\/\/zoo\.example\.com\/v1\/jobs\//)
  t.match(await finished(app, jobPath(res), headers), { status: 'succeeded', result: { status: 201 } })
})

t.test('an external issuer\'s client is not the local client of the same id', async t => {
  const provider = await startProvider()
  t.teardown(() => provider.stop())
  const issuer = provider.issuer.url as string
  const audience = 'https://zoo.example.test/v1'
  const app = await build(t, { OAUTH_ISSUER: issuer, OAUTH_JWKS_URI: `${issuer}/jwks`, OAUTH_AUDIENCE: audience })
  const external = `Bearer ${await provider.issuer.buildToken({
    scopesOrTransform: (_header, payload: Payload) => {
      Object.assign(payload, { sub: BOOTSTRAP.id, aud: audience, client_id: BOOTSTRAP.id, scope: 'zoos:write' })
    }
  })}`
  const path = accepted(t, await call(app, 'POST', '/v1/zoos', ZOO, { ...ASYNC, authorization: external }))
  t.match(await finished(app, path, { authorization: external }), { status: 'succeeded', result: { status: 201, body: ZOO } })
  t.equal((await call(app, 'GET', path)).statusCode, 404, 'the local client of that id does not see it')
  const local = accepted(t, await call(app, 'POST', '/v1/zoos', ZOO, ASYNC))
  t.equal((await call(app, 'GET', local, undefined, { authorization: external })).statusCode, 404, 'nor the other way round')
})
