import { lstatSync, readdirSync, realpathSync } from 'node:fs'
import { delimiter } from 'node:path'
import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import t, { type Test } from 'tap'
import { loadConfig } from '../../config/index.ts'
import { buildLocalServer } from '../../local/app.ts'
import { encodeCursor } from '../../local/directory-listing.ts'
import { compareCodePoints } from '../../model/text.ts'
import { checkContract } from '../contract.ts'
import { makeTree, mcpMessages, type Tree } from '../local/helper.ts'
import {
  type Fuzzed, headerText, jsonPayload, method, nastyText, oddContentType, printable, rawNumber, runs, type Payload
} from './arbitraries.ts'

/**
 * Property-based fuzzing of the local tool server: list_directory asked about paths built from
 * the names of a real tree (`..`, prefix siblings, repeated separators, other letter cases, other
 * Unicode forms, null bytes, symbolic links pointing in and out), with garbage limits, cursors,
 * members, content types, hosts and keys. For every request: never a 5xx, every error a JSON
 * `error` that names no path of the tree, every answer as the server's OpenAPI document says
 * (checkContract), and no listing names anything outside the allowed directories, checked
 * against the file system itself.
 */

/** In the name of everything outside the allowed directories, and of nothing inside. */
const OUT = 'zq-outside-4f1c'
const KEY = 'fuzz-local-api-key-0123456789'
/** Spelled with escapes: an editor must not get to choose the normalization form. */
const CAFE_NFC = 'caf\u00e9'

/**
 * Two allowed directories and one that is a symbolic link, among a prefix sibling, an outside
 * directory and links from inside to all of them. Enough files in one directory that small limits
 * make pages.
 */
const layout = (root: string): Tree => ({
  [`${OUT}-top.txt`]: 'top',
  data: {
    allowed: {
      'file.txt': 'hello',
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`page-${String(i).padStart(2, '0')}.txt`, 'p'.repeat(i)])),
      sub: { deep: { 'leaf.txt': 'leaf' }, inner: { link: '../file.txt' } },
      [CAFE_NFC]: {},
      '%2e%2e': {},
      'link-in-dir': { link: 'sub' },
      'link-in-file': { link: 'file.txt' },
      'link-out-dir': { link: `../${OUT}` },
      'link-out-file': { link: `${root}/data/${OUT}/${OUT}-secret.txt` },
      'link-parent': { link: '..' },
      'link-root': { link: '/' },
      'link-evil': { link: `../allowed_${OUT}` },
      'link-other': { link: '../other' },
      'link-target': { link: '../target' },
      dangling: { link: 'missing' },
      loop1: { link: 'loop2' },
      loop2: { link: 'loop1' },
      chain1: { link: 'chain2' },
      chain2: { link: `../${OUT}` }
    },
    other: { 'o.txt': 'o', nested: { 'n.txt': 'n' } },
    target: { 't.txt': 't' },
    'allowed-link': { link: 'target' },
    [`allowed_${OUT}`]: { [`${OUT}-evil.txt`]: 'evil' },
    [OUT]: { [`${OUT}-secret.txt`]: 'secret', [`${OUT}-sub`]: { [`${OUT}-deeper.txt`]: 'deeper' } }
  }
})

/** The names a path is built of: those of the tree, dot segments, look-alikes and broken ones. */
const NAMES = ['data', 'allowed', 'other', 'target', 'allowed-link', `allowed_${OUT}`, OUT, `${OUT}-sub`, `${OUT}-secret.txt`,
  `${OUT}-top.txt`, 'sub', 'deep', 'inner', 'nested', 'file.txt', 'leaf.txt', 'page-03.txt', 'link-in-dir', 'link-in-file', 'link-out-dir',
  'link-out-file', 'link-parent', 'link-root', 'link-evil', 'link-other', 'link-target', 'dangling', 'loop1', 'chain1', 'missing',
  CAFE_NFC, 'cafe\u0301', '%2e%2e', 'ALLOWED', 'Allowed', 'DATA', 'allowed ', '.', '..', '...', '', '\u2025', '\uff0e\uff0e', '~',
  'allowed\u0000', '\u0000', '*', 'x'.repeat(256)]

const isWithin = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`)

/** The local tool server on `allowed`, its contract violations collected rather than failing the test. */
async function fuzzedServer (t: Test, allowed: string[]): Promise<{ app: FastifyInstance, violations: string[] }> {
  const violations: string[] = []
  const collector = { fail: (message: string) => violations.push(message) } as unknown as Test
  const config = loadConfig({ LOG_LEVEL: 'silent', ALLOWED_DIRS: allowed.join(delimiter), LOCAL_API_KEY: KEY }, [])
  const app = checkContract(collector, buildLocalServer(config))
  t.teardown(() => app.close())
  await app.ready()
  return { app, violations }
}

/**
 * What is wrong with a listing, by the file system: the path it answers must be an allowed
 * directory or under one, also once every symbolic link on it is resolved, and its entries must be
 * that directory's, in order, each what lstat says it is.
 */
function listingProblems (body: Record<string, unknown>, allowed: string[], sent: Record<string, unknown>): string[] {
  const path = String(body.path)
  if (!allowed.some(dir => isWithin(path, dir))) return [`listed ${path}, outside the allowed directories`]
  const real = realpathSync(path)
  if (!allowed.some(dir => isWithin(real, realpathSync(dir)))) return [`listed ${path}, which is ${real}, outside the allowed directories`]
  const names = readdirSync(real).sort(compareCodePoints)
  const entries = body.entries as { name: string, type: string, size: number | null }[]
  const problems: string[] = []
  const listed = entries.map(e => e.name)
  if (sent.cursor === undefined) {
    const limit = typeof sent.limit === 'number' ? sent.limit : 1000
    if (JSON.stringify(listed) !== JSON.stringify(names.slice(0, limit))) problems.push(`listed ${JSON.stringify(listed)} of ${real}`)
  } else if (listed.some((name, i) => !names.includes(name) || (i > 0 && compareCodePoints(listed[i - 1] as string, name) >= 0))) {
    problems.push(`listed ${JSON.stringify(listed)} of ${real} after a cursor`)
  }
  for (const entry of entries.filter(e => names.includes(e.name))) {
    const info = lstatSync(`${real}/${entry.name}`)
    const type = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : info.isSymbolicLink() ? 'symlink' : 'other'
    if (entry.type !== type || entry.size !== (info.isFile() ? info.size : null)) {
      problems.push(`${entry.name} is a ${type}: ${JSON.stringify(entry)}`)
    }
  }
  return problems
}

/** The headers the API key and the DNS-rebinding guard look at: mostly right, sometimes not. */
const guardHeaders = {
  authorization: fc.oneof({ weight: 12, arbitrary: fc.constant(`Bearer ${KEY}`) }, { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(`Bearer ${KEY} `, `bearer ${KEY}`, `Bearer ${KEY.slice(1)}`, 'Bearer', `Basic ${KEY}`) },
    { weight: 1, arbitrary: headerText }),
  host: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('127.0.0.1:8000', '[::1]', 'localhost.', 'evil.test', '127.0.0.1.evil.test', 'LOCALHOST', '0x7f.1')
    },
    { weight: 1, arbitrary: headerText }),
  origin: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('http://localhost:3000', 'https://evil.test', 'null', 'file://', 'http://127.0.0.1.evil.test') })
}

/** The bodies list_directory is sent, whichever face carries them: paths of the tree's names, garbage limits, cursors and members. */
function listingArbitraries (root: string, allowed: string[]) {
  const start = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...allowed, `${root}/data/allowed/sub`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(root, `${root}/data`, '/', '', '.', '~', 'C:\\', `file://${root}`, root.toUpperCase(), `/${root}`, `${root}\u0000`,
        `${root}/data/target`, `${root}/data/${OUT}`, `${root}/data/allowed_${OUT}`, `${root}/data/allowedx`, `${root}/DATA/allowed`)
    },
    { weight: 1, arbitrary: nastyText }
  )
  const step = fc.tuple(fc.constantFrom('/', '/', '/', '//', '/./', '\\', '/../'), fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...NAMES) },
    { weight: 1, arbitrary: nastyText }
  )).map(([separator, name]) => separator + name)
  const path = fc.tuple(start, fc.array(step, { maxLength: 5 }), fc.constantFrom('', '', '/', '//', '/.'))
    .map(([from, steps, end]) => from + steps.join('') + end)
  const cursor = fc.oneof(
    fc.constantFrom('file.txt', 'page-05.txt', 'sub', `${OUT}-secret.txt`, 'zzz', '', '\ud800').map(encodeCursor),
    fc.base64String({ maxLength: 16 }).map(text => text.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')),
    fc.constantFrom('YQ', 'YQB', '../..', 'x'.repeat(2049)),
    nastyText
  )
  const limit = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(0, -1, 10000, 10001, 2.5, 1e308, 2 ** 53, '5', null, true, [], {}) }
  )
  const member = fc.oneof(fc.constantFrom('recursive', 'dir', 'paths', 'Path', 'constructor', ''), fc.string({ maxLength: 6 }))
  const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number) =>
    fc.oneof({ weight: 10 - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary })
  const listing = fc.oneof(
    { weight: 8, arbitrary: fc.record({ path, limit: sometimes(limit, 5), cursor: sometimes(cursor, 2) }) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.record({ path, limit }), member, fc.jsonValue({ maxDepth: 1 })).map(([b, m, v]) => ({ ...b, [m]: v }))
    },
    { weight: 1, arbitrary: fc.record({ path: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.array(path, { maxLength: 2 })), limit }) },
    // Cut off where path would go: the request holds no path of the tree.
    { weight: 1, arbitrary: fc.constantFrom({}, { limit: 5 }) }
  )
  /** A body as sent: JSON of `body` mostly, else broken, a number no double holds, or too large; undefined for none. */
  const payload = (body: fc.Arbitrary<unknown>): fc.Arbitrary<Payload | undefined> => fc.oneof(
    { weight: 12, arbitrary: body.map(b => JSON.stringify(b)) },
    { weight: 4, arbitrary: jsonPayload(body) },
    {
      weight: 1,
      arbitrary: fc.tuple(body, rawNumber)
        .map(([b, n]) => JSON.stringify({ ...(b as object), limit: 0 }).replace('"limit":0', `"limit":${n}`))
    },
    { weight: 1, arbitrary: fc.constant(`{"path":"${root}/data/allowed","limit":1}${'x'.repeat(64 * 1024)}`) },
    { weight: 1, arbitrary: fc.constant(undefined) }
  )
  return { listing, payload }
}

t.test('list_directory never lists outside the allowed directories; no 5xx; a JSON error for every refusal', async t => {
  const root = makeTree(t, layout)
  const allowed = ['allowed', 'other', 'allowed-link'].map(name => `${root}/data/${name}`)
  const { app, violations } = await fuzzedServer(t, allowed)

  const { listing, payload } = listingArbitraries(root, allowed)
  const operation = fc.oneof(
    { weight: 12, arbitrary: fc.record({ url: fc.constant('/list_directory'), payload: payload(listing) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        url: fc.constant('/list_allowed_directories'),
        payload: fc.oneof(fc.constant(undefined), payload(fc.oneof(fc.constant({}), listing)))
      })
    },
    {
      weight: 1,
      arbitrary: fc.record({
        url: fc.constantFrom('/openapi.json', '/', '/list_directory/', '/LIST_DIRECTORY', '/list_directory?path=/', '/list_directory%00',
          '/list_directory/..', '/missing'),
        payload: payload(listing)
      })
    }
  )
  const requests = fc.record({
    operation,
    method: fc.oneof({ weight: 8, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: method }),
    contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: oddContentType },
      { weight: 1, arbitrary: fc.constant(undefined) }),
    ...guardHeaders
  }).map(r => {
    const sent = { 'content-type': r.contentType, authorization: r.authorization, host: r.host, origin: r.origin }
    const headers = Object.fromEntries(Object.entries(sent).filter((entry): entry is [string, string] => entry[1] !== undefined))
    const { url, payload } = r.operation
    return printable<Fuzzed>({ method: r.method, url, headers, ...(payload === undefined ? {} : { payload }) }, { key: KEY, root })
  })

  await fc.assert(fc.asyncProperty(requests, async request => {
    violations.length = 0
    const res = await app.inject({ ...request, method: request.method as InjectOptions['method'] })
    const problems = [...violations]
    const head = request.method.toUpperCase() === 'HEAD'
    if (res.statusCode >= 500) problems.push(`a server fault, ${res.statusCode}: ${res.body.slice(0, 300)}`)
    else if (res.statusCode >= 400 && !head) {
      const error = (res.json() as { error?: unknown }).error
      if (typeof error !== 'string') problems.push(`${res.statusCode} without a string error: ${res.body.slice(0, 300)}`)
      if (res.body.includes(root)) problems.push(`${res.statusCode} names a path of the tree: ${res.body.slice(0, 300)}`)
    } else if (res.statusCode === 200 && request.url === '/list_directory') {
      // Parsed as the server parsed it, to read the limit and cursor it was given.
      problems.push(...listingProblems(res.json(), allowed, JSON.parse(String(request.payload))))
    } else if (res.statusCode === 200 && request.url === '/list_allowed_directories') {
      if (JSON.stringify(res.json()) !== JSON.stringify({ directories: allowed })) problems.push(`listed ${res.body}`)
    }
    if (res.body.includes(OUT)) problems.push(`an answer names what lies outside: ${res.body.slice(0, 300)}`)
    if (problems.length > 0) throw new Error(problems.join('\n'))
  }), runs())
  t.pass(`${runs().numRuns} requests`)
})

/** How a tool's result differs from what the route answers to the same arguments as a body: it must not. */
async function faceDifferences (app: FastifyInstance, args: unknown, result: Record<string, unknown>): Promise<string[]> {
  const route = await app.inject({
    method: 'POST',
    url: '/list_directory',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    payload: JSON.stringify(args)
  })
  const text = (result.content as { text?: string }[] | undefined)?.[0]?.text
  const same = route.statusCode === 200
    ? result.isError !== true && JSON.stringify(result.structuredContent) === route.body
    : result.isError === true && text === route.json().error
  if (same) return []
  return [`the route answers ${route.statusCode} ${route.body.slice(0, 200)}, the tool ${JSON.stringify(result).slice(0, 200)}`]
}

t.test('/mcp: the same arguments as tools, and hostile JSON-RPC around them: no 5xx, nothing outside, the route\'s answers', async t => {
  const root = makeTree(t, layout)
  const allowed = ['allowed', 'other', 'allowed-link'].map(name => `${root}/data/${name}`)
  const { app } = await fuzzedServer(t, allowed)
  const { listing, payload } = listingArbitraries(root, allowed)

  const id = fc.oneof({ weight: 8, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom<unknown>('a', null, 1.5, {}, []) })
  const call = (name: fc.Arbitrary<string>, args: fc.Arbitrary<unknown>) =>
    fc.record({ jsonrpc: fc.constant('2.0'), id, method: fc.constant('tools/call'), params: fc.record({ name, arguments: args }) })
  const message = fc.oneof(
    { weight: 10, arbitrary: call(fc.constant('list_directory'), listing) },
    {
      weight: 2,
      arbitrary: call(fc.constant('list_allowed_directories'), fc.oneof(fc.constant({}), listing, fc.jsonValue({ maxDepth: 1 })))
    },
    { weight: 1, arbitrary: call(fc.oneof(fc.constantFrom('read_file', 'LIST_DIRECTORY', ''), nastyText), listing) },
    {
      weight: 2,
      arbitrary: fc.record({
        jsonrpc: fc.constantFrom('2.0', '1.0', 2),
        id,
        method: fc.constantFrom('initialize', 'ping', 'tools/list', 'resources/list', 'prompts/get', 'server/discover',
          'notifications/initialized', 'roots/list', 'logging/setLevel', 'completion/complete'),
        params: fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }), fc.record({
          protocolVersion: fc.constantFrom('2025-06-18', '2025-11-25', '2026-07-28', '2024-11-05', '1999-01-01', ''),
          capabilities: fc.constant({ roots: { listChanged: true } }),
          clientInfo: fc.constant({ name: 'fuzz', version: '1' })
        }))
      })
    },
    {
      weight: 1,
      // A batch's calls are told apart by id: each its own.
      arbitrary: fc.array(call(fc.constant('list_directory'), listing), { minLength: 1, maxLength: 3 })
        .map(calls => calls.map((message, index) => ({ ...message, id: index })))
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }
  )
  const requests = fc.record({
    method: fc.oneof({ weight: 12, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: method }),
    payload: payload(message),
    contentType: fc.oneof({ weight: 10, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: oddContentType }),
    accept: fc.oneof({ weight: 10, arbitrary: fc.constant('application/json, text/event-stream') },
      { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/event-stream', '*/*', 'text/html') }),
    protocolVersion: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.constantFrom('2025-06-18', '2025-11-25', '2026-07-28') }, { weight: 1, arbitrary: headerText }),
    ...guardHeaders
  }).map(r => {
    const sent = {
      'content-type': r.contentType,
      accept: r.accept,
      'mcp-protocol-version': r.protocolVersion,
      authorization: r.authorization,
      host: r.host,
      origin: r.origin
    }
    const headers = Object.fromEntries(Object.entries(sent).filter((entry): entry is [string, string] => entry[1] !== undefined))
    const fuzzed = { method: r.method, url: '/mcp', headers, ...(r.payload === undefined ? {} : { payload: r.payload }) }
    return printable<Fuzzed>(fuzzed, { key: KEY, root })
  })

  const seen = { listings: 0, toolErrors: 0 }
  await fc.assert(fc.asyncProperty(requests, async request => {
    const res = await app.inject({ ...request, method: request.method as InjectOptions['method'] })
    const problems: string[] = []
    const head = request.method.toUpperCase() === 'HEAD'
    if (res.statusCode >= 500) problems.push(`a server fault, ${res.statusCode}: ${res.body.slice(0, 300)}`)
    if (res.body.includes(OUT)) problems.push(`an answer names what lies outside: ${res.body.slice(0, 300)}`)
    if (res.statusCode >= 400 && !head && res.body !== '') {
      const answer = mcpMessages(res.headers['content-type'], res.body)[0] as { error?: unknown }
      const error = answer?.error as { code?: unknown, message?: unknown } | string | undefined
      const described = typeof error === 'string' || (typeof error?.code === 'number' && typeof error.message === 'string')
      if (!described) problems.push(`${res.statusCode} without an error: ${res.body.slice(0, 300)}`)
    }
    if (res.statusCode === 200) {
      const sent = JSON.parse(String(request.payload)) as unknown
      const calls = [sent].flat() as { id?: unknown, method?: unknown, params?: { name?: unknown, arguments?: Record<string, unknown> } }[]
      // Each answer goes with its call: a batch may hold several, told apart by id.
      for (const message of mcpMessages(res.headers['content-type'], res.body) as { id?: unknown, result?: Record<string, unknown> }[]) {
        const result = message.result
        const page = result?.structuredContent as Record<string, unknown> | undefined
        if (result?.isError === true) seen.toolErrors++
        const asked = calls.find(c => c.id === message.id && c.method === 'tools/call' && c.params?.name === 'list_directory')
        if (result !== undefined && asked !== undefined && typeof asked.params?.arguments === 'object') {
          problems.push(...await faceDifferences(app, asked.params.arguments, result))
        }
        if (result === undefined || page === undefined || result.isError === true) continue
        if (page.entries !== undefined) seen.listings++
        if (page.entries !== undefined && asked?.params?.arguments !== undefined) {
          problems.push(...listingProblems(page, allowed, asked.params.arguments))
        }
        if (page.directories !== undefined && JSON.stringify(page) !== JSON.stringify({ directories: allowed })) {
          problems.push(`listed ${res.body}`)
        }
      }
    } else if (res.body.includes(root)) {
      problems.push(`${res.statusCode} names a path of the tree: ${res.body.slice(0, 300)}`)
    }
    if (problems.length > 0) throw new Error(problems.join('\n'))
  }), runs())
  // Not a run of refusals only: listings and tool errors were answered, and checked.
  t.ok(seen.listings > 0 && seen.toolErrors > 0, `${runs().numRuns} requests: ${seen.listings} listings, ${seen.toolErrors} tool errors`)
})
