import { PassThrough } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { addUser, basic, BOOTSTRAP, build, call, create, query, tokenRequest } from '../helper.ts'

interface LogLine { level: number, msg: string, reqId?: string, method?: string, path?: string, status?: number, ms?: number }

/** The API with its log captured at `level`. */
async function logged (t: Test, level = 'info'): Promise<{ app: FastifyInstance, lines: () => LogLine[], text: () => string }> {
  const stream = new PassThrough()
  let text = ''
  stream.on('data', chunk => { text += String(chunk) })
  const app = await build(t, { LOG_LEVEL: level }, stream)
  return { app, text: () => text, lines: () => text.split('\n').filter(Boolean).map(line => JSON.parse(line) as LogLine) }
}

t.test('one line per request, when answered: method, path without its query, status, milliseconds and the request id', async t => {
  const { app, lines } = await logged(t)
  const token = await tokenRequest(app, { grant_type: 'client_credentials' })
  const listed = await call(app, 'GET', '/v1/zoos?limit=5&name=Berlin', undefined, { authorization: `Bearer ${token.json().access_token}` })
  const refused = await app.inject({ method: 'GET', url: '/v1/zoos' })
  const requestLines = lines()
  t.same(requestLines.map(({ msg, method, path, status, reqId }) => ({ msg, method, path, status, reqId })), [
    { msg: 'request', method: 'POST', path: '/oauth/token', status: 200, reqId: token.headers['x-request-id'] },
    { msg: 'request', method: 'GET', path: '/v1/zoos', status: 200, reqId: listed.headers['x-request-id'] },
    { msg: 'request', method: 'GET', path: '/v1/zoos', status: 401, reqId: refused.headers['x-request-id'] }
  ])
  for (const line of requestLines) t.type(line.ms, 'number', 'with its duration')
})

t.test('every line a request logs carries its id, a fault as much as the completion', async t => {
  const { app, lines } = await logged(t)
  await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin' })
  await query(app, 'ALTER TABLE zoos RENAME TO zoos_elsewhere')
  const failed = await call(app, 'GET', '/v1/zoos/1')
  t.equal(failed.statusCode, 500)
  const id = failed.headers['x-request-id']
  t.same(lines().filter(line => line.reqId === id).map(line => [line.level, line.msg]), [[50, 'request failed'], [30, 'request']])
})

t.test('a well-formed X-Request-Id from a proxy names the request; anything else is replaced by an id of ours', async t => {
  const { app, lines } = await logged(t)
  for (const given of ['0b5c8a5e-6b0e-4f0e-9c2e-2f7d1c1f0a11', 'f'.repeat(32), 'edge-1:req_42.7']) {
    const res = await app.inject({ method: 'GET', url: '/', headers: { 'x-request-id': given } })
    t.equal(res.headers['x-request-id'], given, `${given} kept`)
    t.equal(lines().at(-1)?.reqId, given, 'in the log too')
  }
  for (const given of ['short', 'has space inside', '-leading-dash', 'x'.repeat(129), '{"msg":"forged"}', 'a%0Ab-injected']) {
    const res = await app.inject({ method: 'GET', url: '/', headers: { 'x-request-id': given } })
    t.match(res.headers['x-request-id'], /^[0-9a-f-]{36}$/, `${given.slice(0, 20)} replaced`)
  }
  const twice = await app.inject({ method: 'GET', url: '/', headers: { 'x-request-id': ['abcdefgh1', 'abcdefgh2'] } })
  t.match(twice.headers['x-request-id'], /^[0-9a-f-]{36}$/, 'two headers: neither')
})

t.test('no token, secret or password is written to the log, whatever the level', async t => {
  const { app, text } = await logged(t, 'trace')
  const password = 'correct horse battery staple'
  await addUser(app, 'ada', password, 'zoos:read')
  const form = (params: Record<string, string>) => new URLSearchParams(params).toString()
  const asked = await tokenRequest(app, { grant_type: 'password', username: 'ada', password, scope: 'zoos:read' })
  t.equal(asked.statusCode, 200)
  const { access_token: access, refresh_token: refresh } = asked.json()
  await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refresh })
  await tokenRequest(app, { grant_type: 'password', username: 'ada', password: `${password}!` })
  await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ grant_type: 'client_credentials', client_id: BOOTSTRAP.id, client_secret: BOOTSTRAP.secret })
  })
  await app.inject({ method: 'GET', url: `/oauth/token?client_id=${BOOTSTRAP.id}&client_secret=${BOOTSTRAP.secret}` })
  await app.inject({ method: 'POST', url: `/oauth/token?client_secret=${BOOTSTRAP.secret}`, headers: { authorization: basic('x', 'y') } })
  await app.inject({ method: 'GET', url: '/v1/zoos', headers: { authorization: `Bearer ${access}` } })
  await app.inject({ method: 'GET', url: `/v1/zoos?access_token=${access}` })
  await app.inject({ method: 'POST', url: '/oauth/revoke', headers: { authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret) }, payload: {} })
  t.ok(text().length > 0, 'something was logged')
  for (const [what, secret] of [['password', password], ['client secret', BOOTSTRAP.secret], ['access token', access],
    ['refresh token', refresh], ['basic credentials', basic(BOOTSTRAP.id, BOOTSTRAP.secret).slice(6)]] as const) {
    t.notOk(text().includes(secret), `no ${what}`)
  }
})
