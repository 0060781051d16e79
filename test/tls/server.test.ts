import { X509Certificate } from 'node:crypto'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { loadTls, selfSignedFiles } from '../../listeners/tls.ts'
import { lineOf, makeTree, send, startServer } from '../local/helper.ts'
import { basic } from '../helper.ts'
import { http2Request, http2Session, https1 } from './helper.ts'

interface LogLine {
  name?: string
  msg?: string
  sha256?: string
  certificate?: string
}

const parse = (line: string): LogLine => {
  try {
    return JSON.parse(line) as LogLine
  } catch {
    return {}
  }
}

/** `npm start` as a child process on `dataDir`, killed at teardown; its log lines of interest. */
function start (t: Test, dataDir: string, env: Record<string, string> = {}) {
  const child = startServer(t, dataDir, env)
  const logLine = async (accept: (log: LogLine) => boolean): Promise<LogLine> =>
    parse(await lineOf(child.stdout, line => accept(parse(line))))
  const listening = (name: string | undefined) => async (): Promise<string> => {
    const log = await logLine(l => l.name === name && (l.msg?.startsWith('Server listening at ') ?? false))
    return (log.msg ?? '').slice('Server listening at '.length)
  }
  let output = ''
  child.stdout.on('data', chunk => {
    output += String(chunk)
  })
  // The start-up block on stdout, for people: `Label  value` lines, after the listeners are up.
  const blockLine = async (label: string): Promise<string> =>
    (await lineOf(child.stdout, line => line.startsWith(`${label} `))).slice(label.length).trim()
  const lines = {
    certificate: logLine(l => l.msg === 'TLS certificate'),
    fingerprint: blockLine('SHA-256'),
    where: blockLine('Zoo API'),
    docs: blockLine('Docs'),
    tools: blockLine('Local tools'),
    credentials: blockLine('export'),
    api: listening(undefined)(),
    local: listening('local')(),
    redirect: listening('redirect')()
  }
  // A line a test does not wait for fails when the output ends: that is no failure of the test.
  for (const line of Object.values(lines)) line.catch(() => {})
  return { child, exit: once(child, 'exit') as Promise<[number | null, string | null]>, output: () => output, ...lines }
}

/** The lines of stdout that are not log lines: the start-up block. */
const blockOf = (output: string): string[] => output.split('\n').filter(line => !line.startsWith('{'))

const portOf = (url: string): number => Number(new URL(url).port)

t.test('npm start on a fresh data directory serves HTTPS with a certificate it makes, logs its fingerprint, and reuses it', async t => {
  const dataDir = makeTree(t, {})
  const first = start(t, dataDir, { HTTP_REDIRECT_PORT: '0' })
  const certFile = join(dataDir, 'tls', 'cert.pem')
  const logged = await first.certificate
  const cert = readFileSync(certFile, 'utf8')
  const fingerprint = new X509Certificate(cert).fingerprint256
  t.match(logged, { sha256: fingerprint, certificate: certFile, origin: 'created' })
  const apiUrl = await first.api
  t.match(apiUrl, /^https:\/\/127\.0\.0\.1:\d+$/)
  const port = portOf(apiUrl)
  t.equal(await first.where, `https://localhost:${port}/`, 'the start-up block: the URL to open')
  t.equal(await first.docs, `https://localhost:${port}/documentation`, 'the documentation')
  t.equal(await first.tools, `http://localhost:${portOf(await first.local)}/`, 'the local tool server')
  t.equal(await first.fingerprint, fingerprint, 'the fingerprint of the certificate to trust')
  const credentials = await first.credentials
  const block = blockOf(first.output())
  t.ok(block.includes(`Certificate  ${certFile} (self-signed, created)`), 'the certificate file')
  t.ok(block.every(line => line.length <= 120), 'short lines')
  t.match(block.join('\n'), /shown only now; paste this line.*\nexport CLIENT_ID=/, 'the credentials, said to be shown once')
  const [, id, secret] = /^CLIENT_ID=(\S+) CLIENT_SECRET=(\S+)$/.exec(credentials) ?? []
  const token = await https1(port, cert, {
    method: 'POST',
    path: '/oauth/token',
    headers: { authorization: basic(id ?? '', secret ?? ''), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials'
  })
  t.equal(token.status, 200, 'they get a token')

  const root = await https1(port, cert, { path: '/' })
  t.equal(root.status, 200)
  t.equal(root.alpn, 'http/1.1')
  t.equal(root.json().link.href, `https://localhost:${port}/v1`)
  const session = await http2Session(t, port, cert)
  t.equal((await http2Request(session, { ':method': 'GET', ':path': '/v1' })).status, 401, 'HTTP/2 too')

  const redirectUrl = await first.redirect
  t.match(redirectUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
  const redirected = await send(portOf(redirectUrl), { method: 'GET', path: '/v1/zoos?limit=1', headers: { host: 'localhost' } })
  t.equal(redirected.status, 308)
  t.equal(redirected.headers.location, `https://localhost:${port}/v1/zoos?limit=1`, 'to the port the API got')

  // The HTTP/2 session is still open: the stop must not wait for it.
  first.child.kill('SIGTERM')
  t.same(await first.exit, [0, null], 'a clean exit')

  const second = start(t, dataDir)
  t.match(await second.certificate, { sha256: fingerprint, origin: 'reused' })
  const again = await https1(portOf(await second.api), cert, { path: '/' })
  t.equal(again.status, 200, 'the same certificate is still trusted')
  await second.tools
  t.notMatch(second.output(), /CLIENT_SECRET|shown only now/, 'the credentials only at the first start')
  t.equal(readFileSync(certFile, 'utf8'), cert)
  second.child.kill('SIGINT')
  t.same(await second.exit, [0, null])
})

t.test('TLS_CERT and TLS_KEY that do not belong together stop start-up with one line', async t => {
  const [one, other] = [makeTree(t, {}), makeTree(t, {})]
  for (const dataDir of [one, other]) await loadTls({ dataDir, tlsCert: undefined, tlsKey: undefined })
  const cert = selfSignedFiles(one).cert
  const key = selfSignedFiles(other).key
  const { child, exit } = start(t, makeTree(t, {}), { TLS_CERT: cert, TLS_KEY: key })
  let stderr = ''
  child.stderr.on('data', chunk => {
    stderr += chunk
  })
  t.same(await exit, [2, null])
  t.equal(stderr, `zoo-api: TLS_KEY: ${key} is not the private key of ${cert}\n`)
})

t.test('with TLS=proxy the API listens in plain HTTP and refuses what the proxy did not receive over HTTPS', async t => {
  const dataDir = makeTree(t, {})
  const { child, exit, api, where, docs, output } = start(t, dataDir, { TLS: 'proxy', API_PREFIX: '/api' })
  const url = await api
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/)
  const port = portOf(url)
  t.equal(await where, `http://localhost:${port}/api  (plain HTTP behind a TLS-terminating proxy: TLS=proxy)`, 'the start-up block says so')
  t.equal(await docs, `http://localhost:${port}/api/documentation`)
  t.notMatch(output(), /Certificate|SHA-256/, 'no certificate of its own')
  const refused = await send(port, { method: 'GET', path: '/api', headers: { host: 'api.example.test' } })
  t.equal(refused.status, 403)
  t.same(refused.json(), { error: 'HTTPS required' })
  const served = await send(port, { method: 'GET', path: '/api', headers: { host: 'api.example.test', 'x-forwarded-proto': 'https' } })
  t.equal(served.status, 200)
  t.equal(served.json().link.href, 'https://api.example.test/api/v1')
  t.notOk(existsSync(join(dataDir, 'tls')), 'no certificate is made')
  child.kill('SIGTERM')
  t.same(await exit, [0, null])
})
