import t, { type Test } from 'tap'
import { buildLocal, listeningLocal, makeTree, send, sendRaw, type SocketResponse } from './helper.ts'

const HOST_DENIED = 'Access denied - this server answers only requests addressed to a loopback name such as localhost or 127.0.0.1'
const ORIGIN_DENIED = 'Access denied - requests from web pages are refused unless they are served from a loopback address'
const KEY = 'k3y-0f-the-l0cal-t00l-server'

async function listening (t: Test, settings: Record<string, string> = {}) {
  const root = makeTree(t, { allowed: { 'b.txt': 'bb', 'a.txt': 'a', sub: {} }, outside: {} })
  const { port } = await listeningLocal(t, { ALLOWED_DIRS: `${root}/allowed`, ...settings })
  const call = async (
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}
  ): Promise<SocketResponse> =>
    send(port, {
      method: options.method,
      path,
      headers: {
        host: `localhost:${port}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    })
  return { root, port, call }
}

t.test('the DNS-rebinding guard: Host must be a loopback name', async t => {
  const { root, port, call } = await listening(t)
  const cases: [string, number][] = [
    [`localhost:${port}`, 200],
    [`127.0.0.1:${port}`, 200],
    [`[::1]:${port}`, 200],
    ['127.0.0.2', 200],
    [`LOCALHOST:${port}`, 200],
    // URL parsing gives one spelling to every form of an address.
    ['2130706433', 200],
    ['evil.example', 403],
    [`evil.example:${port}`, 403],
    ['localhost.evil.example', 403],
    ['127.0.0.1.nip.io', 403],
    ['app.localhost', 403],
    ['localhost@evil.example', 403],
    ['localhost/evil', 403],
    ['0.0.0.0', 403],
    ['192.168.1.10', 403],
    ['[::ffff:127.0.0.1]', 403],
    ['256.0.0.1', 403],
    ['[:::1]', 403]
  ]
  for (const [host, status] of cases) {
    const res = await call('/list_allowed_directories', { headers: { host } })
    t.equal(res.status, status, `Host: ${host}`)
    if (status === 200) t.same(res.json(), { directories: [`${root}/allowed`] }, `Host: ${host}`)
    else t.same(res.json(), { error: HOST_DENIED }, `Host: ${host}`)
  }
  for (const [label, head] of [
    ['an empty Host', 'HTTP/1.1\r\nHost: '],
    ['HTTP/1.0 without Host', 'HTTP/1.0']
  ] as const) {
    const raw = await sendRaw(port, `POST /list_allowed_directories ${head}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`)
    t.equal(raw.status, 403, label)
    t.same(JSON.parse(raw.body), { error: HOST_DENIED }, label)
  }
  const res = await call('/list_directory', { headers: { host: 'evil.example' }, body: { path: `${root}/allowed` } })
  t.equal(res.status, 403, 'list_directory is guarded too')
  t.same(res.json(), { error: HOST_DENIED })
  const doc = await call('/openapi.json', { method: 'GET', headers: { host: 'evil.example' } })
  t.equal(doc.status, 403, 'and the OpenAPI document')
})

t.test('the DNS-rebinding guard: an Origin, when sent, must be loopback; no CORS', async t => {
  const { root, port, call } = await listening(t)
  const cases: [string, number][] = [
    ['http://localhost:3000', 200],
    [`http://127.0.0.1:${port}`, 200],
    ['https://localhost', 200],
    ['http://[::1]:8080', 200],
    ['http://evil.example', 403],
    ['https://localhost.evil.example', 403],
    ['http://127.0.0.1.nip.io', 403],
    ['null', 403],
    ['file://', 403],
    ['chrome-extension://abcdefghijklmnop', 403]
  ]
  for (const [origin, status] of cases) {
    const res = await call('/list_directory', { headers: { origin }, body: { path: `${root}/allowed` } })
    t.equal(res.status, status, `Origin: ${origin}`)
    if (status === 403) t.same(res.json(), { error: ORIGIN_DENIED }, `Origin: ${origin}`)
    else t.equal(res.json().entries.length, 3)
    t.equal(res.headers['access-control-allow-origin'], undefined, `no CORS header for ${origin}`)
  }
  const preflight = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }
  const local = await call('/list_directory', { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', ...preflight } })
  t.equal(local.status, 405, 'a preflight is not answered as CORS')
  t.same(local.json(), { error: 'OPTIONS is not allowed here; allowed: POST' })
  t.equal(local.headers.allow, 'POST')
  t.notOk(Object.keys(local.headers).some(name => name.startsWith('access-control-')))
  const evil = await call('/list_directory', { method: 'OPTIONS', headers: { origin: 'http://evil.example', ...preflight } })
  t.equal(evil.status, 403)
  t.same(evil.json(), { error: ORIGIN_DENIED })
})

t.test('both operations over a socket', async t => {
  const { root, call } = await listening(t)
  for (const [label, options] of [
    ['no body', {}],
    ['{}', { body: {} }],
    ['an empty JSON body', { headers: { 'content-type': 'application/json' } }]
  ] as const) {
    const res = await call('/list_allowed_directories', options)
    t.equal(res.status, 200, label)
    t.match(res.headers['content-type'], /^application\/json/)
    t.same(res.json(), { directories: [`${root}/allowed`] }, label)
  }
  const extra = await call('/list_allowed_directories', { body: { path: '/' } })
  t.equal(extra.status, 400)
  t.same(extra.json(), { error: 'path is not a known field; No members: send {} (a request without a body is taken as {})' })
  const text = await call('/list_allowed_directories', { headers: { 'content-type': 'text/plain' }, body: 'x' })
  t.equal(text.status, 415)
  t.same(text.json(), { error: 'Content-Type must be application/json; got text/plain' })

  const first = await call('/list_directory', { body: { path: `${root}/allowed`, limit: 2 } })
  t.equal(first.status, 200)
  const page = first.json()
  t.match(page, {
    path: `${root}/allowed`,
    entries: [
      { name: 'a.txt', type: 'file', size: 1 },
      { name: 'b.txt', type: 'file', size: 2 }
    ],
    next_cursor: /^[A-Za-z0-9_-]+$/
  })
  t.same(Object.keys(page.entries[0]), ['name', 'type', 'size', 'modified'])
  const second = await call('/list_directory', { body: { path: `${root}/allowed`, limit: 2, cursor: page.next_cursor } })
  t.match(second.json(), { path: `${root}/allowed`, entries: [{ name: 'sub', type: 'directory', size: null }], next_cursor: null })
  const outside = await call('/list_directory', { body: { path: `${root}/outside` } })
  t.equal(outside.status, 403)
  t.same(outside.json(), { error: 'Access denied - the path is outside the allowed directories' })
  const get = await call('/list_directory', { method: 'GET' })
  t.equal(get.status, 405)
  t.equal(get.headers.allow, 'POST')
  const unknown = await call('/read_file', { body: { path: `${root}/allowed/a.txt` } })
  t.equal(unknown.status, 404)
  t.same(unknown.json(), { error: 'Nothing at /read_file' })
})

t.test('LOCAL_API_KEY: the operations need it as a bearer token', async t => {
  const { root, call } = await listening(t, { LOCAL_API_KEY: KEY })
  const body = { path: `${root}/allowed` }
  const missing = await call('/list_directory', { body })
  t.equal(missing.status, 401)
  t.equal(missing.headers['www-authenticate'], 'Bearer realm="zoo-local"')
  t.same(missing.json(), { error: 'Authorization required: send Authorization: Bearer <LOCAL_API_KEY>' })
  for (const authorization of [`Bearer ${KEY}x`, `Bearer ${KEY.slice(1)}`, 'Bearer ', `Basic ${KEY}`, `Bearer ${KEY} ${KEY}`, KEY]) {
    const res = await call('/list_directory', { body, headers: { authorization } })
    t.equal(res.status, 401, authorization)
    t.equal(res.headers['www-authenticate'], 'Bearer realm="zoo-local", error="invalid_token"')
    t.same(res.json(), { error: 'Wrong API key' })
  }
  const allowed = await call('/list_allowed_directories', { headers: { authorization: `Bearer ${KEY}` } })
  t.equal(allowed.status, 200)
  t.same(allowed.json(), { directories: [`${root}/allowed`] })
  const listed = await call('/list_directory', { body, headers: { authorization: `bearer ${KEY}` } })
  t.equal(listed.status, 200, 'the scheme is case-insensitive')
  t.equal(listed.json().entries.length, 3)
  const rebinding = await call('/list_directory', { body, headers: { authorization: `Bearer ${KEY}`, host: 'evil.example' } })
  t.equal(rebinding.status, 403, 'the key does not lift the Host guard')
  const doc = await call('/openapi.json', { method: 'GET' })
  t.equal(doc.status, 200, 'the OpenAPI document needs no key')
  t.same(doc.json().security, [{ apiKey: [] }])
  t.same(doc.json().components.securitySchemes, { apiKey: { type: 'http', scheme: 'bearer', description: 'LOCAL_API_KEY' } })
})

t.test('GET /openapi.json describes both operations from their schemas', async t => {
  const { port, call } = await listening(t)
  const res = await call('/openapi.json', { method: 'GET' })
  t.equal(res.status, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  const doc = res.json()
  t.equal(doc.openapi, '3.1.0')
  t.same(doc.servers, [{ url: `http://localhost:${port}` }])
  t.same(Object.keys(doc.paths).sort(), ['/list_allowed_directories', '/list_directory'])
  t.equal(doc.security, undefined, 'no key, no security requirement')
  const allowed = doc.paths['/list_allowed_directories'].post
  const list = doc.paths['/list_directory'].post
  t.equal(allowed.operationId, 'list_allowed_directories')
  t.equal(list.operationId, 'list_directory')
  t.ok(allowed.summary)
  t.ok(list.summary)
  const request = list.requestBody.content['application/json'].schema
  t.same(request.required, ['path'])
  t.same(Object.keys(request.properties), ['path', 'limit', 'cursor'])
  t.match(request.properties.limit, { type: 'integer', minimum: 1, maximum: 10000, default: 1000 })
  t.equal(request.additionalProperties, false)
  const answer = list.responses['200'].content['application/json'].schema
  t.same(answer.required, ['path', 'entries', 'next_cursor'])
  t.same(answer.properties.entries.items.properties.type.enum, ['file', 'directory', 'symlink', 'other'])
  t.same(Object.keys(list.responses).sort(), ['200', '400', '401', '403', '404', '413', '415', '500'])
  t.same(allowed.responses['200'].content['application/json'].schema.properties.directories.type, 'array')
  const head = await call('/openapi.json', { method: 'HEAD' })
  t.equal(head.status, 200)
  const post = await call('/openapi.json', { method: 'POST' })
  t.equal(post.status, 405)
  t.equal(post.headers.allow, 'GET, HEAD')
})

t.test('a body over 64 KiB is 413 with an error, as the document says of both operations', async t => {
  const { root, call } = await listening(t)
  // The fuzzer's find (test/fuzz/local.test.ts): the answer was right, the document did not list it.
  const doc = (await call('/openapi.json', { method: 'GET' })).json()
  for (const path of ['/list_allowed_directories', '/list_directory']) {
    t.ok(doc.paths[path].post.responses['413'], `${path} documents 413`)
    const res = await call(path, { body: { path: `${root}/allowed`, padding: 'x'.repeat(64 * 1024) } })
    t.equal(res.status, 413, path)
    t.same(res.json(), { error: 'The body is larger than the 65536 bytes this server accepts' }, path)
  }
})

t.test('the address listened on is a trusted Host too, unless it is a wildcard', async t => {
  const root = makeTree(t, { allowed: {} })
  const cases: [string, string, number][] = [
    ['::1', '[::1]:8000', 200],
    ['10.1.2.3', '10.1.2.3:8000', 200],
    ['10.1.2.3', '10.1.2.4', 403],
    ['fd00::1', '[fd00::1]:8000', 200],
    ['zoo.example', 'ZOO.example:8000', 200],
    ['0.0.0.0', '0.0.0.0:8000', 403],
    ['0.0.0.0', '10.1.2.3', 403],
    ['::', '[::]:8000', 403],
    ['0.0.0.0', 'localhost:8000', 200]
  ]
  for (const [listenHost, host, status] of cases) {
    const app = await buildLocal(t, { ALLOWED_DIRS: `${root}/allowed`, LOCAL_HOST: listenHost, LOCAL_API_KEY: KEY })
    const res = await app.inject({ method: 'POST', url: '/list_allowed_directories', headers: { host, authorization: `Bearer ${KEY}` } })
    t.equal(res.statusCode, status, `${listenHost}, Host: ${host}`)
    t.same(res.json(), status === 200 ? { directories: [`${root}/allowed`] } : { error: HOST_DENIED })
    await app.close()
  }
})
