import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import t, { type Test } from 'tap'
import { RESOURCES } from '../../schemas/index.ts'
import { basic, BOOTSTRAP } from '../helper.ts'
import { lineOf, makeTree, mcpMessages, send } from '../local/helper.ts'
import { https1 } from '../tls/helper.ts'
import { olderNode, PACKAGE, PINNED_NODE, ROOT } from './helper.ts'

/*
 * `npm run build:binary`, then the binary as a user gets it: one file copied into an empty folder
 * and run there with no Node.js on the PATH.
 */

t.setTimeout(600_000)

const BINARY = join(ROOT, 'dist', 'zoo-api')
/**
 * tap records coverage in every Node.js process a test starts. That of the compiled copy in dist/
 * would map back through its source maps onto the TypeScript a column off, and count each
 * function twice: the processes that run dist/ record none, tap's own switch says so.
 */
const UNCOVERED = { _TAPJS_PROCESSINFO_COVERAGE_: '0' }

// A plugin an earlier build compiled, and removed from the source since, would still be autoloaded
// from dist/: the build starts from an empty dist/.
const STALE = join(ROOT, 'dist', 'plugins', 'app', 'removed-since.js')
mkdirSync(dirname(STALE), { recursive: true })
writeFileSync(STALE, 'export default async function removedSince () { throw new Error("a stale plugin was loaded") }\n')
execFileSync('npm', ['run', '--silent', 'build:binary'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })

t.notOk(existsSync(STALE), 'nothing of an earlier build is left in dist/')

const settings = (folder: string, allowed: string): Record<string, string> => ({
  // No Node.js, no npm: the binary needs nothing from the PATH.
  PATH: join(folder, 'empty-path'),
  PORT: '0',
  LOCAL_PORT: '0',
  ALLOWED_DIRS: allowed,
  LOG_LEVEL: 'info',
  BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id,
  BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret
})

interface Started { api: number, local: number, stop: () => Promise<[number | null, string | null]>, output: () => string }

/** Runs `command` in `folder` until it listens; stopped with SIGTERM at teardown. */
async function serve (t: Test, command: string, args: string[], folder: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(command, args, { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const exit = once(child, 'exit') as Promise<[number | null, string | null]>
  t.teardown(() => { child.kill('SIGKILL') })
  let stderr = ''
  child.stderr.on('data', chunk => { stderr += String(chunk) })
  const listening = async (name: string | undefined): Promise<number> => {
    const ours = (line: string): boolean => name === undefined ? !line.includes('"name"') : line.includes(`"name":"${name}"`)
    const line = await lineOf(child.stdout, l => l.includes('"msg":"Server listening at ') && ours(l))
      .catch((err: Error) => { throw new Error(`${err.message}; stderr: ${stderr}`) })
    return Number(/:(\d+)"}$/.exec(line)?.[1])
  }
  let output = ''
  child.stdout.on('data', chunk => { output += String(chunk) })
  const [api, local] = await Promise.all([listening(undefined), listening('local')])
  return { api, local, stop: async () => { child.kill('SIGTERM'); return exit }, output: () => output }
}

t.test('the binary alone, in an empty folder without Node.js, serves the API, its documentation and the local tool server', async t => {
  const folder = makeTree(t, { 'empty-path': {} })
  const allowed = makeTree(t, { 'notes.txt': 'hello', photos: {} })
  copyFileSync(BINARY, join(folder, 'zoo-api'))
  chmodSync(join(folder, 'zoo-api'), 0o755)
  t.same(readdirSync(folder).sort(), ['empty-path', 'zoo-api'], 'nothing else')
  const env = settings(folder, allowed)
  const embedded = `v${PINNED_NODE ?? process.versions.node}`
  t.equal(execFileSync('./zoo-api', ['--version'], { cwd: folder, env }).toString(), `zoo-api ${PACKAGE.version} (Node.js ${embedded})\n`,
    'it embeds the Node.js the project pins')
  t.match(execFileSync('./zoo-api', ['--help'], { cwd: folder, env }).toString(), /UNPACK_DIR, --unpack-dir/)

  const binary = await serve(t, './zoo-api', [], folder, env)
  const ca = readFileSync(join(folder, 'data', 'tls', 'cert.pem'), 'utf8')
  const token = await tokenRequest(binary.api, ca)
  t.equal(token.status, 200, 'a token')
  const authorization = `Bearer ${token.json().access_token}`
  const version1 = await https1(binary.api, ca, { path: '/v1', headers: { authorization } })
  t.same(version1.json().links.map((link: { href: string }) => link.href.split('/').at(-1)), RESOURCES.map(resource => resource.name),
    'the collections the binary found when it was built are those the source folder holds, in its order')
  const json = { authorization, 'content-type': 'application/json' }
  const zoo = '{"name":"Berlin Zoo","city":"Berlin"}'
  const created = await https1(binary.api, ca, { method: 'POST', path: '/v1/zoos', headers: json, body: zoo })
  t.equal(created.status, 201, 'created')
  const id = created.json().id as number
  const read = await https1(binary.api, ca, { path: `/v1/zoos/${id}`, headers: { authorization } })
  t.match([read.status, read.json()], [200, { id, name: 'Berlin Zoo', city: 'Berlin' }], 'read')
  const patch = '{"city":"Berlin-Tiergarten"}'
  const patched = await https1(binary.api, ca, { method: 'PATCH', path: `/v1/zoos/${id}`, headers: json, body: patch })
  t.match([patched.status, patched.json()], [201, { city: 'Berlin-Tiergarten' }], 'updated')
  // On a reader thread, which runs the module the binary unpacked beside its SQLite addon.
  const grouped = await https1(binary.api, ca, { path: '/v1/zoos/aggregate?group_by=city', headers: { authorization } })
  t.match([grouped.status, grouped.json()], [200, [{ city: 'Berlin-Tiergarten', count: 1 }]], 'aggregated')
  t.equal((await https1(binary.api, ca, { method: 'DELETE', path: `/v1/zoos/${id}`, headers: { authorization } })).status, 204, 'deleted')
  t.equal((await https1(binary.api, ca, { path: `/v1/zoos/${id}`, headers: { authorization } })).status, 410, 'gone')

  const listed = await send(binary.local, {
    path: '/list_directory',
    headers: { host: 'localhost', 'content-type': 'application/json' },
    body: JSON.stringify({ path: allowed })
  })
  const entries = listed.json().entries.map((e: { name: string, type: string }) => [e.name, e.type])
  t.same(entries, [['notes.txt', 'file'], ['photos', 'directory']], 'the local tool server lists an allowed directory')
  const toolCall = await send(binary.local, {
    path: '/mcp',
    headers: {
      host: 'localhost',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18'
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_directory', arguments: { path: allowed } } })
  })
  const toolAnswer = mcpMessages(toolCall.headers['content-type'], toolCall.text)[0] as { result: { structuredContent: unknown } }
  t.same(toolAnswer.result.structuredContent, listed.json(), 'and so does its MCP tool')

  const page = await https1(binary.api, ca, { path: '/documentation/', headers: { accept: 'text/html' } })
  t.match([page.status, page.text], [200, /<title>Zoo API<\/title>/], 'the documentation page')
  for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-initializer.js']) {
    t.equal((await https1(binary.api, ca, { path: `/documentation/static/${file}` })).status, 200, `its ${file}`)
  }
  const fromBinary = await https1(binary.api, ca, { path: '/documentation/json' })

  // What npm start runs, on a data directory of its own.
  const clone = makeTree(t, {})
  const npmStart = await serve(t, process.execPath, [join(ROOT, 'dist', 'server.js')], clone, { ...settings(clone, allowed), ...UNCOVERED })
  const cloneCa = readFileSync(join(clone, 'data', 'tls', 'cert.pem'), 'utf8')
  const fromNpmStart = await https1(npmStart.api, cloneCa, { path: '/documentation/json' })
  t.equal(fromBinary.text.replaceAll(`localhost:${binary.api}`, 'localhost:PORT'),
    fromNpmStart.text.replaceAll(`localhost:${npmStart.api}`, 'localhost:PORT'), 'the same document as npm start serves, but for the port')
  t.ok(Object.keys(fromBinary.json().paths).length > 10)

  t.same(await binary.stop(), [0, null], 'a clean stop')
  t.same(await npmStart.stop(), [0, null])
  const unpacked = join(folder, 'data', 'unpacked')
  t.equal(statSync(unpacked).mode & 0o777, 0o700, 'what the binary unpacked is private')
  t.match(readdirSync(unpacked), [/^better_sqlite3-[0-9a-f]{16}\.node$/, /^documentation-ui-[0-9a-f]{16}$/])
})

/** The bootstrap client's token request to the API on `port`, over HTTPS with `ca` trusted. */
async function tokenRequest (port: number, ca: string): ReturnType<typeof https1> {
  return https1(port, ca, {
    method: 'POST',
    path: '/oauth/token',
    headers: { authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials'
  })
}

/** A port free on loopback now. */
async function freePort (): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}

t.test('the binary backs up and restores, takes scheduled backups, answers its metrics and exports its traces', async t => {
  const folder = makeTree(t, { 'empty-path': {} })
  copyFileSync(BINARY, join(folder, 'zoo-api'))
  chmodSync(join(folder, 'zoo-api'), 0o755)
  const spans: string[] = []
  const collector = createHttpServer((request, response) => {
    let body = ''
    request.on('data', chunk => { body += String(chunk) })
    request.on('end', () => { spans.push(body); response.writeHead(200, { 'content-type': 'application/json' }).end('{}') })
  }).listen(0, '127.0.0.1')
  await once(collector, 'listening')
  t.teardown(() => { collector.close() })
  const metricsPort = await freePort()
  const env = {
    ...settings(folder, ''),
    METRICS_PORT: String(metricsPort),
    BACKUP_DIR: join(folder, 'backups'),
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json'
  }
  const binary = await serve(t, './zoo-api', [], folder, env)
  const ca = readFileSync(join(folder, 'data', 'tls', 'cert.pem'), 'utf8')
  const authorization = `Bearer ${(await tokenRequest(binary.api, ca)).json().access_token}`
  const created = await https1(binary.api, ca, {
    method: 'POST', path: '/v1/zoos', headers: { authorization, 'content-type': 'application/json' }, body: '{"name":"Kept","city":"Bern"}'
  })
  t.equal(created.status, 201)
  const id = created.json().id as number

  const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
  const labels = 'http_request_method="POST",http_route="/v1/zoos",http_response_status_code="201"'
  const counted = new RegExp(`^http_server_request_duration_seconds_count\\{${labels}\\} 1$`, 'm')
  t.match(scraped, counted, 'its metrics count the create')
  t.match(scraped, /^db_client_operation_duration_seconds_count\{db_system_name="sqlite",db_operation_name="INSERT"\} [1-9]/m)
  for (let tries = 0; readdirSync(join(folder, 'backups')).length === 0; tries++) {
    if (tries > 100) throw new Error('no scheduled backup')
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  t.match(readdirSync(join(folder, 'backups')), [/^zoo-\d{8}T\d{6}\.\d{3}Z\.db$/], 'a scheduled backup at start')

  const backUp = (command: string, args: string[], file: string) => {
    const options = { cwd: folder, env: { ...env, DATA_DIR: join(folder, 'data'), ...UNCOVERED } }
    return JSON.parse(execFileSync(command, [...args, 'backup', '--to', file], options).toString()) as { file: string }
  }
  t.equal(backUp('./zoo-api', [], join(folder, 'by-binary.db')).file, join(folder, 'by-binary.db'), 'zoo-api backup, while it serves')
  t.equal(backUp(process.execPath, [join(ROOT, 'dist', 'server.js')], join(folder, 'by-node.db')).file, join(folder, 'by-node.db'),
    'node dist/server.js backup')

  t.same(await binary.stop(), [0, null])
  const exported = spans.join('\n')
  t.match(exported, /"name":"POST \/v1\/zoos"/, 'the create\'s span was exported')
  t.match(exported, /"db\.system\.name","value":\{"stringValue":"sqlite"\}/, 'with its statements\' spans')
  const traceId = /"traceId":"([0-9a-f]{32})"/.exec(exported)?.[1]
  const traced = binary.output().split('\n').filter(line => line.includes('"msg":"request"') && line.includes('"trace_id"'))
  t.ok(traced.length > 0 && traceId !== undefined, 'its request lines carry their trace id')

  const restoredFolder = makeTree(t, { 'empty-path': {} })
  const restored = execFileSync(join(folder, 'zoo-api'), ['restore', '--from', join(folder, 'by-binary.db')],
    { cwd: restoredFolder, env: { ...settings(restoredFolder, ''), DATA_DIR: join(restoredFolder, 'data') } })
  t.match(JSON.parse(restored.toString()), { restored: join(restoredFolder, 'data', 'zoo.db'), replaced: null }, 'zoo-api restore')
  const again = await serve(t, join(folder, 'zoo-api'), [], restoredFolder, settings(restoredFolder, ''))
  const againCa = readFileSync(join(restoredFolder, 'data', 'tls', 'cert.pem'), 'utf8')
  const againAuthorization = `Bearer ${(await tokenRequest(again.api, againCa)).json().access_token}`
  const read = await https1(again.api, againCa, { path: `/v1/zoos/${id}`, headers: { authorization: againAuthorization } })
  t.match([read.status, read.json()], [200, { id, name: 'Kept' }], 'the restored service serves what was written')
  t.same(await again.stop(), [0, null])
})

t.test('the binary refuses an UNPACK_DIR that others could write into, with one line', async t => {
  const folder = makeTree(t, { 'empty-path': {}, shared: {} })
  chmodSync(join(folder, 'shared'), 0o777)
  const env = { ...settings(folder, ''), UNPACK_DIR: join(folder, 'shared') }
  const child = spawn(BINARY, [], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => { child.kill('SIGKILL') })
  let stderr = ''
  child.stderr.on('data', chunk => { stderr += String(chunk) })
  t.same(await once(child, 'exit'), [2, null])
  t.equal(stderr, `zoo-api: UNPACK_DIR: ${join(folder, 'shared')} is open to other users (mode 777); ` +
    `the binary loads code from it: chmod 700 ${join(folder, 'shared')}\n`)
  mkdirSync(join(folder, 'private'), { mode: 0o700 })
  const cli = execFileSync(BINARY, ['client', 'list'], { cwd: folder, env: { ...env, UNPACK_DIR: join(folder, 'private') } })
  t.same(JSON.parse(cli.toString()), [], 'the CLI unpacks there too, and reads the database')
})

t.test('what npm start runs, started by a Node.js older than engines allows, refuses in one line instead of crashing', {
  skip: olderNode === undefined && 'no older Node.js on the PATH to try it with'
}, async t => {
  if (olderNode === undefined) return
  const folder = makeTree(t, {})
  const started = spawnSync(olderNode.file, [join(ROOT, 'dist', 'server.js')],
    { cwd: folder, encoding: 'utf8', env: { ...settings(folder, ''), ...UNCOVERED } })
  t.same([started.status, started.signal], [1, null], 'no segmentation fault')
  t.equal(started.stderr, `zoo-api: start-up failed: Node.js ${olderNode.version} is older than the ` +
    `v${/(\d+\.\d+\.\d+)/.exec(PACKAGE.engines.node)?.[1]} this program needs; ` +
    'npm start and npm test run the Node.js that npm ci installs beside the program\n')
  t.same(readdirSync(folder), [], 'nothing written')
})
