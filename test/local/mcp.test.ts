import { lstatSync, realpathSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { delimiter, join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { HttpError } from '../../http/errors.ts'
import { toolResult } from '../../local/routes/mcp.ts'
import { allowedOf, bodyOf, cases, layout } from './escapes.ts'
import { buildLocal, listeningLocal, makeTree, mcpMessages, post, send } from './helper.ts'

/*
 * The MCP face of the local tool server, through the SDK's own client over Streamable HTTP on a
 * real socket: the same tools as the OpenAPI routes, the same answers, the same refusals.
 */

interface ToolResult {
  content: { type: string, text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

async function listening (t: Test, settings: Record<string, string>): Promise<{ app: FastifyInstance, port: number, url: URL }> {
  const { app, port } = await listeningLocal(t, settings)
  return { app, port, url: new URL(`http://127.0.0.1:${port}/mcp`) }
}

async function connected (
  t: Test, url: URL, headers: Record<string, string> = {}, client = new Client({ name: 'zoo-test', version: '1.0.0' })
): Promise<Client> {
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }))
  t.teardown(() => client.close())
  return client
}

const call = async (client: Client, name: string, args: unknown): Promise<ToolResult> =>
  await client.callTool({ name, arguments: args as Record<string, unknown> }) as ToolResult

/** What `lstat` says a path is, in the words of a listing's `type`; `missing` when nothing is there. */
function typeAt (path: string): string {
  const info = lstatSync(path, { throwIfNoEntry: false })
  if (info === undefined) return 'missing'
  return info.isFile() ? 'file' : info.isDirectory() ? 'directory' : info.isSymbolicLink() ? 'symlink' : 'other'
}

type Page = { path: string, entries: { name: string, type: string }[] }

/**
 * Every entry of a listing is in the directory answered, as what the listing says it is (a
 * symbolic link itself, not followed), and that directory's real path within an allowed one.
 */
function namesNothingOutside (t: Test, page: Page, allowed: string[], label: string): void {
  const real = realpathSync(page.path)
  const roots = allowed.map(dir => realpathSync(dir))
  t.ok(roots.some(root => real === root || real.startsWith(`${root}/`)), `${label}: ${real} lies within an allowed directory`)
  for (const entry of page.entries) t.equal(typeAt(join(real, entry.name)), entry.type, `${label}: ${entry.name} is there, a ${entry.type}`)
}

t.test('the tools: their names, annotations and schemas, which are the OpenAPI routes\' own', async t => {
  const root = makeTree(t, { a: {} })
  const { app, url } = await listening(t, { ALLOWED_DIRS: `${root}/a` })
  const client = await connected(t, url)
  const { tools } = await client.listTools()
  t.same(tools.map(tool => tool.name).sort(), ['list_allowed_directories', 'list_directory'])
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  for (const tool of tools) {
    const operation = document.paths[`/${tool.name}`].post
    t.match(tool.annotations, { readOnlyHint: true, openWorldHint: false, destructiveHint: false }, `${tool.name}: annotations`)
    t.same(tool.inputSchema, operation.requestBody.content['application/json'].schema, `${tool.name}: the route's body`)
    t.same(tool.outputSchema, operation.responses['200'].content['application/json'].schema, `${tool.name}: the route's answer`)
  }
})

t.test('list_allowed_directories answers what the route answers, as structured content and as text', async t => {
  const root = makeTree(t, { a: {}, b: {} })
  const { app, url } = await listening(t, { ALLOWED_DIRS: [`${root}/a`, `${root}/b`].join(delimiter) })
  const client = await connected(t, url)
  const route = (await post(app, '/list_allowed_directories', {})).json()
  t.same(route, { directories: [`${root}/a`, `${root}/b`] })
  const result = await call(client, 'list_allowed_directories', {})
  t.notOk(result.isError)
  t.same(result.structuredContent, route)
  t.same(JSON.parse(result.content[0]?.text ?? ''), route)
  const refused = await post(app, '/list_allowed_directories', { path: '/' })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().error, /^path is not a known field/)
  const extra = await call(client, 'list_allowed_directories', { path: '/' })
  t.same(extra, { content: [{ type: 'text', text: refused.json().error }], isError: true })
})

t.test('every case of the escape suite gets the same answer from both faces, and nothing outside', async t => {
  const root = makeTree(t, layout)
  const allowed = allowedOf(root)
  const { app, url } = await listening(t, { ALLOWED_DIRS: allowed.join(delimiter) })
  const client = await connected(t, url)
  // A raw request is a matter of HTTP; tool arguments are a JSON object.
  const asArguments = cases.filter(c => c.raw === undefined && typeof bodyOf(root, c) === 'object' && !Array.isArray(bodyOf(root, c)) &&
    bodyOf(root, c) !== null)
  t.ok(asArguments.length >= 80, `${asArguments.length} cases`)
  for (const c of asArguments) {
    const body = bodyOf(root, c)
    const route = await post(app, '/list_directory', body)
    t.equal(route.statusCode, c.status, `${c.name}: the route's status`)
    const result = await call(client, 'list_directory', body)
    if (c.status === 200) {
      t.notOk(result.isError, `${c.name}: a listing`)
      t.same(result.structuredContent, route.json(), `${c.name}: the route's answer`)
      t.same(JSON.parse(result.content[0]?.text ?? ''), route.json(), `${c.name}: the same as text`)
      namesNothingOutside(t, route.json(), allowed, c.name)
    } else {
      const refusal = { content: [{ type: 'text', text: route.json().error }], isError: true }
      t.same(result, refusal, `${c.name}: a tool error with the route's message`)
      t.equal(route.json().error, c.error, `${c.name}: the suite's message`)
    }
  }
})

t.test('a listing paged through MCP is the listing paged through the route', async t => {
  const files = Object.fromEntries(Array.from({ length: 23 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, 'x'.repeat(i)]))
  const root = makeTree(t, { big: { ...files, sub: {} } })
  const { app, url } = await listening(t, { ALLOWED_DIRS: `${root}/big` })
  const client = await connected(t, url)
  const walk = async (page: (cursor?: string) => Promise<{ entries: unknown[], next_cursor: string | null }>) => {
    const pages = []
    let cursor: string | undefined
    do {
      const answer = await page(cursor)
      pages.push(answer)
      cursor = answer.next_cursor ?? undefined
    } while (cursor !== undefined)
    return pages
  }
  const args = (cursor?: string) => ({ path: `${root}/big`, limit: 5, ...(cursor === undefined ? {} : { cursor }) })
  const byRoute = await walk(async cursor => (await post(app, '/list_directory', args(cursor))).json())
  const byMcp = await walk(async cursor => (await call(client, 'list_directory', args(cursor))).structuredContent as never)
  t.equal(byRoute.length, 5, 'five pages of five')
  t.same(byMcp, byRoute)
  t.equal(byMcp.flatMap(page => page.entries).length, 24)
})

t.test('offered Roots widen nothing: the server never asks for them', async t => {
  const root = makeTree(t, { a: {}, outside: { 'secret.txt': 's' } })
  const { url } = await listening(t, { ALLOWED_DIRS: `${root}/a` })
  const client = new Client({ name: 'zoo-test', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } })
  let asked = 0
  client.setRequestHandler('roots/list', async () => {
    asked++
    return { roots: [{ uri: 'file:///', name: 'everything' }] }
  })
  await connected(t, url, {}, client)
  await client.sendRootsListChanged()
  t.same((await call(client, 'list_allowed_directories', {})).structuredContent, { directories: [`${root}/a`] })
  const outside = await call(client, 'list_directory', { path: `${root}/outside` })
  t.same(outside, { content: [{ type: 'text', text: 'Access denied - the path is outside the allowed directories' }], isError: true })
  t.equal(asked, 0, 'roots/list was never asked')
})

t.test('LOCAL_API_KEY is required on /mcp, compared as on the routes', async t => {
  const root = makeTree(t, { a: {} })
  const { port, url } = await listening(t, { ALLOWED_DIRS: `${root}/a`, LOCAL_API_KEY: 'k'.repeat(32) })
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
  })
  const headers = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  const none = await send(port, { path: '/mcp', headers, body: initialize })
  t.equal(none.status, 401)
  t.equal(none.headers['www-authenticate'], 'Bearer realm="zoo-local"')
  const wrong = await send(port, { path: '/mcp', headers: { ...headers, authorization: `Bearer ${'j'.repeat(32)}` }, body: initialize })
  t.equal(wrong.status, 401)
  t.match(wrong.headers['www-authenticate'], /error="invalid_token"/)
  await t.rejects(connected(t, url), 'the SDK client without the key is refused')
  const client = await connected(t, url, { authorization: `Bearer ${'k'.repeat(32)}` })
  t.same((await call(client, 'list_allowed_directories', {})).structuredContent, { directories: [`${root}/a`] })
})

t.test('every route of the local tool server, /mcp among them, refuses a foreign Host or Origin', async t => {
  const root = makeTree(t, { a: {} })
  const { app, port } = await listening(t, { ALLOWED_DIRS: `${root}/a` })
  const routes = ['/', '/openapi.json', '/favicon.ico', '/list_allowed_directories', '/list_directory', '/mcp', '/missing']
  const rebinding: Record<string, string>[] = [
    { host: 'evil.example' }, { host: `evil.example:${port}` }, { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }
  ]
  for (const url of routes) {
    for (const method of ['GET', 'POST']) {
      for (const headers of rebinding) {
        const body = method === 'POST' ? { headers: { ...headers, 'content-type': 'application/json' }, body: '{}' } : { headers }
        const res = await send(port, { method, path: url, ...body })
        t.equal(res.status, 403, `${method} ${url} ${JSON.stringify(headers)}`)
        t.match(res.json(), { error: /^Access denied - / })
      }
    }
  }
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  const operations = Object.keys(document.paths).sort()
  t.same(operations, ['/list_allowed_directories', '/list_directory'], 'the OpenAPI face: the two operations, as before')
})

t.test('/mcp refuses a foreign Host or Origin, and serves only POST', async t => {
  const root = makeTree(t, { a: {} })
  const { port } = await listening(t, { ALLOWED_DIRS: `${root}/a` })
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })
  const host = await send(port, { path: '/mcp', headers: { ...headers, host: 'evil.example' }, body: ping })
  t.equal(host.status, 403)
  t.match(host.json(), { error: /^Access denied - / })
  const origin = await send(port, { path: '/mcp', headers: { ...headers, host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, body: ping })
  t.equal(origin.status, 403)
  const local = await send(port, { path: '/mcp', headers: { ...headers, host: `localhost:${port}`, origin: `http://localhost:${port}` }, body: ping })
  t.not(local.status, 403, 'a loopback page may call it')
  for (const method of ['GET', 'DELETE', 'PUT']) {
    const res = await send(port, { method, path: '/mcp', headers: { host: `127.0.0.1:${port}`, accept: 'text/event-stream' } })
    t.equal(res.status, 405, method)
    t.equal(res.headers.allow, 'POST', `${method}: Allow`)
  }
})

t.test('clients of the 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28 revisions are served', async t => {
  const root = makeTree(t, { a: { 'f.txt': 'f' } })
  const { port, url } = await listening(t, { ALLOWED_DIRS: `${root}/a` })
  const headers = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  for (const revision of ['2025-03-26', '2025-06-18', '2025-11-25']) {
    const rpc = async (body: object, extra: Record<string, string> = {}) => {
      const res = await send(port, { path: '/mcp', headers: { ...headers, ...extra }, body: JSON.stringify({ jsonrpc: '2.0', ...body }) })
      t.equal(res.status, 200, `${revision}: ${res.text}`)
      return mcpMessages(res.headers['content-type'], res.text)[0] as Record<string, any>
    }
    const clientInfo = { name: 'x', version: '1' }
    const init = await rpc({ id: 1, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo } })
    t.equal(init.result.protocolVersion, revision, `${revision}: negotiated`)
    t.same(init.result.capabilities.tools, { listChanged: false }, `${revision}: tools offered, a list that never changes`)
    const listed = await rpc({ id: 2, method: 'tools/call', params: { name: 'list_directory', arguments: { path: `${root}/a` } } },
      { 'mcp-protocol-version': revision })
    t.match(listed.result.structuredContent, { path: `${root}/a`, entries: [{ name: 'f.txt', type: 'file', size: 1 }], next_cursor: null })
  }
  // The SDK's client: by default the 2025 handshake; asked to, the 2026-07-28 revision.
  const clients = {
    '2025-11-25': new Client({ name: 'zoo-test', version: '1.0.0' }),
    '2026-07-28': new Client({ name: 'zoo-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
  }
  for (const [revision, client] of Object.entries(clients)) {
    await connected(t, url, {}, client)
    t.equal(client.getNegotiatedProtocolVersion(), revision, `the SDK's client on ${revision}`)
    t.match((await call(client, 'list_directory', { path: `${root}/a` })).structuredContent, { entries: [{ name: 'f.txt' }] }, revision)
  }
})

t.test('a fault in a tool is logged and answered in words that name nothing, as a route answers one', async t => {
  const logged: unknown[] = []
  const log = { error: (...args: unknown[]) => logged.push(args) } as unknown as Parameters<typeof toolResult>[1]
  const fault = await toolResult(() => { throw new Error("EIO: i/o error, scandir '/secret/outside'") }, log)
  t.same(fault, { content: [{ type: 'text', text: 'Internal server error' }], isError: true })
  t.equal(logged.length, 1, 'logged')
  const refusal = await toolResult(() => { throw new HttpError(403, 'Access denied - the path is outside the allowed directories') }, log)
  t.same(refusal, { content: [{ type: 'text', text: 'Access denied - the path is outside the allowed directories' }], isError: true })
  const busy = await toolResult(() => { throw new HttpError(503, 'Busy, try again') }, log)
  t.same(busy, { content: [{ type: 'text', text: 'Busy, try again' }], isError: true }, 'an answer of ours keeps its words, as on a route')
  t.equal(logged.length, 1, 'only the fault was logged')
})

t.test('requests leave nothing behind: the heap does not grow with the number of tool calls', async t => {
  // A fresh server per request must not mean fresh schemas: the SDK's validator keeps every
  // schema it compiled (before the fix, 3,000 calls kept about 80 MiB).
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const root = makeTree(t, { a: { 'f.txt': 'f' } })
  const app = await buildLocal(t, { ALLOWED_DIRS: `${root}/a` })
  const payload = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_directory', arguments: { path: `${root}/a` } }
  })
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  let answered = 0
  const calls = async (count: number) => {
    for (let i = 0; i < count; i++) {
      if ((await app.inject({ method: 'POST', url: '/mcp', headers, payload })).statusCode === 200) answered++
    }
  }
  await calls(200)
  gc()
  const before = process.memoryUsage().heapUsed
  await calls(2000)
  gc()
  const grown = (process.memoryUsage().heapUsed - before) / 2 ** 20
  t.equal(answered, 2200, 'every call answered')
  t.ok(grown < 20, `the heap grew ${grown.toFixed(1)} MiB over 2,000 calls`)
})
