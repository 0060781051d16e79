import { once } from 'node:events'
import { connect as netConnect } from 'node:net'
import { request as httpsRequest } from 'node:https'
import t from 'tap'
import { HELMET, http2Request, http2Session, https1, httpsBearer, listenHttps, negotiate } from './helper.ts'

t.test('HTTP/1.1 over TLS: the root document, with https:// hrefs and the security headers', async t => {
  const { port, tls } = await listenHttps(t)
  const res = await https1(port, tls.cert, { path: '/' })
  t.equal(res.alpn, 'http/1.1', 'ALPN chose http/1.1, the only protocol offered')
  t.equal(res.status, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  t.equal(res.json().link.href, `https://localhost:${port}/v1`)
  t.match(res.headers, HELMET)
})

t.test('HTTP/1.1 over TLS: a bearer token from the token endpoint opens /v1', async t => {
  const { port, tls } = await listenHttps(t)
  const refused = await https1(port, tls.cert, { path: '/v1' })
  t.equal(refused.status, 401)
  t.match(refused.headers, HELMET, 'an error answer carries the security headers too')
  const authorization = await httpsBearer(port, tls.cert)
  const res = await https1(port, tls.cert, { path: '/v1', headers: { authorization } })
  t.equal(res.status, 200)
  t.same(res.json().link, { rel: 'self', href: `https://localhost:${port}/v1`, title: 'Zoo API version 1', type: 'application/json' })
})

t.test('ALPN: h2 when the client offers it, http/1.1 when that is all it speaks', async t => {
  const { port, tls } = await listenHttps(t)
  t.equal(await negotiate(port, tls.cert, ['h2', 'http/1.1']), 'h2')
  t.equal(await negotiate(port, tls.cert, ['http/1.1', 'h2']), 'h2', 'the server prefers h2 whatever the order')
  t.equal(await negotiate(port, tls.cert, ['http/1.1']), 'http/1.1')
})

t.test('HTTP/2: the root document, a token, a write and a read on one session', async t => {
  const { port, tls } = await listenHttps(t)
  const session = await http2Session(t, port, tls.cert)
  t.equal(session.alpnProtocol, 'h2')
  const root = await http2Request(session, { ':method': 'GET', ':path': '/' })
  t.equal(root.status, 200)
  t.match(root.headers['content-type'], /^application\/json/)
  t.equal(root.json().link.href, `https://localhost:${port}/v1`, 'hrefs use the :authority of the request')
  t.match(root.headers, HELMET)

  const authorization = await httpsBearer(port, tls.cert)
  const created = await http2Request(session, { ':method': 'POST', ':path': '/v1/zoos', authorization, 'content-type': 'application/json' },
    JSON.stringify({ name: 'Berlin Zoo', city: 'Berlin' }))
  t.equal(created.status, 201)
  t.equal(created.headers.location, `https://localhost:${port}/v1/zoos/1`)
  const list = await http2Request(session, { ':method': 'GET', ':path': '/v1/zoos', authorization })
  t.equal(list.status, 200)
  t.equal(list.headers['x-total-count'], '1')
  t.match(list.json(), [{ id: 1, name: 'Berlin Zoo', city: 'Berlin' }])
  const missing = await http2Request(session, { ':method': 'GET', ':path': '/nowhere' })
  t.equal(missing.status, 404)
  t.same(missing.json(), { error: 'Nothing at /nowhere' })
  t.match(missing.headers, HELMET)
})

// Node.js 24 closes idle HTTP/2 sessions when the server closes (Node.js 20 kept them until their
// 72-second timeout): the test's own timeout stands for that wait.
t.test('closing the API with an idle HTTP/2 session open tells it GOAWAY and finishes', { timeout: 30_000 }, async t => {
  const { app, port, tls } = await listenHttps(t)
  const session = await http2Session(t, port, tls.cert)
  t.equal((await http2Request(session, { ':method': 'GET', ':path': '/' })).status, 200)
  const goaway = once(session, 'goaway')
  await app.close()
  const [code] = await goaway
  t.equal(code, 0, 'NO_ERROR: a graceful end')
})

t.test('a client that does not trust the certificate cannot talk to the API', async t => {
  const { port } = await listenHttps(t)
  const req = httpsRequest({ host: '127.0.0.1', servername: 'localhost', port, path: '/', agent: false })
  req.end()
  const [err] = await once(req, 'error') as [NodeJS.ErrnoException]
  t.equal(err.code, 'DEPTH_ZERO_SELF_SIGNED_CERT')
})

t.test('a plain HTTP request to the API port gets no resource', async t => {
  const { port } = await listenHttps(t)
  const socket = netConnect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.write(`GET /v1/zoos HTTP/1.1\r\nHost: localhost:${port}\r\nAccept: application/json\r\n\r\n`)
  const received: Buffer[] = []
  socket.on('data', chunk => received.push(chunk))
  socket.on('error', () => {})
  await once(socket, 'close')
  const text = Buffer.concat(received).toString('latin1')
  t.notMatch(text, /HTTP\/1\.[01] [1-5]\d\d/, 'no HTTP answer at all')
  t.notMatch(text, /[{[]/, 'no JSON')
  t.notMatch(text, /zoos/)
})
