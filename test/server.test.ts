import { once } from 'node:events'
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { connect, createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { SETTINGS } from '../config/index.ts'
import { BOOTSTRAP, freshSchema } from './helper.ts'
import { lineOf, makeTree, spawnTs } from './local/helper.ts'

// Each test starts the server as its own process, ten in all: about 50 s with the machine to
// itself, beside other test files (tap runs several at once) over .taprc's 120 s for a file.
t.setTimeout(300_000)

/*
 * The program as `npm start` runs it (server.ts), as a child process: what it says, how it
 * refuses to start, and how it stops.
 */

interface LogLine { msg?: string, name?: string, level?: number, signal?: string }

const parse = (line: string): LogLine => {
  try {
    return JSON.parse(line) as LogLine
  } catch {
    return {}
  }
}

/** server.ts with `args` and quiet defaults on a fresh data directory, killed at teardown; its output gathered. */
function run (t: Test, env: Record<string, string> = {}, args: string[] = []) {
  const child = spawnTs('server.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    LOCAL_HOST: '127.0.0.1',
    LOCAL_PORT: '0',
    DATA_DIR: makeTree(t, {}),
    LOG_LEVEL: 'info',
    ALLOWED_DIRS: '',
    TLS: 'proxy',
    BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id,
    BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret,
    ...env
  }, args)
  t.teardown(() => { child.kill('SIGKILL') })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', chunk => { stdout += String(chunk) })
  child.stderr.on('data', chunk => { stderr += String(chunk) })
  const exit = once(child, 'exit') as Promise<[number | null, string | null]>
  const logged = (accept: (log: LogLine) => boolean) => lineOf(child.stdout, line => accept(parse(line))).then(parse)
  return { child, exit, logged, stdout: () => stdout, stderr: () => stderr }
}

/** The port of the API once it listens. */
async function apiPort (logged: ReturnType<typeof run>['logged']): Promise<number> {
  const line = await logged(l => l.name === undefined && (l.msg?.startsWith('Server listening at ') ?? false))
  return Number(new URL(String(line.msg).slice('Server listening at '.length)).port)
}

/** A request whose headers announce a body that never comes: it stays in flight. */
async function requestInFlight (t: Test, port: number): Promise<void> {
  const socket = connect(port, '127.0.0.1')
  t.teardown(() => socket.destroy())
  await once(socket, 'connect')
  socket.write('POST /v1/zoos HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\nContent-Type: application/json\r\n' +
    'Content-Length: 100\r\n\r\n{"name":')
  await new Promise(resolve => setTimeout(resolve, 200))
}

async function occupiedPort (t: Test): Promise<number> {
  const blocker = createServer()
  blocker.listen(0, '127.0.0.1')
  await once(blocker, 'listening')
  t.teardown(() => blocker.close())
  return (blocker.address() as AddressInfo).port
}

t.test('--help lists every setting with its variable, flag and default; --version says the version', async t => {
  const help = run(t, {}, ['--help'])
  t.same(await help.exit, [0, null])
  for (const setting of Object.values(SETTINGS) as { env: string, default: string }[]) {
    const flag = 'flag' in setting ? `--${String(setting.flag)} DIR` : `--${setting.env.toLowerCase().replaceAll('_', '-')}`
    t.match(help.stdout(), `  ${setting.env}, ${flag}`, setting.env)
    t.match(help.stdout(), `(default: ${setting.default === '' ? 'not set' : setting.default})`)
  }
  t.match(help.stdout(), /^usage: zoo-api /)
  t.equal(help.stderr(), '')
  const version = run(t, {}, ['--version'])
  t.same(await version.exit, [0, null])
  const { version: expected } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  t.equal(version.stdout(), `zoo-api ${expected} (Node.js ${process.version})\n`, 'and the Node.js that runs it')
})

t.test('client and user commands run the CLI', async t => {
  const dataDir = makeTree(t, {})
  const created = run(t, { DATA_DIR: dataDir }, ['client', 'create', '--scope', 'zoos:read', '--id', 'reporting'])
  t.same(await created.exit, [0, null])
  t.match(JSON.parse(created.stdout()), { client_id: 'reporting', scope: 'zoos:read' })
  const listed = run(t, { DATA_DIR: dataDir }, ['client', 'list'])
  t.same(await listed.exit, [0, null])
  t.match(JSON.parse(listed.stdout()), [{ client_id: 'reporting' }])
})

t.test('a port in use stops start-up with one line naming its setting, and no instance stays up', async t => {
  const port = await occupiedPort(t)
  for (const [setting, env] of [
    ['PORT', { PORT: String(port) }],
    ['LOCAL_PORT', { LOCAL_PORT: String(port) }],
    ['HTTP_REDIRECT_PORT', { TLS: 'on', HTTP_REDIRECT_PORT: String(port) }],
    ['METRICS_PORT', { METRICS_PORT: String(port) }]
  ] as const) {
    const started = run(t, env)
    t.same(await started.exit, [2, null], setting)
    t.equal(started.stderr(), `zoo-api: ${setting}: port ${port} on 127.0.0.1 is in use by another process\n`)
  }
})

t.test('with METRICS_PORT a listener of its own answers /metrics, and the start-up block says where', async t => {
  const started = run(t, { METRICS_PORT: '0' })
  const line = await started.logged(l => l.name === 'metrics' && (l.msg?.startsWith('Server listening at ') ?? false))
  const url = `${String(line.msg).slice('Server listening at '.length)}/metrics`
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, 'on loopback (METRICS_HOST)')
  const scraped = await fetch(url)
  t.equal(scraped.status, 200)
  t.match(await scraped.text(), /^# HELP http_server_request_duration_seconds /m)
  if (!started.stdout().includes('Metrics ')) await started.logged(() => started.stdout().includes('Metrics '))
  t.match(started.stdout(), /^Metrics {6}http:\/\/localhost:\d+\/metrics$/m)
  started.child.kill('SIGTERM')
  t.same(await started.exit, [0, null])
})

t.test('a data directory that cannot be created stops start-up with one line naming DATA_DIR', async t => {
  const file = join(makeTree(t, { file: '' }), 'file')
  const started = run(t, { DATA_DIR: join(file, 'data') })
  t.same(await started.exit, [2, null])
  t.equal(started.stderr(), `zoo-api: DATA_DIR: ${join(file, 'data')} cannot be created or written (a file is in the way)\n`)
})

t.test('a DATA_DIR others may write into stops start-up with one line naming it, on either engine', async t => {
  const dataDir = makeTree(t, {})
  chmodSync(dataDir, 0o777)
  for (const engine of [{}, { DATABASE_URL: freshSchema(t, 'data_dir') }] as Record<string, string>[]) {
    const started = run(t, { DATA_DIR: dataDir, ...engine })
    const listening = started.logged(l => l.name === undefined && (l.msg?.startsWith('Server listening at ') ?? false))
      .then(() => 'listening', async () => started.exit)
    t.same(await Promise.race([started.exit, listening]), [2, null], Object.keys(engine).join() || 'SQLite')
    t.equal(started.stderr(), `zoo-api: DATA_DIR: ${dataDir} is open to other users (mode 777); ` +
      `it holds the database and the TLS key: chmod 700 ${dataDir}\n`)
  }
})

t.test('SIGTERM stops cleanly: exit 0, the write-ahead log checkpointed into the database file', async t => {
  const dataDir = makeTree(t, {})
  const started = run(t, { DATA_DIR: dataDir })
  await apiPort(started.logged)
  t.ok(existsSync(join(dataDir, 'zoo.db-wal')), 'a write-ahead log while it runs')
  started.child.kill('SIGTERM')
  t.same(await started.exit, [0, null])
  t.match(started.stdout(), /"signal":"SIGTERM","msg":"shutting down"/)
  t.equal(existsSync(join(dataDir, 'zoo.db-wal')) ? statSync(join(dataDir, 'zoo.db-wal')).size : 0, 0, 'nothing left in it')
})

t.test('a signal during start-up lets the step in progress end, then stops: exit 0, nothing started after it', async t => {
  // The sign-in provider's metadata is read at start-up: its answer is held until the signal is in.
  let answer = (): void => {}
  let onAsked = (): void => {}
  const asked = new Promise<void>(resolve => { onAsked = resolve })
  const provider = createHttpServer((_request, response) => {
    answer = () => {
      response.setHeader('content-type', 'application/json')
      const endpoints = { authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }
      response.end(JSON.stringify({ issuer, ...endpoints }))
    }
    onAsked()
  })
  provider.listen(0, '127.0.0.1')
  await once(provider, 'listening')
  t.teardown(() => { provider.closeAllConnections(); provider.close() })
  const issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`
  const started = run(t, { LOGIN_PROVIDER: 'test', LOGIN_ISSUER: issuer, LOGIN_CLIENT_ID: 'zoo-api', LOGIN_CLIENT_SECRET: 'a-secret' })
  await asked
  started.child.kill('SIGINT')
  await started.logged(l => l.msg === 'stopping once the start-up step in progress ends')
  answer()
  t.same(await started.exit, [0, null])
  t.match(started.stdout(), /"signal":"SIGINT","msg":"shutting down"/)
  t.notMatch(started.stdout(), /Server listening|Zoo API {2}/, 'no listener, no start-up block')
})

t.test('SHUTDOWN_TIMEOUT bounds the stop: a request that never ends makes it exit 1', async t => {
  const started = run(t, { SHUTDOWN_TIMEOUT: '1' })
  await requestInFlight(t, await apiPort(started.logged))
  started.child.kill('SIGTERM')
  t.same(await started.exit, [1, null])
  t.match(started.stdout(), /"msg":"not stopped after SHUTDOWN_TIMEOUT \(1 s\): exiting"/)
})

t.test('a second signal exits at once', async t => {
  const started = run(t, { SHUTDOWN_TIMEOUT: '600' })
  await requestInFlight(t, await apiPort(started.logged))
  started.child.kill('SIGTERM')
  await started.logged(l => l.msg === 'shutting down')
  started.child.kill('SIGINT')
  t.same(await started.exit, [1, null])
  t.match(started.stdout(), /"signal":"SIGINT","msg":"second signal: exiting at once"/)
})

t.test('the log is readable lines with LOG_FORMAT=pretty, JSON lines otherwise', async t => {
  const pretty = run(t, { LOG_FORMAT: 'pretty' })
  await lineOf(pretty.child.stdout, line => / INFO: Server listening at http:\/\/127\.0\.0\.1:\d+$/.test(line))
  pretty.child.kill('SIGTERM')
  t.same(await pretty.exit, [0, null])
  t.match(pretty.stdout(), /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: shutting down \{"signal":"SIGTERM"\}$/m)
  t.notMatch(pretty.stdout(), /^\{"level"/m)
})
