import t, { type Test } from 'tap'
import { buildApi } from '../../app.ts'
import { checkContract } from '../contract.ts'
import { BOOTSTRAP, basic, build, call, dataDir, testConfig } from '../helper.ts'
import { portOf, send } from '../local/helper.ts'
import { HELMET } from './helper.ts'

const REFUSED = { error: 'HTTPS required' }

/** The API as server.ts builds it with TLS=proxy: plain HTTP on loopback, closed at teardown. */
async function behindProxy (t: Test, settings: Record<string, string> = {}) {
  const app = checkContract(t, buildApi(testConfig(dataDir(t), { TLS: 'proxy', ...settings })))
  t.teardown(() => app.close())
  await app.listen({ host: '127.0.0.1', port: 0 })
  const port = portOf(app)
  return async (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    send(port, { method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, ...(body === undefined ? {} : { body }) })
}

t.test('a request the proxy did not receive over HTTPS is refused with 403, before anything else', async t => {
  const request = await behindProxy(t)
  const cases: [string, Record<string, string>][] = [
    ['no X-Forwarded-Proto', {}],
    ['X-Forwarded-Proto: http', { 'x-forwarded-proto': 'http' }],
    ['an empty X-Forwarded-Proto', { 'x-forwarded-proto': '' }],
    ['upper case', { 'x-forwarded-proto': 'HTTPS' }],
    ['a client that spoke http to the first of two proxies', { 'x-forwarded-proto': 'http, https' }],
    ['a second proxy reached over http', { 'x-forwarded-proto': 'https, http' }],
    ['another scheme', { 'x-forwarded-proto': 'wss' }]
  ]
  for (const [label, headers] of cases) {
    for (const path of ['/', '/v1', '/v1/zoos', '/nowhere', '/.well-known/jwks.json']) {
      const res = await request('GET', path, headers)
      t.equal(res.status, 403, `${label}: GET ${path}`)
      t.same(res.json(), REFUSED, `${label}: GET ${path}`)
    }
  }
  const html = await request('GET', '/', { accept: 'text/html' })
  t.equal(html.status, 403, 'refused before content negotiation (406)')
  const token = await request('POST', '/oauth/token', {
    authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret),
    'content-type': 'application/x-www-form-urlencoded'
  }, 'grant_type=client_credentials')
  t.equal(token.status, 403, 'no token is issued in the clear')
  t.same(token.json(), REFUSED)
  const refused = await request('GET', '/')
  t.match(refused.headers, HELMET, 'the refusal carries the security headers')
  t.match(refused.headers['content-type'], /^application\/json/)
})

t.test('over HTTPS at the proxy: served, with hrefs of the host and scheme the client used', async t => {
  const request = await behindProxy(t)
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.test' }
  const root = await request('GET', '/', forwarded)
  t.equal(root.status, 200)
  t.equal(root.json().link.href, 'https://api.example.test/v1')
  t.match(root.headers, HELMET)
  const chain = await request('GET', '/', {
    'x-forwarded-proto': 'https, https',
    'x-forwarded-host': 'edge.example.test, api.example.test'
  })
  t.equal(chain.status, 200, 'two proxies, both reached over https')
  t.equal(chain.json().link.href, 'https://api.example.test/v1', 'the host the nearest proxy was asked for')
  const noToken = await request('GET', '/v1/zoos', forwarded)
  t.equal(noToken.status, 401, 'then the usual checks apply')
  const token = await request('POST', '/oauth/token', {
    ...forwarded,
    authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret),
    'content-type': 'application/x-www-form-urlencoded'
  }, 'grant_type=client_credentials')
  t.equal(token.status, 200)
  const authorization = `Bearer ${token.json().access_token}`
  const created = await request('POST', '/v1/zoos', { ...forwarded, authorization, 'content-type': 'application/json' },
    JSON.stringify({ name: 'Berlin Zoo', city: 'Berlin' }))
  t.equal(created.status, 201)
  t.equal(created.headers.location, 'https://api.example.test/v1/zoos/1')
})

t.test('with API_PREFIX, the prefixed API is guarded the same way', async t => {
  const request = await behindProxy(t, { API_PREFIX: '/api' })
  t.equal((await request('GET', '/api/')).status, 403)
  const res = await request('GET', '/api/', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'www.example.test' })
  t.equal(res.status, 200)
  t.equal(res.json().link.href, 'https://www.example.test/api/v1')
})

t.test('with TLS=on, X-Forwarded-* headers are not trusted', async t => {
  const app = await build(t)
  const res = await call(app, 'GET', '/', undefined, {
    host: 'localhost:8443',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'evil.example'
  })
  t.equal(res.statusCode, 200, 'and not required')
  t.equal(res.json().link.href, 'http://localhost:8443/v1', 'the inject() instance is plain HTTP, and its hrefs say so')
})
