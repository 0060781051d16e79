import t from 'tap'
import { bearer, build, call } from '../helper.js'

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
  t.match(bare.json().error, /^Content-Type must be application\/json/)
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

t.test("the documentation UI carries the service's name, not the framework's", async t => {
  const app = await build(t)
  const page = await app.inject({ method: 'GET', url: '/documentation', headers: { accept: 'text/html' } })
  t.match(page.body, /<title>Zoo API documentation<\/title>/)
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
    country: 'country must be an ISO 3166-1 alpha-2 code, upper case (such as DE)',
    opened_on: 'opened_on must be a date written YYYY-MM-DD'
  })
})
