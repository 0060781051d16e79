import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { constants } from 'node:http2'
import type { Writable } from 'node:stream'
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { selfSignedFiles } from '../../listeners/tls.ts'
import { BOOTSTRAP } from '../helper.ts'
import { lineOf, makeTree, startServer } from '../local/helper.ts'
import { type Answer, http2Request, http2Session, https1, httpsBearer, listenHttps } from '../tls/helper.ts'

const TRIES = 40
/** Five times the default BODY_LIMIT: the server answers long before the client is done sending. */
const TOO_LARGE = JSON.stringify({ name: 'Big', city: 'x'.repeat(5 * 1024 * 1024) })
const REFUSED = '413 {"error":"The body is larger than the 1048576 bytes this server accepts"}'

/**
 * `npm start` in a process of its own, as a client meets it: with the server in the test's process,
 * sharing the client's event loop, the client read every answer in time even without the lingering
 * close, and the test could not fail.
 */
async function serverProcess (t: Test): Promise<{ port: number, ca: string }> {
  const dataDir = makeTree(t, {})
  const child = startServer(t, dataDir, { BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id, BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret })
  const line = await lineOf(child.stdout, line => /"msg":"Server listening at https:/.test(line))
  const port = Number(/:(\d+)"/.exec(line)?.[1])
  return { port, ca: readFileSync(selfSignedFiles(dataDir).cert, 'utf8') }
}

/** How many times each outcome came: an answer's status and body, or the error the client got instead. */
async function outcomes (tries: number, attempt: (i: number) => Promise<Answer>): Promise<Record<string, number>> {
  const seen: Record<string, number> = {}
  for (let i = 0; i < tries; i++) {
    const outcome = await attempt(i)
      .then(({ status, text }) => `${status} ${text}`, (err: NodeJS.ErrnoException) => err.code ?? err.message)
    seen[outcome] = (seen[outcome] ?? 0) + 1
  }
  return seen
}

t.test('a client still sending a body over BODY_LIMIT reads its 413, over HTTP/1.1 and HTTP/2', async t => {
  const { port, ca } = await serverProcess(t)
  const headers = { authorization: await httpsBearer(port, ca), 'content-type': 'application/json' }
  // Half the tries say the body's length up front, which the server refuses on sight; the others
  // send it in chunks (HTTP/1.1) or frames (HTTP/2), refused once the limit is crossed.
  const lengthFirst = (i: number): boolean => i % 2 === 0
  const http1 = await outcomes(TRIES, i => https1(port, ca, {
    method: 'POST',
    path: '/v1/zoos',
    headers: { ...headers, ...(lengthFirst(i) ? {} : { 'transfer-encoding': 'chunked' }) },
    body: TOO_LARGE
  }))
  t.same(http1, { [REFUSED]: TRIES }, 'HTTP/1.1 (https.request)')
  const http2 = await outcomes(TRIES, async i => {
    const session = await http2Session(t, port, ca)
    const length = lengthFirst(i) ? { 'content-length': String(Buffer.byteLength(TOO_LARGE)) } : {}
    const answer = await http2Request(session, { ':method': 'POST', ':path': '/v1/zoos', ...headers, ...length }, TOO_LARGE)
    // The stream closes too, its session with it: a client is not left waiting for it.
    await new Promise<void>(resolve => { session.close(() => { resolve() }) })
    return answer
  })
  t.same(http2, { [REFUSED]: TRIES }, 'HTTP/2 (http2.connect)')
})

/** Far more than the server may read after its answer (LINGER_BYTES below), and than sockets hold in flight. */
const ENDLESS = 64 * 1024 * 1024

/** Writes up to `total` bytes to `stream` as fast as it takes them, until it is closed; how many it took. */
async function sendUntilStopped (stream: Writable, total: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 'x')
  let written = 0
  while (written < total && stream.writable) {
    written += chunk.length
    if (!stream.write(chunk)) {
      await new Promise<void>(resolve => {
        const go = (): void => {
          stream.off('drain', go).off('close', go)
          resolve()
        }
        stream.on('drain', go).on('close', go)
      })
    }
  }
  return written
}

/**
 * A TLS connection speaking HTTP/1.1 that keeps its half open when the server closes its own, as
 * a client still sending does; everything it reads gathered, and the server's end of it.
 */
async function http1Connection (t: Test, app: FastifyInstance, port: number, ca: string) {
  const accepted = once(app.server, 'secureConnection') as Promise<[TLSSocket]>
  // tls.connect passes allowHalfOpen on to its socket; its type does not say so.
  const options: ConnectionOptions & { allowHalfOpen: boolean } = {
    host: '127.0.0.1', servername: 'localhost', port, ca, ALPNProtocols: ['http/1.1'], allowHalfOpen: true
  }
  const socket = tlsConnect(options)
  t.teardown(() => { socket.destroy() })
  let text = ''
  socket.setEncoding('utf8')
  socket.on('data', chunk => { text += chunk })
  // The server closing while the client writes is what these tests are about.
  socket.on('error', () => {})
  await once(socket, 'secureConnect')
  const [serverSide] = await accepted
  return { socket, serverSide, read: () => text }
}

t.test('HTTP/1.1: after an early answer the server reads and drops at most LINGER_BYTES, then closes', async t => {
  const { app, port, tls } = await listenHttps(t, { LINGER_BYTES: '1048576' })
  const authorization = await httpsBearer(port, tls.cert)
  const { socket, serverSide, read } = await http1Connection(t, app, port, tls.cert)
  socket.write(`POST /v1/zoos HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${ENDLESS}\r\n\r\n`)
  const written = await sendUntilStopped(socket, ENDLESS)
  if (!serverSide.closed) await once(serverSide, 'close')
  t.match(read(), /^HTTP\/1\.1 413 [^]*\r\nconnection: close\r\n[^]*\r\n\r\n(.*)$/, 'the answer, which says the connection closes')
  t.same(JSON.parse(/\r\n\r\n(.*)$/.exec(read())?.[1] ?? ''), { error: 'The body is larger than the 1048576 bytes this server accepts' })
  t.ok(written < ENDLESS, `cut off after ${written} of ${ENDLESS} bytes`)
})

t.test('HTTP/1.1: a client that stops sending after an early answer but keeps its half open is closed after LINGER_TIMEOUT', async t => {
  // No other limit would end the connection before tap gives up on the test.
  const { app, port, tls } = await listenHttps(t, { LINGER_TIMEOUT: '1', REQUEST_TIMEOUT: '3600', KEEP_ALIVE_TIMEOUT: '3600' })
  const { socket, serverSide, read } = await http1Connection(t, app, port, tls.cert)
  // Refused without a token before the body is read.
  socket.write('POST /v1/zoos HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"name":')
  await once(socket, 'end')
  t.match(read(), /^HTTP\/1\.1 401 [^]*\r\nconnection: close\r\n[^]*\r\n\r\n\{"error":/, 'the answer, then the server\'s half closed')
  if (!serverSide.closed) await once(serverSide, 'close')
  t.pass('then the whole connection')
})

t.test('HTTP/2: a stream still sending after its 413 is reset with NO_ERROR once the answer is sent', async t => {
  const { port, tls } = await listenHttps(t)
  const authorization = await httpsBearer(port, tls.cert)
  const session = await http2Session(t, port, tls.cert)
  // Without a content-length the server reads up to the limit, then answers.
  const stream = session.request({ ':method': 'POST', ':path': '/v1/zoos', authorization, 'content-type': 'application/json' })
  let status = 0
  let text = ''
  stream.setEncoding('utf8')
  stream.on('response', headers => { status = Number(headers[':status']) })
  stream.on('data', chunk => { text += chunk })
  const written = await sendUntilStopped(stream, ENDLESS)
  stream.end()
  if (!stream.closed) await once(stream, 'close')
  t.same([status, JSON.parse(text)], [413, { error: 'The body is larger than the 1048576 bytes this server accepts' }])
  t.equal(stream.rstCode, constants.NGHTTP2_NO_ERROR, 'reset without error')
  t.ok(written < ENDLESS, `cut off after ${written} of ${ENDLESS} bytes`)
})
