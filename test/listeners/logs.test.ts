import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import Fastify, { type FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { buildApi } from '../../app.ts'
import { equipInstance, instanceOptions } from '../../listeners/instance-options.ts'
import { loadTls } from '../../listeners/tls.ts'
import { addUser, basic, BOOTSTRAP, build, call, create, dataDir, query, testConfig, tokenRequest } from '../helper.ts'
import { portOf, sendRaw } from '../local/helper.ts'
import { captured, holds, untilClosed } from './helper.ts'

interface LogLine { level: number, msg: string, reqId?: string, method?: string, path?: string, status?: number, ms?: number }

/** The API with its log captured at `level`. */
async function logged (t: Test, level = 'info'): Promise<{ app: FastifyInstance, lines: () => LogLine[], text: () => string }> {
  const { stream, text } = captured()
  const app = await build(t, { LOG_LEVEL: level }, stream)
  return { app, text, lines: () => text().split('\n').filter(Boolean).map(line => JSON.parse(line) as LogLine) }
}

/** Fails for each of `secrets` found in `log`. */
function noneIn (t: Test, log: string, secrets: Record<string, string>): void {
  for (const [what, secret] of Object.entries(secrets)) t.notOk(holds(log, secret), `no ${what}`)
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
  noneIn(t, text(), {
    password,
    'client secret': BOOTSTRAP.secret,
    'access token': access,
    'refresh token': refresh,
    'basic credentials': basic(BOOTSTRAP.id, BOOTSTRAP.secret).slice(6)
  })
})

t.test('a request the server cannot parse is answered and logged without the bytes it carried', async t => {
  const { app, text } = await logged(t, 'trace')
  await app.listen({ port: 0, host: '127.0.0.1' })
  const token = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token as string
  const password = 'correct-horse-battery-staple'
  const client = basic(BOOTSTRAP.id, BOOTSTRAP.secret)
  const form = `grant_type=password&username=ada&password=${password}`
  const malformed = {
    'a header name with a space': `POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${client}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\nBad Header: 1\r\n\r\n${form}`,
    'a bearer token in another header, then a bad header': 'GET /v1/zoos HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      `X-Forwarded-Authorization: Bearer ${token}\r\nX-Token: ${token}\r\nBad\u0001Header: 1\r\n\r\n`,
    'a form body in a broken chunk': `POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${client}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${form}\r\n0\r\n\r\n`,
    'a token in the query of a broken request line': `GET /v1/zoos?access_token=${token} HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n`,
    'headers past MAX_HEADER_SIZE': `POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${client}\r\n` +
      `X-Token: ${token}\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\n`
  }
  for (const [what, request] of Object.entries(malformed)) {
    const { status, body } = await sendRaw(portOf(app), request)
    t.ok(status === 400 || status === 431, `${what}: ${status}`)
    t.type(JSON.parse(body).error, 'string', 'with a JSON error')
  }
  t.match(text(), /client error/, 'the errors were logged')
  noneIn(t, text(), { password, 'client secret': BOOTSTRAP.secret, 'basic credentials': client.slice(6), 'access token': token })
})

t.test('over TLS too, what a request the server cannot read carries is not logged: HTTP/1.1, HTTP/2 or no TLS at all', async t => {
  const { stream, text } = captured()
  const config = testConfig(dataDir(t), { LOG_LEVEL: 'trace' })
  const tls = await loadTls(config)
  const app = buildApi(config, { tls, logStream: stream })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const secure = async (protocol: string): Promise<Socket> => {
    const socket = tlsConnect({ host: '127.0.0.1', servername: 'localhost', port: portOf(app), ca: tls.cert, ALPNProtocols: [protocol] })
    await once(socket, 'secureConnect')
    return socket
  }
  const password = 'correct-horse-battery-staple'
  const client = basic(BOOTSTRAP.id, BOOTSTRAP.secret)
  const form = `password=${password}`
  const request = `POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${client}\r\nBad Header: 1\r\n` +
    `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`
  t.match(await untilClosed(await secure('http/1.1'), request), /^HTTP\/1\.1 400 /, 'HTTP/1.1 through ALPN: 400')
  await untilClosed(await secure('h2'), `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n${request}`)
  const plain = connect(portOf(app), '127.0.0.1')
  await once(plain, 'connect')
  await untilClosed(plain, request)
  t.match(text(), /client error/, 'the HTTP/1.1 error was logged')
  noneIn(t, text(), { password, 'client secret': BOOTSTRAP.secret, 'basic credentials': client.slice(6) })
})

t.test('a request target in absolute form is logged by its path alone: the user information in it is a credential', async t => {
  const { app, text, lines } = await logged(t, 'trace')
  await app.listen({ port: 0, host: '127.0.0.1' })
  const secret = 'userinfo-secret-0123456789'
  const { status } = await sendRaw(portOf(app),
    `GET http://ada:${secret}@127.0.0.1/v1/zoos?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
  t.equal(status, 401)
  t.match(lines().find(line => line.msg === 'request'), { method: 'GET', path: '/v1/zoos', status: 401 })
  t.notOk(holds(text(), secret), 'no user information')
})

t.test('every instance\'s log writes a request by its path and an error without the members a request put in it', async t => {
  // The shared options alone, with Fastify's own error handler, which the metrics listener and the
  // API's paths outside API_PREFIX answer with.
  const { stream, text } = captured()
  const settings = testConfig(dataDir(t), { LOG_LEVEL: 'trace' })
  const app = Fastify(instanceOptions(settings, 'bare', stream))
  equipInstance(app, settings)
  t.teardown(() => app.close())
  const secret = 'member-secret-0123456789'
  app.get('/fails', async () => {
    throw Object.assign(new Error('the fault', { cause: Object.assign(new Error('its cause'), { detail: secret }) }),
      { code: 'E_FAULT', rawPacket: Buffer.from(secret), detail: `Failing row contains (${secret})` })
  })
  const res = await app.inject({ method: 'GET', url: `/fails?access_token=${secret}` })
  t.equal(res.statusCode, 500)
  const fault = text().split('\n').filter(Boolean).map(line => JSON.parse(line) as LogLine & { req?: unknown, err?: unknown })
    .find(line => line.level === 50 && line.err !== undefined)
  t.match(fault, {
    req: { method: 'GET', path: '/fails' },
    err: { type: 'Error', message: 'the fault', code: 'E_FAULT', cause: { message: 'its cause' } }
  }, 'the fault is logged, with its request, code and cause')
  t.notOk(holds(text(), secret), 'nothing the request carried')
})
