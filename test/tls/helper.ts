import { once } from 'node:events'
import {
  connect as http2Connect,
  type ClientHttp2Session,
  type IncomingHttpHeaders as Http2Headers,
  type OutgoingHttpHeaders
} from 'node:http2'
import { request as httpsRequest, type RequestOptions } from 'node:https'
import type { IncomingHttpHeaders } from 'node:http'
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls'
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import { buildApi } from '../../app.ts'
import { loadTls, type TlsMaterial } from '../../listeners/tls.ts'
import { checkContract } from '../contract.ts'
import { BOOTSTRAP, basic, dataDir, testConfig } from '../helper.ts'
import { portOf } from '../local/helper.ts'

export interface HttpsApi {
  app: FastifyInstance
  port: number
  tls: TlsMaterial
  dataDir: string
}

/**
 * The API as server.ts builds it (certificate from listeners/tls.ts, then buildApi), listening on
 * loopback at a free port, closed at teardown.
 */
export async function listenHttps (t: Test, settings: Record<string, string> = {}): Promise<HttpsApi> {
  const config = testConfig(dataDir(t), settings)
  const tls = await loadTls(config)
  const app = checkContract(t, buildApi(config, { tls }))
  t.teardown(() => app.close())
  await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, port: portOf(app), tls, dataDir: config.dataDir }
}

export interface Answer {
  status: number
  headers: IncomingHttpHeaders | Http2Headers
  text: string
  json: () => any
}

const answer = (status: number, headers: IncomingHttpHeaders | Http2Headers, text: string): Answer =>
  ({ status, headers, text, json: () => JSON.parse(text) })

/**
 * One HTTP/1.1 request over TLS, trusting only `ca`, offering only http/1.1 through ALPN; also
 * resolves with the protocol the server chose.
 */
export async function https1 (
  port: number,
  ca: string,
  options: { method?: string, path: string, headers?: Record<string, string>, body?: string }
): Promise<Answer & { alpn: string | false | null }> {
  // https.request passes ALPNProtocols on to tls.connect; its type does not say so.
  const request: RequestOptions & Pick<ConnectionOptions, 'ALPNProtocols'> = {
    host: '127.0.0.1',
    servername: 'localhost',
    port,
    ca,
    ALPNProtocols: ['http/1.1'],
    agent: false,
    method: options.method ?? 'GET',
    path: options.path,
    headers: { host: `localhost:${port}`, ...options.headers }
  }
  return new Promise((resolve, reject) => {
    const req = httpsRequest(request, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', chunk => { text += chunk })
      res.on('end', () => resolve({ ...answer(res.statusCode ?? 0, res.headers, text), alpn: (res.socket as TLSSocket).alpnProtocol }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

/** An HTTP/2 session to the API trusting only `ca`, closed at teardown. */
export async function http2Session (t: Test, port: number, ca: string): Promise<ClientHttp2Session> {
  const session = http2Connect(`https://localhost:${port}`, { ca, host: '127.0.0.1' })
  t.teardown(() => { session.close() })
  await once(session, 'connect')
  return session
}

/** One request on an HTTP/2 session. */
export async function http2Request (session: ClientHttp2Session, headers: OutgoingHttpHeaders, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers)
    let responseHeaders: Http2Headers = {}
    let text = ''
    stream.setEncoding('utf8')
    stream.on('response', h => { responseHeaders = h })
    stream.on('data', chunk => { text += chunk })
    stream.on('end', () => resolve(answer(Number(responseHeaders[':status']), responseHeaders, text)))
    stream.on('error', reject)
    stream.end(body)
  })
}

/** The protocol the server picks over TLS when the client offers `protocols` through ALPN. */
export async function negotiate (port: number, ca: string, protocols: string[]): Promise<string | false | null> {
  const socket = tlsConnect({ host: '127.0.0.1', servername: 'localhost', port, ca, ALPNProtocols: protocols })
  await once(socket, 'secureConnect')
  const chosen = socket.alpnProtocol ?? null
  socket.destroy()
  return chosen
}

/** `Bearer <token>` of the bootstrap client, from the token endpoint over HTTPS. */
export async function httpsBearer (port: number, ca: string): Promise<string> {
  const res = await https1(port, ca, {
    method: 'POST',
    path: '/oauth/token',
    headers: { authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials'
  })
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`)
  return `Bearer ${res.json().access_token}`
}

/** Security headers @fastify/helmet sets (plugins/external/helmet.ts), as every answer must carry. */
export const HELMET = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0'
}
