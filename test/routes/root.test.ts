import t from 'tap'
import { RESOURCES } from '../../schemas/index.ts'
import { build, call } from '../helper.ts'

/** Every collection, in the order schemas/index.ts lists them. */
const COLLECTIONS = RESOURCES.map(r => r.name)

t.test('GET / links to version 1, every collection, the token endpoint and the OpenAPI document', async t => {
  const app = await build(t)
  const res = await call(app, 'GET', '/', undefined, { host: 'api.example.test' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  const body = res.json()
  t.same(body.link, { rel: 'v1', href: 'http://api.example.test/v1', title: 'Zoo API version 1', type: 'application/json' })
  t.same(body.links, [
    ...COLLECTIONS.map(c => ({
      rel: `collection http://api.example.test/v1/${c}`,
      href: `http://api.example.test/v1/${c}`,
      title: `List of ${c}`,
      type: 'application/json'
    })),
    { rel: 'oauth2-token', href: 'http://api.example.test/oauth/token', title: 'OAuth 2.0 token endpoint', type: 'application/json' },
    { rel: 'service-desc', href: 'http://api.example.test/documentation/json', title: 'OpenAPI 3.1 document', type: 'application/json' }
  ])
})

t.test('GET /v1 links to itself and every collection', async t => {
  const app = await build(t)
  const res = await call(app, 'GET', '/v1', undefined, { host: 'localhost:8443' })
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.same(body.link, { rel: 'self', href: 'http://localhost:8443/v1', title: 'Zoo API version 1', type: 'application/json' })
  t.same(
    body.links.map((l: { href: string }) => l.href),
    COLLECTIONS.map(c => `http://localhost:8443/v1/${c}`)
  )
})

t.test('HEAD / answers the headers of GET without a body', async t => {
  const app = await build(t)
  const get = await call(app, 'GET', '/')
  const head = await call(app, 'HEAD', '/')
  t.equal(head.statusCode, 200)
  t.equal(head.body, '')
  t.equal(head.headers['content-length'], get.headers['content-length'])
})

t.test('the root documents refuse other methods with 405 and Allow', async t => {
  const app = await build(t)
  for (const url of ['/', '/v1']) {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await call(app, method, url)
      t.equal(res.statusCode, 405, `${method} ${url}`)
      t.equal(res.headers.allow, 'GET, HEAD')
      t.match(res.json(), { error: `${method} is not allowed here; allowed: GET, HEAD` })
    }
  }
})

t.test('API_PREFIX mounts everything under it, hrefs included', async t => {
  const app = await build(t, { API_PREFIX: '/api' })
  const root = await call(app, 'GET', '/api', undefined, { host: 'example.test' })
  t.equal(root.statusCode, 200)
  t.equal(root.json().link.href, 'http://example.test/api/v1')
  t.equal(root.json().links[0].href, 'http://example.test/api/v1/zoos')
  t.equal(root.json().links.at(-1).href, 'http://example.test/api/documentation/json')
  const created = await call(app, 'POST', '/api/v1/zoos', { name: 'Zoo', city: 'Rome' }, { host: 'example.test' })
  t.equal(created.statusCode, 201)
  t.equal(created.headers.location, 'http://example.test/api/v1/zoos/1')
  const list = await call(app, 'GET', '/api/v1/zoos', undefined, { host: 'example.test' })
  t.match(list.headers.link, /<http:\/\/example\.test\/api\/v1\/zoos\?offset=0>; rel="first"/)
  const outside = await call(app, 'GET', '/v1/zoos')
  t.equal(outside.statusCode, 404)
  t.same(outside.json(), { error: 'Nothing at /v1/zoos' })
})

t.test('an unknown path is 404 with an error body', async t => {
  const app = await build(t)
  const res = await call(app, 'GET', '/v1/giraffes')
  t.equal(res.statusCode, 404)
  t.same(res.json(), { error: 'Nothing at /v1/giraffes' })
})

t.test('406 when Accept rules out JSON; JSON and wildcards are accepted', async t => {
  const app = await build(t)
  for (const accept of ['text/html', 'application/xml', 'application/json;q=0, text/plain']) {
    const res = await call(app, 'GET', '/v1', undefined, { accept })
    t.equal(res.statusCode, 406, accept)
    t.same(res.json(), { error: `This API answers only application/json; Accept was "${accept}"` })
  }
  for (const accept of ['application/json', '*/*', 'application/*', 'text/html, application/json;q=0.5']) {
    t.equal((await call(app, 'GET', '/v1', undefined, { accept })).statusCode, 200, accept)
  }
})

t.test('the documentation UI answers its own types: negotiation is for the JSON resources', async t => {
  for (const prefix of ['', '/api']) {
    const app = await build(t, prefix === '' ? {} : { API_PREFIX: prefix })
    const page = await app.inject({ method: 'GET', url: `${prefix}/documentation`, headers: { accept: 'text/html' } })
    t.equal(page.statusCode, 200, `${prefix}: the page to a browser sending only text/html`)
    t.match(page.headers['content-type'], /text\/html/)
    const script = await app.inject({
      method: 'GET',
      url: `${prefix}/documentation/static/swagger-initializer.js`,
      headers: { accept: 'text/javascript' }
    })
    t.equal(script.statusCode, 200, `${prefix}: its scripts`)
    const yaml = await app.inject({ method: 'GET', url: `${prefix}/documentation/yaml`, headers: { accept: 'application/x-yaml' } })
    t.equal(yaml.statusCode, 200, `${prefix}: the YAML document to Accept: application/x-yaml`)
    const icon = await app.inject({
      method: 'GET',
      url: `${prefix}/documentation/static/theme/favicon.svg`,
      headers: { accept: 'image/svg+xml' }
    })
    t.equal(icon.statusCode, 200, `${prefix}: its icon`)
    for (const url of [`${prefix}/`, `${prefix}/v1`, `${prefix}/oauth/token`]) {
      t.equal((await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).statusCode, 406, `${url} stays JSON`)
    }
  }
})

t.test('a Host header that names no host: hrefs name the origin of PUBLIC_URL instead, and stay URLs', async t => {
  const app = await build(t)
  for (const host of ['a b', 'x"y', 'evil.test/x?', '\u00e9']) {
    const root = await call(app, 'GET', '/', undefined, { host })
    t.equal(root.json().link.href, 'https://localhost:8443/v1', `${host}: the root document`)
    const refused = await app.inject({ method: 'GET', url: '/v1', headers: { host } })
    t.equal(refused.statusCode, 401)
    t.equal(refused.json().documentation_url, 'https://localhost:8443/documentation#/oauth/issueToken', `${host}: a 401`)
  }
  const named = await call(app, 'GET', '/', undefined, { host: 'my_service.internal:8080' })
  t.equal(named.json().link.href, 'http://my_service.internal:8080/v1', 'a host name URLs can hold is kept')
})
