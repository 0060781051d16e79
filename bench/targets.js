// The bench's targets: each a separate process on 127.0.0.1, started on a free port, polled until
// it answers, stopped after its cases. Also the small HTTP client the bench uses outside the load.
import { execFile, spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generate } from 'selfsigned'
import { ensurePlatformatic } from './platformatic.js'
import { SERVICE } from './service.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const BOOTSTRAP = { id: 'bench', secret: 'bench-secret-0123456789' }
/** The client of the bound-token cases: its tokens carry the claim zoo_id, which keepers' access rules read. */
export const BOUND = { id: 'bench-bound', secret: 'bench-bound-secret-0123456789', scope: 'keepers:read keepers:write' }

/** Every target in table order: the service, then the baselines. */
export const TARGETS = ['service', 'A', 'S', 'Spg', 'P', 'B']
/** The targets that keep their records in PostgreSQL: they run with --engine postgres only, each on a copy of the seeded database. */
export const POSTGRES_TARGETS = ['Spg', 'P']

const children = new Set()

/** Ends every target still running, at once (exit, Ctrl-C). */
export function killAll () {
  for (const child of children) child.kill('SIGKILL')
}

export function freePort () {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * One request outside the load (readiness, token, cursor, probes).
 * Resolves { status, headers, body } or rejects on a socket error or after `timeout` ms.
 */
export function send (target, method, path, { headers = {}, body, timeout = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const request = (target.https ? httpsRequest : httpRequest)({
      host: '127.0.0.1',
      port: target.port,
      method,
      path,
      headers: { ...target.headers, ...headers },
      ca: target.ca,
      agent: false,
      timeout
    }, response => {
      const chunks = []
      response.on('data', chunk => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString() }))
      response.on('error', reject)
    })
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeout} ms`)))
    request.on('error', reject)
    request.end(body)
  })
}

/**
 * A self-signed certificate for localhost and 127.0.0.1, written to `dir` as cert.pem and
 * key.pem: the `tls` of start() in mode 'on'. Clients trust it through `ca` (the `cert` PEM).
 */
export async function certificate (dir) {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }]
  })
  const tls = { cert: pems.cert, certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') }
  writeFileSync(tls.certFile, pems.cert)
  writeFileSync(tls.keyFile, pems.private, { mode: 0o600 })
  return tls
}

/** The service's settings as the bench runs it (start(), instructions.js); mode 'on' also needs TLS_CERT and TLS_KEY. */
export function serviceEnv ({ port, localPort, dataDir, mode, databaseUrl }) {
  return {
    DATA_DIR: dataDir,
    TLS: mode === 'on' ? 'on' : 'proxy',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOCAL_HOST: '127.0.0.1',
    LOCAL_PORT: String(localPort),
    ALLOWED_DIRS: '',
    RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
    BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id,
    BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret,
    ACCESS_TOKEN_TTL: '86400',
    // The feed case's fifty streams are one client's, on its own (client_credentials): one user's.
    CHANGES_STREAMS_PER_USER: '100',
    // The webhooks case's receiver listens on loopback, which a subscription may not name otherwise.
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    // Instances behind one balancer issue and accept the tokens of one issuer: the URL clients use.
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl, PUBLIC_URL: 'https://zoo.bench.test' })
  }
}

/** Resolves once the service `target` answers GET / with 200, polling; throws after five minutes. */
export async function answering (target) {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await send(target, 'GET', '/', { timeout: 2000 })).status === 200) return
    } catch {}
    await new Promise(resolve => setTimeout(resolve, 500))
  }
  throw new Error('the service did not answer within five minutes')
}

/** What each target runs and the path that answers once it is ready. */
function command (name, { port, localPort, dataDir, tls, mode, databaseUrl }) {
  const tlsEnv = mode === 'on' ? { TLS_CERT: tls.certFile, TLS_KEY: tls.keyFile } : {}
  switch (name) {
    case 'service': return {
      args: [join(SERVICE, 'server.js')],
      env: { ...serviceEnv({ port, localPort, dataDir, mode, databaseUrl }), ...tlsEnv },
      ready: '/'
    }
    case 'A': return { args: [join(ROOT, 'bench/baseline-bare.js')], env: { PORT: String(port), ...tlsEnv }, ready: '/' }
    case 'Spg': return {
      args: [join(ROOT, 'bench/baseline-postgres.js')],
      env: { PORT: String(port), DATABASE_URL: databaseUrl, ...tlsEnv },
      ready: '/v1/zoos/1'
    }
    case 'P': return {
      args: [join(ROOT, 'bench/baseline-platformatic.js')],
      env: { PORT: String(port), DATABASE_URL: databaseUrl, ...tlsEnv },
      ready: '/zoos/1'
    }
    case 'S': return {
      args: [join(ROOT, 'bench/baseline-sqlite.js')],
      env: { PORT: String(port), DATA_DIR: dataDir, ...tlsEnv },
      ready: '/v1/zoos/1'
    }
    // A bigger heap than the default 4 GiB: json-server holds every record as a JS object, and
    // its writes build the whole file as one string first.
    case 'B': return {
      args: ['--max-old-space-size=12288', join(ROOT, 'bench/baseline-json-server.js')],
      env: { PORT: String(port), DB_FILE: join(dataDir, 'db.json'), ...tlsEnv },
      ready: '/zoos/1'
    }
    default: throw new Error(`unknown target ${name}`)
  }
}

/**
 * Starts `name` as a child process over the files in `dataDir` and waits until it answers.
 * `mode`: 'proxy' (plain HTTP; the service then needs X-Forwarded-Proto) or 'on' (HTTPS/1.1).
 * `nodeArgs`: flags for node before the target's own (the soak's `--trace-gc`); `extraEnv`: settings
 * beyond the target's own (the service's metrics and traces, with --observed).
 */
export async function start (name, { dataDir, tls, mode, readyTimeout, databaseUrl, instance = 0, nodeArgs = [], extraEnv = {} }) {
  if (name === 'P') ensurePlatformatic()
  const port = await freePort()
  const localPort = name === 'service' ? await freePort() : undefined
  const { args, env: own, ready } = command(name, { port, localPort, dataDir, tls, mode, databaseUrl })
  // Only what the process needs: no setting of the caller's shell leaks into a target.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...own, ...extraEnv }
  const logFile = join(dataDir, `${name}${instance === 0 ? '' : `-${instance}`}.log`)
  const log = openSync(logFile, 'w')
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', log, log]
  })
  closeSync(log)
  children.add(child)
  let exited = null
  child.once('exit', (code, signal) => {
    children.delete(child)
    exited = signal ?? `exit code ${code}`
  })
  const target = {
    name,
    mode,
    child,
    port,
    https: mode === 'on',
    ca: mode === 'on' ? tls.cert : undefined,
    // Behind a TLS-terminating proxy every request says it came over HTTPS (docs/https.md).
    headers: name === 'service' && mode === 'proxy' ? { 'x-forwarded-proto': 'https' } : {},
    ready,
    env,
    logFile,
    get exited () { return exited }
  }
  const started = performance.now()
  for (;;) {
    if (exited !== null) throw new Error(`${name} stopped during start-up (${exited}):\n${tail(logFile)}`)
    try {
      const answer = await send(target, 'GET', ready, { timeout: 2000 })
      if (answer.status === 200) break
    } catch {}
    if (performance.now() - started > readyTimeout) {
      await stop(target)
      throw new Error(`${name} did not answer GET ${ready} within ${readyTimeout / 1000} s:\n${tail(logFile)}`)
    }
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  target.startSeconds = (performance.now() - started) / 1000
  return target
}

/** A bearer token of the service's client `client` ({ id, secret }): client credentials, HTTP Basic auth. */
async function clientToken (target, client) {
  const answer = await send(target, 'POST', '/oauth/token', {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`
    },
    body: 'grant_type=client_credentials'
  })
  if (answer.status !== 200) throw new Error(`POST /oauth/token as ${client.id}: ${answer.status} ${answer.body}`)
  return `Bearer ${JSON.parse(answer.body).access_token}`
}

/** The service's access token, the bootstrap client's (every scope, keepers:all among them), sent with every request. */
export async function authorize (target) {
  target.headers = { ...target.headers, authorization: await clientToken(target, BOOTSTRAP) }
}

/**
 * A bearer token bound by keepers' access rules to the keepers of `zoo`: the client BOUND, made
 * with the service's own CLI (`client create ... --claim zoo_id=<zoo>`) on the target's data. Kept
 * in `target.boundAuthorization`, which the bound cases send instead of the bootstrap client's.
 */
export async function authorizeBound (target, zoo) {
  await new Promise((resolve, reject) => {
    const args = ['client', 'create', '--id', BOUND.id, '--secret', BOUND.secret, '--scope', BOUND.scope, '--claim', `zoo_id=${zoo}`]
    execFile(process.execPath, [join(SERVICE, 'server.js'), ...args], { cwd: ROOT, env: target.env }, (err, stdout, stderr) =>
      err === null ? resolve() : reject(new Error(`client create: ${err.message}\n${stderr}`)))
  })
  target.boundAuthorization = await clientToken(target, BOUND)
}

/** Resident memory of the target's process in bytes (VmRSS), or null when unknown. */
export function residentMemory (target) {
  return memoryStatus(target)?.rss ?? null
}

/**
 * The resident memory of the target's process in bytes, from /proc/<pid>/status: `rss` (VmRSS)
 * and its parts `anon` (RssAnon: the JS heap, native allocations, SQLite's page cache), `file`
 * (RssFile: mapped files, the code) and `shmem` (RssShmem: SQLite's WAL index), each null when
 * the kernel does not say; null when the process is gone or /proc is not there.
 */
export function memoryStatus (target) {
  let status
  try {
    status = readFileSync(`/proc/${target.child.pid}/status`, 'utf8')
  } catch {
    return null
  }
  const field = name => {
    const kb = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)
    return kb === null ? null : Number(kb[1]) * 1024
  }
  return { rss: field('VmRSS'), anon: field('RssAnon'), file: field('RssFile'), shmem: field('RssShmem') }
}

/** SIGTERM, then SIGKILL if it has not stopped within `grace` ms. */
export async function stop (target, grace = 5000) {
  if (target.child.exitCode !== null || target.child.signalCode !== null) return
  const gone = new Promise(resolve => target.child.once('exit', resolve))
  target.child.kill('SIGTERM')
  const timer = setTimeout(() => target.child.kill('SIGKILL'), grace)
  await gone
  clearTimeout(timer)
}

export function tail (file, lines = 20) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}
