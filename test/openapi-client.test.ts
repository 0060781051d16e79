import type { FastifyInstance, InjectOptions } from 'fastify'
import createClient from 'openapi-fetch'
import t from 'tap'
import type { components, paths } from './generated/openapi.ts'
import { BOOTSTRAP, basic, build } from './helper.ts'

const BASE_URL = 'https://localhost:8443'

/** A fetch that hands each request to `app.inject`, so the typed client calls the API in-process. */
function injected (app: FastifyInstance): (request: Request) => Promise<Response> {
  return async request => {
    const url = new URL(request.url)
    const body = Buffer.from(await request.arrayBuffer())
    const res = await app.inject({
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers), host: url.host },
      ...(body.length === 0 ? {} : { payload: body })
    })
    const headers = new Headers()
    for (const [name, value] of Object.entries(res.headers)) {
      for (const one of [value ?? []].flat()) headers.append(name, String(one))
    }
    // A Response with status 204 or 304 must have a null body.
    return new Response(res.rawPayload.length === 0 ? null : res.rawPayload, { status: res.statusCode, headers })
  }
}

t.test('a client generated from the document gets a token, creates, lists, reads and refuses as typed', async t => {
  const app = await build(t)
  const client = createClient<paths>({ baseUrl: BASE_URL, fetch: injected(app) })

  const token = await client.POST('/oauth/token', {
    body: { grant_type: 'client_credentials', scope: 'zoos:read zoos:write' },
    headers: { authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret), 'content-type': 'application/x-www-form-urlencoded' },
    bodySerializer: body => new URLSearchParams(body as Record<string, string>).toString()
  })
  t.equal(token.response.status, 200)
  t.match(token.data, { token_type: 'Bearer', scope: 'zoos:read zoos:write' })
  const authorization = `Bearer ${token.data?.access_token}`

  const created = await client.POST('/v1/zoos', {
    body: { name: 'Berlin Zoo', city: 'Berlin', country: 'DE' },
    headers: { authorization }
  })
  t.equal(created.response.status, 201)
  const zoo = created.data as components['schemas']['Zoo']
  t.match(zoo, { id: 1, name: 'Berlin Zoo', city: 'Berlin', country: 'DE', opened_on: null })
  // inject() speaks plain HTTP: the href has the scheme the request came by.
  t.equal(created.response.headers.get('location'), 'http://localhost:8443/v1/zoos/1')

  const list = await client.GET('/v1/zoos', { params: { query: { country: 'DE', sortby: 'name', limit: 10 } }, headers: { authorization } })
  t.equal(list.response.status, 200)
  // A list item is a full record or, with fields=, a sparse one: each field may be absent but id.
  const names: (string | undefined)[] | undefined = list.data?.map(z => z.name)
  t.same(names, ['Berlin Zoo'])
  t.equal(list.response.headers.get('x-total-count'), '1')
  t.match(list.response.headers.get('link'), /rel="first"/)

  const read = await client.GET('/v1/zoos/{id}', { params: { path: { id: zoo.id } }, headers: { authorization } })
  t.same(read.data, zoo)
  const etag = read.response.headers.get('etag') as string
  const unchanged = await client.GET('/v1/zoos/{id}', {
    params: { path: { id: zoo.id }, header: { 'If-None-Match': etag } },
    headers: { authorization }
  })
  t.equal(unchanged.response.status, 304)

  const missing = await client.GET('/v1/zoos/{id}', { params: { path: { id: 99 } }, headers: { authorization } })
  t.equal(missing.response.status, 404)
  const error: components['schemas']['Error'] | undefined = missing.error
  t.same(error, { error: 'no zoo with id 99' })

  const forbidden = await client.GET('/v1/animals', { headers: { authorization } })
  t.equal(forbidden.response.status, 403)
  t.match(forbidden.error, { error: 'The access token lacks the scope animals:read' })
})
