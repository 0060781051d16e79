import t from 'tap'
import { bearer, build, call } from '../helper.ts'
import { buildLocal, post } from '../local/helper.ts'

t.test('a body that is not declared JSON is 415 saying what to send', async t => {
  const app = await build(t)
  const authorization = await bearer(app)
  const form = await app.inject({
    method: 'POST',
    url: '/v1/zoos',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'name=Berlin'
  })
  t.equal(form.statusCode, 415)
  t.match(form.json().error, /^Content-Type must be application\/json; got application\/x-www-form-urlencoded/)
  const bare = await app.inject({
    method: 'POST',
    url: '/v1/zoos',
    headers: { authorization },
    payload: '{"name":"Berlin","city":"Berlin"}'
  })
  t.equal(bare.statusCode, 415, 'no Content-Type at all')
  t.equal(bare.json().error, 'Content-Type must be application/json; the request had none')
  const local = await buildLocal(t, {})
  for (const [headers, api] of [[{ 'content-type': 'application/x-www-form-urlencoded' }, form], [{}, bare]] as const) {
    const tool = await local.inject({
      method: 'POST',
      url: '/list_directory',
      headers: { host: 'localhost', ...headers },
      payload: 'path=/'
    })
    t.same([tool.statusCode, tool.json()], [415, api.json()], 'the local tool server says the same')
  }
})

t.test('GET on the token and revocation endpoints is 405 with Allow, like every known path', async t => {
  const app = await build(t)
  for (const url of ['/oauth/token', '/oauth/revoke']) {
    const res = await app.inject({ method: 'GET', url })
    t.equal(res.statusCode, 405, url)
    t.equal(res.headers.allow, 'POST', url)
    t.match(res.json(), { error: /GET is not allowed here/ })
  }
})

t.test('a 401 points at the documentation of how to get a token', async t => {
  const app = await build(t, { API_PREFIX: '/api' })
  const res = await app.inject({ method: 'GET', url: '/api/v1/zoos' })
  t.equal(res.statusCode, 401)
  t.equal(res.json().documentation_url, 'http://localhost:80/api/documentation#/oauth/issueToken')
})

t.test('the documentation says how to get a token, where a 401 points', async t => {
  const app = await build(t)
  const document = (await app.inject({ method: 'GET', url: '/documentation/json' })).json()
  const issueToken = document.paths['/oauth/token'].post
  t.equal(issueToken.operationId, 'issueToken')
  t.same(issueToken.tags, ['oauth'], 'the operation the 401 link (#/oauth/issueToken) opens')
  for (const step of [/bootstrap client/, /npm run cli -- client create --scope/, /grant_type=client_credentials/,
    /Authorization: Bearer <access_token>/]) {
    t.match(issueToken.description, step)
  }
  t.match(document.info.description, /POST \/oauth\/token \(issueToken\)/, 'the overview points at it')
})

t.test("the documentation UI carries the service's name, not the framework's", async t => {
  const app = await build(t)
  const page = await app.inject({ method: 'GET', url: '/documentation', headers: { accept: 'text/html' } })
  t.match(page.body, /<title>Zoo API<\/title>/)
  t.notMatch(page.body, /favicon-(16|32)x\d+\.png/, "not the framework's icon")
  const icon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page.body)?.[1] ?? ''
  t.match(icon, /\.svg$/, 'an icon of its own')
  const favicon = await app.inject({ method: 'GET', url: new URL(icon, 'http://localhost/documentation').pathname })
  t.equal(favicon.statusCode, 200, 'served')
  t.match(favicon.headers['content-type'], /^image\/svg\+xml/)
  const script = await app.inject({ method: 'GET', url: '/documentation/static/swagger-initializer.js' })
  const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(script.body)?.[1]
  t.match(Buffer.from(logo ?? '', 'base64').toString(), /Zoo API/, "the top bar shows the service's name")
})

t.test('validation messages say what is allowed', async t => {
  const app = await build(t)
  const res = await call(app, 'POST', '/v1/zoos', { name: '', city: 'x'.repeat(101), country: 'de', opened_on: '1.5.1844' })
  t.equal(res.statusCode, 422)
  const messages = Object.fromEntries(res.json().errors.map((e: { field: string; message: string }) => [e.field, e.message]))
  t.same(messages, {
    name: 'name must not be empty',
    city: 'city must have at most 100 characters',
    country: 'country must be an upper-case ISO 3166-1 alpha-2 code such as DE',
    opened_on: 'opened_on must be a date written YYYY-MM-DD'
  })
})

t.test('the API and the local tool server word the same validation error alike', async t => {
  const app = await build(t)
  const local = await buildLocal(t, {})
  const api = async (body: unknown) => (await call(app, 'POST', '/v1/zoos', body)).json()
  const tool = async (body: unknown) => (await post(local, '/list_directory', body, { host: 'localhost' })).json().error
  t.same((await api({ name: 5, city: 'Rome' })).errors, [{ field: 'name', code: 'type', message: 'name must be a string' }])
  t.equal(await tool({ path: 5 }), 'path must be a string')
  t.same((await api({ name: 'Zoo', city: 'Rome', colour: 'green' })).errors, [
    { field: 'colour', code: 'unknown', message: 'colour is not a known field' }
  ])
  t.equal(await tool({ path: '/', colour: 'green' }), 'colour is not a known field')
  t.same(await api('Zoo'), { error: 'Request body must be a JSON object or array' })
  t.equal(await tool('/'), 'Request body must be a JSON object')
  t.equal(await tool({ path: '/', limit: 0 }), 'limit must be >= 1')
  t.match((await api({ name: '', city: 'Rome' })).errors, [{ message: 'name must not be empty' }])
  t.equal(await tool({ path: '' }), 'path must not be empty')
})
