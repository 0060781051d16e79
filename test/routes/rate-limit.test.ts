import t from 'tap'
import { build, call, tokenRequest } from '../helper.js'

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
