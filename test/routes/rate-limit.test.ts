import t from 'tap'
import type { OpenApiDocument } from '../contract.ts'
import { basic, bearer, BOOTSTRAP, build, call, tokenRequest } from '../helper.ts'

t.test('beyond RATE_LIMIT requests a minute from one address: 429 with Retry-After', async t => {
  const app = await build(t, { RATE_LIMIT: '5' })
  const token = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) {
    statuses.push((await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${token}` })).statusCode)
  }
  t.same(statuses, [200, 200, 200, 200], 'the token request counted as the first')
  const limited = await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${token}` })
  t.equal(limited.statusCode, 429)
  t.match(limited.json(), { error: /^Too many requests: at most 5 a minute; retry in / })
  t.match(limited.headers['retry-after'], /^\d+$/)
  t.equal(limited.headers['x-ratelimit-limit'], '5')
  t.equal(limited.headers['x-ratelimit-remaining'], '0')
  const tokens = await tokenRequest(app, { grant_type: 'client_credentials' })
  t.equal(tokens.statusCode, 429, 'the token endpoint is limited too: guessing secrets is slowed down')
  t.match(tokens.headers['retry-after'], /^\d+$/)
  t.equal(
    (await app.inject({ method: 'GET', url: '/v1/zoos' })).statusCode,
    401,
    'a request the bearer check refuses is answered ' + 'before it is counted'
  )
  const fromElsewhere = await app.inject({ method: 'GET', url: '/', remoteAddress: '127.0.0.2' })
  t.equal(fromElsewhere.statusCode, 200, 'another address has its own budget')
})

t.test('the document declares the 429 and the headers of the rate limit on every operation it counts, and on no other', async t => {
  const app = await build(t, { RATE_LIMIT: '1' })
  const authorization = await bearer(app)
  const { paths } = (await app.inject({ method: 'GET', url: '/documentation/json', remoteAddress: '127.0.1.1' })).json() as OpenApiDocument
  const operations = Object.entries(paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) =>
    ({ path, method: method.toUpperCase() as 'GET', operation })))
  t.ok(operations.length > 40 && operations.length < 250, 'every operation, each from an address of its own')
  for (const [i, { path, method, operation }] of operations.entries()) {
    const name = `${method} ${path}`
    const form = path.startsWith('/oauth/')
    const body = method === 'GET' || method === 'OPTIONS' ? {} : { payload: form ? 'token=x' : '{}' }
    const request = {
      method,
      url: path.replace(/\{[a-z_]+\}/g, '1'),
      remoteAddress: `127.0.2.${i}`,
      headers: {
        ...(path.startsWith('/v1') ? { authorization } : {}),
        ...(body.payload === undefined ? {} : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' })
      },
      ...body
    }
    // Whatever the first answers, it is counted; the second is the one past the limit.
    const first = await app.inject(request)
    const second = await app.inject(request)
    const counted = second.statusCode === 429
    const { responses } = operation
    t.equal(responses['429'] !== undefined, counted, `${name}: 429 declared ${counted ? '' : 'only '}where the limit counts`)
    const declaring = Object.keys(responses).filter(status => responses[status]?.headers?.['X-RateLimit-Limit'] !== undefined)
    t.same(declaring, counted ? Object.keys(responses) : [], `${name}: the limit's headers on every answer`)
    if (counted) {
      const limited = { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': /^\d+$/, 'retry-after': /^\d+$/ }
      t.match(second.headers, limited, `${name}: a 429 with them all`)
      t.match(first.headers, { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' }, `${name}: its first answer (${first.statusCode})`)
    } else {
      t.equal(first.headers['x-ratelimit-limit'], undefined, `${name}: never counted`)
    }
  }
})

t.test('RATE_LIMIT=0 turns the limit off', async t => {
  const app = await build(t, { RATE_LIMIT: '0' })
  for (let i = 0; i < 20; i++) t.equal((await app.inject({ method: 'GET', url: '/' })).statusCode, 200)
  t.notOk((await app.inject({ method: 'GET', url: '/' })).headers['x-ratelimit-limit'])
})

t.test('a background job is counted when it is queued, not again when it runs', async t => {
  const app = await build(t, { RATE_LIMIT: '3' })
  const token = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token
  const authorization = `Bearer ${token}`
  // Five jobs, each queued from an address of its own: more replays than one budget holds.
  const locations: string[] = []
  for (let i = 0; i < 5; i++) {
    const queued = await app.inject({
      method: 'POST',
      url: '/v1/zoos',
      headers: { authorization, prefer: 'respond-async', 'content-type': 'application/json' },
      payload: JSON.stringify({ name: `Zoo ${i}`, city: 'C' }),
      remoteAddress: `127.0.2.${i}`
    })
    t.equal(queued.statusCode, 202)
    locations.push(new URL(String(queued.headers.location)).pathname)
  }
  for (const [i, location] of locations.entries()) {
    let job: { status: string; result: { status: number } | null } | undefined
    for (let poll = 0; poll < 200 && !['succeeded', 'failed'].includes(job?.status ?? ''); poll++) {
      if (poll > 0) await new Promise(resolve => setTimeout(resolve, 5))
      job = (await app.inject({ method: 'GET', url: location, headers: { authorization }, remoteAddress: `127.0.3.${poll % 250}` })).json()
    }
    t.match(job, { status: 'succeeded', result: { status: 201 } }, `job ${i}`)
  }
})

t.test('behind a proxy the address is the one the proxy saw, whatever the client puts first in X-Forwarded-For', async t => {
  const app = await build(t, { RATE_LIMIT: '5', TLS: 'proxy' })
  const guess = async (spoofed: string, via = '203.0.113.7') => (await app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress: '127.0.0.1',
    headers: {
      'x-forwarded-proto': 'https',
      // The proxy appends the address it received the request from to what the client sent.
      'x-forwarded-for': `${spoofed}, ${via}`,
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(BOOTSTRAP.id, 'a wrong secret 0123456789')
    },
    payload: 'grant_type=client_credentials'
  })).statusCode
  const statuses = []
  for (let i = 0; i < 7; i++) statuses.push(await guess(`10.0.0.${i}`))
  t.same(statuses, [401, 401, 401, 401, 401, 429, 429], 'a new first entry each time gets no new budget')
  t.equal(await guess('10.0.0.99', '198.51.100.1'), 401, 'another client behind the proxy has its own')
})

t.test('TRUST_PROXY names the proxies: with two in front, the address is the one the outer proxy saw', async t => {
  const app = await build(t, { RATE_LIMIT: '2', TLS: 'proxy', TRUST_PROXY: '2' })
  const get = async (chain: string) => (await app.inject({
    method: 'GET', url: '/', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': chain }
  })).statusCode
  t.same([await get('1.1.1.1, 203.0.113.7, 10.0.0.2'), await get('2.2.2.2, 203.0.113.7, 10.0.0.2'), await get('203.0.113.7, 10.0.0.2')],
    [200, 200, 429])
  t.equal(await get('203.0.113.8, 10.0.0.2'), 200)
})

t.test('a Redis that cannot be reached stops start-up in one line naming REDIS_URL, without its password', async t => {
  await t.rejects(build(t, { RATE_LIMIT: '5', REDIS_URL: 'redis://counter:s3cret@127.0.0.1:1' }), {
    message: /^REDIS_URL: redis:\/\/counter:\*\*\*@127\.0\.0\.1:1 cannot be reached \(.+\)$/
  })
})
