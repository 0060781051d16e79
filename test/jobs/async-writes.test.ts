import t from 'tap'
import { addClient, basic, bearer, BOOTSTRAP, build, call, create, snapshot, tokenRequest } from '../helper.ts'
import { accepted, ASYNC, finished, ZOO } from './helper.ts'

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

t.test('POST with Prefer: respond-async answers 202; the job creates the record and holds the 201', async t => {
  const app = await build(t)
  const res = await call(app, 'POST', '/v1/zoos', ZOO, ASYNC)
  const path = accepted(t, res)
  t.equal(res.headers['cache-control'], 'private, no-cache')
  const job = await finished(app, path)
  t.equal(job.status, 'succeeded')
  t.match(job.created_at, TIMESTAMP)
  t.match(job.finished_at, TIMESTAMP)
  t.ok((job.finished_at as string) >= job.created_at)
  const record = job.result?.body as { id: number, created_at: string, updated_at: string }
  t.same(job.result, {
    status: 201,
    body: { ...ZOO, id: record.id, opened_on: null, created_at: record.created_at, updated_at: record.updated_at }
  })
  const stored = await call(app, 'GET', `/v1/zoos/${record.id}`)
  t.equal(stored.statusCode, 200)
  t.same(stored.json(), record, 'the record exists, as the job reported it')
  t.equal(Number((await call(app, 'GET', '/v1/zoos')).headers['x-total-count']), 1, 'created once')

  const again = await call(app, 'GET', path)
  t.equal(again.statusCode, 200)
  t.notOk(again.headers['retry-after'], 'a finished job needs no further polling')
  t.same(again.json(), job)
})

t.test('PUT, PATCH, DELETE, a batch and a nested POST run as jobs too, with their own answers', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)

  const put = await finished(app, accepted(t, await call(app, 'PUT', `/v1/zoos/${zoo.id}`, { name: 'Zoo Berlin', city: 'Berlin' }, ASYNC)))
  t.same(put.result, { status: 201, body: { ...(await call(app, 'GET', `/v1/zoos/${zoo.id}`)).json(), name: 'Zoo Berlin', country: null } })

  const patch = await finished(app, accepted(t, await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Potsdam' }, ASYNC)))
  t.equal(patch.status, 'succeeded')
  t.match(patch.result, { status: 201, body: { id: zoo.id, name: 'Zoo Berlin', city: 'Potsdam' } })

  const batch = await finished(app, accepted(t, await call(app, 'POST', '/v1/animals', [
    { name: 'Knut', species: 'Polar bear', animal_type_id: 3 },
    { name: 'Bao Bao', species: 'Giant panda', animal_type_id: 4 }
  ], ASYNC)))
  t.equal(batch.result?.status, 201)
  t.match(batch.result?.body, [{ name: 'Knut' }, { name: 'Bao Bao' }])

  const ana = { name: 'Ana', role: 'Keeper', email: 'ana@zoo.example' }
  const nested = await finished(app, accepted(t, await call(app, 'POST', `/v1/zoos/${zoo.id}/employees`, ana, ASYNC)))
  t.match(nested.result, { status: 201, body: { name: 'Ana', zoo_id: zoo.id } })

  const animal = (batch.result?.body as { id: number }[])[0]?.id
  const remove = await finished(app, accepted(t, await call(app, 'DELETE', `/v1/animals/${animal}`, undefined, ASYNC)))
  t.same(remove.result, { status: 204, body: null }, 'an empty answer is a null body')
  t.equal(remove.status, 'succeeded')
  t.equal((await call(app, 'GET', `/v1/animals/${animal}`)).statusCode, 410)
})

t.test('a job whose request fails records the failure: status and error body', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  t.equal((await call(app, 'DELETE', `/v1/zoos/${zoo.id}`)).statusCode, 204)
  const gone = await finished(app, accepted(t, await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Potsdam' }, ASYNC)))
  t.equal(gone.status, 'failed')
  t.same(gone.result, { status: 410, body: { error: `zoo ${zoo.id} was deleted` } })
  t.match(gone.finished_at, TIMESTAMP)

  // Checks against other records happen when the job runs, as they would in a synchronous request.
  const knut = { name: 'Knut', species: 'Polar bear', animal_type_id: 3, zoo_id: 999 }
  const unknownZoo = await finished(app, accepted(t, await call(app, 'POST', '/v1/animals', knut, ASYNC)))
  t.equal(unknownZoo.status, 'failed')
  t.match(unknownZoo.result, { status: 422, body: { errors: [{ field: 'zoo_id' }] } })
})

t.test('If-Match travels with the job: a stale one fails it with 412, a current one succeeds', async t => {
  const app = await build(t)
  const created = await call(app, 'POST', '/v1/zoos', ZOO)
  const etag = String(created.headers.etag)
  const { id } = created.json()
  const ifMatch = { ...ASYNC, 'if-match': etag }
  const current = await finished(app, accepted(t, await call(app, 'PATCH', `/v1/zoos/${id}`, { city: 'Potsdam' }, ifMatch)))
  t.equal(current.status, 'succeeded')
  const stale = await finished(app, accepted(t, await call(app, 'PATCH', `/v1/zoos/${id}`, { city: 'Hamburg' }, ifMatch)))
  t.equal(stale.status, 'failed')
  t.equal(stale.result?.status, 412)
  t.equal((await call(app, 'GET', `/v1/zoos/${id}`)).json().city, 'Potsdam')
})

t.test('respond-async among other preferences, in any case; other preferences leave the request synchronous', async t => {
  const app = await build(t)
  const asking = [
    'respond-async, wait=10', 'wait=10, RESPOND-ASYNC', 'return=minimal,respond-async;x=1', 'handling=lenient , Respond-Async '
  ]
  for (const prefer of asking) {
    accepted(t, await call(app, 'POST', '/v1/zoos', ZOO, { prefer }))
  }
  for (const prefer of ['return=minimal', 'wait=10', 'x="a, respond-async"', 'respond-asynchronously', '']) {
    t.equal((await call(app, 'POST', '/v1/zoos', ZOO, { prefer })).statusCode, 201, `Prefer: ${prefer}`)
  }
})

t.test('reads and non-collection writes ignore the preference', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}`, undefined, ASYNC)).statusCode, 200)
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, ASYNC)).statusCode, 200)
  t.equal((await call(app, 'OPTIONS', '/v1/zoos', undefined, ASYNC)).statusCode, 200)
  const token = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { ...ASYNC, authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret), 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=client_credentials'
  })
  t.equal(token.statusCode, 200, 'the token endpoint is no collection')
  const notServed = await call(app, 'POST', `/v1/zoos/${zoo.id}`, ZOO, ASYNC)
  t.equal(notServed.statusCode, 405, 'a method the path does not serve is refused, not queued')
})

t.test('a request refused for its token, scope or body is refused at once, and no job is made', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  const reader = await addClient(app, 'zoos:read animals:write')
  const tokens = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(reader.client_id, reader.client_secret as string))
  const token = tokens.json().access_token
  const before = await snapshot(app)

  const noToken = await app.inject({
    method: 'POST',
    url: '/v1/zoos',
    headers: { 'content-type': 'application/json', ...ASYNC },
    payload: JSON.stringify(ZOO)
  })
  t.equal(noToken.statusCode, 401)
  const noScope = await call(app, 'POST', '/v1/zoos', ZOO, { ...ASYNC, authorization: `Bearer ${token}` })
  t.equal(noScope.statusCode, 403)
  t.equal(noScope.headers['www-authenticate'], 'Bearer realm="zoo-api", error="insufficient_scope", scope="zoos:write"')
  t.equal((await call(app, 'DELETE', `/v1/zoos/${zoo.id}`, undefined, { ...ASYNC, authorization: `Bearer ${token}` })).statusCode, 403)

  const unparseable = await app.inject({
    method: 'POST',
    url: '/v1/zoos',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...ASYNC },
    payload: '{"name":'
  })
  t.equal(unparseable.statusCode, 403, 'the scope is checked before the body is read')
  t.equal((await call(app, 'POST', '/v1/zoos', ['x'], ASYNC)).statusCode, 422)
  t.equal((await call(app, 'POST', '/v1/zoos', 'Berlin', ASYNC)).statusCode, 400)
  const bad = await app.inject({
    method: 'POST',
    url: '/v1/zoos',
    headers: { authorization: await bearer(app), 'content-type': 'application/json', ...ASYNC },
    payload: '{"name":'
  })
  t.equal(bad.statusCode, 400)
  const invalid = await call(app, 'POST', '/v1/zoos', { name: 'Berlin Zoo' }, ASYNC)
  t.equal(invalid.statusCode, 422)
  t.match(invalid.json(), { errors: [{ field: 'city', code: 'required' }] })
  t.equal((await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 5 }, ASYNC)).statusCode, 422)
  t.equal((await call(app, 'PUT', '/v1/zoos/0', ZOO, ASYNC)).statusCode, 404, 'an id that cannot exist')
  const text = await call(app, 'POST', '/v1/zoos', undefined, { ...ASYNC, 'content-type': 'text/plain' })
  t.equal(text.statusCode, 415)

  t.same(await snapshot(app), before, 'nothing was written, no job was queued')
})

t.test('with Idempotency-Key the 202 is what a retry gets: one job, one record', async t => {
  const app = await build(t)
  const headers = { ...ASYNC, 'idempotency-key': 'async-berlin' }
  const first = await call(app, 'POST', '/v1/zoos', ZOO, headers)
  const path = accepted(t, first)
  const job = await finished(app, path)
  t.equal(job.status, 'succeeded')
  const retry = await call(app, 'POST', '/v1/zoos', ZOO, headers)
  t.equal(retry.statusCode, 202)
  t.equal(retry.headers['idempotent-replayed'], 'true')
  t.equal(retry.headers.location, first.headers.location)
  t.equal(retry.headers['preference-applied'], 'respond-async')
  t.same(retry.json(), first.json())
  t.equal(Number((await call(app, 'GET', '/v1/zoos')).headers['x-total-count']), 1)
})
