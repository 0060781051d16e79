import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import t, { type Test } from 'tap'
import { buildApi } from '../../app.ts'
import { checkContract } from '../contract.ts'
import { build, call, dataDir, testConfig } from '../helper.ts'
import { buildLocal, portOf, post } from '../local/helper.ts'
import { http2Request, http2Session, https1, listenHttps } from '../tls/helper.ts'
import { untilClosed } from './helper.ts'

/** The API behind a (pretend) TLS-terminating proxy, listening on loopback; closed at teardown. */
async function plainApi (t: Test, settings: Record<string, string>): Promise<number> {
  const app = checkContract(t, buildApi(testConfig(dataDir(t), { TLS: 'proxy', ...settings })))
  t.teardown(() => app.close())
  await app.listen({ host: '127.0.0.1', port: 0 })
  return portOf(app)
}

const plainSocket = async (t: Test, port: number): Promise<Socket> => {
  const socket = connect(port, '127.0.0.1')
  t.teardown(() => socket.destroy())
  await once(socket, 'connect')
  return socket
}

t.test('a body larger than BODY_LIMIT is 413 with {error}, and nothing is written', async t => {
  const app = await build(t, { BODY_LIMIT: '2048' })
  const res = await call(app, 'POST', '/v1/zoos', { name: 'x'.repeat(100), city: 'y'.repeat(3000) })
  t.equal(res.statusCode, 413)
  t.same(res.json(), { error: 'The body is larger than the 2048 bytes this server accepts' })
  t.equal((await call(app, 'GET', '/v1/zoos')).headers['x-total-count'], '0')
  t.equal((await call(app, 'POST', '/v1/zoos', { name: 'Small', city: 'Zoo' })).statusCode, 201, 'a body within it is taken')
  const local = await buildLocal(t, {})
  const tool = await post(local, '/list_directory', { path: `/${'x'.repeat(70_000)}` }, { host: 'localhost' })
  t.same([tool.statusCode, tool.json()], [413, { error: 'The body is larger than the 65536 bytes this server accepts' }],
    'the local tool server too, at its own limit')
})

t.test('HTTP/1.1: a client slow with its headers or its body is answered 408 and cut off', async t => {
  const port = await plainApi(t, { HEADERS_TIMEOUT: '1', REQUEST_TIMEOUT: '2' })
  const headers = await untilClosed(await plainSocket(t, port), 'GET / HTTP/1.1\r\nHost: localhost\r\n')
  t.match(headers, /^HTTP\/1\.1 408 /, 'headers never finished')
  // The token endpoint reads the body before anything else is decided.
  const body = await untilClosed(await plainSocket(t, port), 'POST /oauth/token HTTP/1.1\r\nHost: localhost\r\n' +
    'X-Forwarded-Proto: https\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 50\r\n\r\ngrant_type=')
  t.match(body, /^HTTP\/1\.1 408 /, 'body never finished')
})

t.test('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT', async t => {
  const port = await plainApi(t, { KEEP_ALIVE_TIMEOUT: '1' })
  const answered = await untilClosed(await plainSocket(t, port),
    'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n')
  t.match(answered, /^HTTP\/1\.1 200 /)
  t.match(answered, /keep-alive/i, 'kept alive after the answer, then closed by the server')
})

t.test('a header block larger than MAX_HEADER_SIZE is 431, over HTTP/1.1 and through HTTPS alike', async t => {
  const big = `X-Padding: ${'p'.repeat(3000)}\r\n`
  const port = await plainApi(t, { MAX_HEADER_SIZE: '2048' })
  t.match(await untilClosed(await plainSocket(t, port), `GET /health HTTP/1.1\r\nHost: localhost\r\n${big}\r\n`), /^HTTP\/1\.1 431 /)
  const small = await untilClosed(await plainSocket(t, port), 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
  t.match(small, /^HTTP\/1\.1 200 /, 'a smaller one is served')

  const { port: httpsPort, tls } = await listenHttps(t, { MAX_HEADER_SIZE: '2048' })
  const secure = tlsConnect({ host: '127.0.0.1', servername: 'localhost', port: httpsPort, ca: tls.cert, ALPNProtocols: ['http/1.1'] })
  t.teardown(() => secure.destroy())
  await once(secure, 'secureConnect')
  t.match(await untilClosed(secure as unknown as Socket, `GET /health HTTP/1.1\r\nHost: localhost\r\n${big}\r\n`), /^HTTP\/1\.1 431 /,
    'the HTTPS listener\'s HTTP/1.1')
})

t.test('HTTP/2: the server announces HTTP2_MAX_STREAMS and MAX_HEADER_SIZE, and refuses a larger header block', async t => {
  const { port, tls } = await listenHttps(t, { HTTP2_MAX_STREAMS: '7', MAX_HEADER_SIZE: '4096' })
  const session = await http2Session(t, port, tls.cert)
  // Answered, the first request has the server's SETTINGS frame read too.
  t.equal((await http2Request(session, { ':method': 'GET', ':path': '/health' })).status, 200)
  t.match(session.remoteSettings, { maxConcurrentStreams: 7, maxHeaderListSize: 4096 })
  const refused = await http2Request(session, { ':method': 'GET', ':path': '/health', 'x-padding': 'p'.repeat(8000) })
    .then(answer => answer.status, (err: Error) => err.message)
  t.not(refused, 200, `not served: ${refused}`)
})

t.test('hundreds of idle and half-finished connections do not keep /health from answering', async t => {
  const { port, tls } = await listenHttps(t)
  const idle: Socket[] = []
  const open = async (socket: Socket, event: string) => {
    idle.push(socket)
    socket.on('error', () => {})
    await once(socket, event)
  }
  t.teardown(() => { for (const socket of idle) socket.destroy() })
  // Connected and silent (no TLS handshake), handshaken and silent, and stuck in the middle of a header block.
  await Promise.all(Array.from({ length: 300 }, () => open(connect(port, '127.0.0.1'), 'connect')))
  await Promise.all(Array.from({ length: 100 }, () =>
    open(tlsConnect({ host: '127.0.0.1', servername: 'localhost', port, ca: tls.cert, ALPNProtocols: ['http/1.1'] }), 'secureConnect')))
  for (const socket of idle.slice(300, 350)) socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n')

  const health = await https1(port, tls.cert, { path: '/health' })
  t.equal(health.status, 200, 'answered over HTTP/1.1')
  const session = await http2Session(t, port, tls.cert)
  t.equal((await http2Request(session, { ':method': 'GET', ':path': '/health' })).status, 200, 'and over HTTP/2')
  t.equal(idle.filter(socket => !socket.destroyed).length, 400, 'the idle connections were all held at once')
})
