import t from 'tap'
import { build, call } from '../helper.ts'

const preflight = (origin: string, method = 'POST') => ({
  origin,
  'access-control-request-method': method,
  'access-control-request-headers': 'authorization, content-type'
})

t.test('a preflight is answered by the CORS layer, before the bearer guard', async t => {
  const app = await build(t, { CORS_ORIGINS: 'https://app.example.com, http://localhost:3000' })
  const res = await app.inject({ method: 'OPTIONS', url: '/v1/zoos', headers: preflight('https://app.example.com') })
  t.equal(res.statusCode, 204)
  t.equal(res.body, '')
  t.equal(res.headers['access-control-allow-origin'], 'https://app.example.com')
  t.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS')
  t.equal(res.headers['access-control-allow-headers'], 'Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Prefer')
  t.equal(res.headers['access-control-max-age'], '600')

  const stranger = await app.inject({ method: 'OPTIONS', url: '/v1/zoos', headers: preflight('https://evil.example') })
  t.equal(stranger.statusCode, 204)
  t.notOk(stranger.headers['access-control-allow-origin'], 'an origin not listed gets no permission')

  const get = await call(app, 'GET', '/v1/zoos', undefined, { origin: 'http://localhost:3000' })
  t.equal(get.statusCode, 200)
  t.equal(get.headers['access-control-allow-origin'], 'http://localhost:3000')
  t.match(get.headers['access-control-expose-headers'], /Link, X-Total-Count/)
  t.match(get.headers.vary, /Origin/)
})

t.test('an OPTIONS request that is not a preflight describes the collection', async t => {
  const app = await build(t, { CORS_ORIGINS: '*' })
  const res = await call(app, 'OPTIONS', '/v1/zoos', undefined, { origin: 'https://app.example.com' })
  t.equal(res.statusCode, 200)
  t.equal(res.headers.allow, 'GET, HEAD, POST, PATCH, DELETE, OPTIONS')
  t.same(res.json().writable, ['name', 'city', 'country', 'opened_on'])
  const any = await app.inject({ method: 'OPTIONS', url: '/v1/animals', headers: preflight('https://anywhere.example', 'DELETE') })
  t.equal(any.statusCode, 204)
  t.equal(any.headers['access-control-allow-origin'], '*')
})

t.test('without CORS_ORIGINS no origin is allowed', async t => {
  const app = await build(t)
  const res = await app.inject({ method: 'OPTIONS', url: '/v1/zoos', headers: preflight('https://app.example.com') })
  t.equal(res.statusCode, 204)
  t.notOk(res.headers['access-control-allow-origin'])
  const get = await call(app, 'GET', '/v1/zoos', undefined, { origin: 'https://app.example.com' })
  t.equal(get.statusCode, 200)
  t.notOk(get.headers['access-control-allow-origin'])
})

t.test('in proxy mode a preflight not forwarded over HTTPS is refused like any request, with helmet headers', async t => {
  const app = await build(t, { TLS: 'proxy', CORS_ORIGINS: 'https://app.example.com' })
  const plain = await app.inject({ method: 'OPTIONS', url: '/v1/zoos', headers: preflight('https://app.example.com') })
  t.equal(plain.statusCode, 403)
  t.same(plain.json(), { error: 'HTTPS required' })
  t.notOk(plain.headers['access-control-allow-origin'])
  const forwarded = await app.inject({
    method: 'OPTIONS',
    url: '/v1/zoos',
    headers: { ...preflight('https://app.example.com'), 'x-forwarded-proto': 'https' }
  })
  t.equal(forwarded.statusCode, 204)
  t.equal(forwarded.headers['access-control-allow-origin'], 'https://app.example.com')
  t.match(forwarded.headers['strict-transport-security'], /max-age=/)
})
