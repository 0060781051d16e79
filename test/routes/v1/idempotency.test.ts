import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { addClient, addUser, basic, BOOTSTRAP, build, call, create, query, tokenRequest } from '../../helper.ts'

const ZOO = { name: 'Berlin Zoo', city: 'Berlin', country: 'DE' }
const keyed = (key: string) => ({ 'idempotency-key': key })

/** Writes to the app's database behind its back: states a test cannot reach through the API alone. */
async function sql (app: FastifyInstance, statement: string, ...params: unknown[]): Promise<void> {
  await query(app, statement, params)
}

const count = async (app: FastifyInstance) => Number((await call(app, 'GET', '/v1/zoos')).headers['x-total-count'])

t.test('a retried POST with the same key and body replays the first answer and creates nothing', async t => {
  const app = await build(t)
  const first = await call(app, 'POST', '/v1/zoos', ZOO, keyed('create-berlin'))
  t.equal(first.statusCode, 201)
  t.notOk(first.headers['idempotent-replayed'])
  const again = await call(app, 'POST', '/v1/zoos', { country: 'DE', city: 'Berlin', name: 'Berlin Zoo' }, keyed('create-berlin'))
  t.equal(again.statusCode, 201)
  t.equal(again.headers['idempotent-replayed'], 'true')
  t.same(again.json(), first.json())
  t.equal(again.headers.location, first.headers.location)
  t.equal(again.headers.etag, first.headers.etag)
  t.match(again.headers['content-type'], /^application\/json/)
  t.equal(await count(app), 1)
  const other = await call(app, 'POST', '/v1/zoos', ZOO, keyed('create-berlin-2'))
  t.equal(other.statusCode, 201, 'another key is another request')
  t.equal(await count(app), 2)
})

t.test('a key is 1 to 255 visible ASCII characters, as the document says: another is 400 naming it, and nothing is written', async t => {
  const app = await build(t)
  const { paths } = (await call(app, 'GET', '/documentation/json')).json()
  for (const [path, method] of [['/v1/zoos', 'post'], ['/v1/zoos', 'patch'], ['/v1/zoos/{id}', 'patch'], ['/v1/batch', 'post']] as const) {
    const parameter = paths[path][method].parameters.find((p: { name: string }) => p.name === 'Idempotency-Key')
    t.match(parameter, { in: 'header', schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' } }, `${method} ${path}`)
  }
  t.equal((await call(app, 'POST', '/v1/zoos', ZOO, keyed('k'.repeat(255)))).statusCode, 201, 'the longest key')
  for (const [key, codes] of [['k'.repeat(256), ['length']], ['', ['length', 'pattern']], ['two words', ['pattern']]] as const) {
    for (const [method, url] of [['POST', '/v1/zoos'], ['PATCH', '/v1/zoos/1'], ['PATCH', '/v1/zoos?id=1']] as const) {
      const res = await call(app, method, url, method === 'POST' ? ZOO : { city: 'Potsdam' }, keyed(key))
      t.equal(res.statusCode, 400, `${method} ${url} with a key of ${key.length} characters`)
      t.match(res.json(), { error: /^Invalid headers: header idempotency-key/ })
      const refused = (res.json().errors ?? []) as { field: string, code: string }[]
      t.same(refused.map(e => [e.field, e.code]), codes.map(code => ['idempotency-key', code]))
    }
  }
  t.equal(await count(app), 1)
  t.equal((await call(app, 'GET', '/v1/zoos/1')).json().city, 'Berlin')
})

t.test('the same key with another request is 422; nothing is written', async t => {
  const app = await build(t)
  const { id } = (await call(app, 'POST', '/v1/zoos', ZOO, keyed('k1'))).json()
  const otherRequests = [
    ['POST', '/v1/zoos', { ...ZOO, city: 'Potsdam' }],
    ['POST', '/v1/animals', { name: 'a', species: 's', animal_type_id: 1 }],
    ['PATCH', `/v1/zoos/${id}`, { city: 'x' }]
  ] as const
  for (const [method, url, body] of otherRequests) {
    const res = await call(app, method, url, body, keyed('k1'))
    t.equal(res.statusCode, 422, `${method} ${url}`)
    t.same(res.json(), { error: 'This Idempotency-Key was used with another request; use a new key for a new request' })
  }
  t.equal(await count(app), 1)
  t.equal((await call(app, 'GET', `/v1/zoos/${id}`)).json().city, 'Berlin')
})

t.test('PATCH: a retry replays the first answer even after later changes', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  const first = await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Potsdam' }, keyed('move'))
  t.equal(first.statusCode, 201)
  await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Hamburg' })
  const retry = await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Potsdam' }, keyed('move'))
  t.equal(retry.statusCode, 201)
  t.equal(retry.headers['idempotent-replayed'], 'true')
  t.same(retry.json(), first.json())
  t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}`)).json().city, 'Hamburg', 'the retry did not write again')
})

t.test('keys belong to one client', async t => {
  const app = await build(t)
  const other = await addClient(app, 'zoos:read zoos:write')
  const tokens = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(other.client_id, other.client_secret))
  const token = tokens.json().access_token
  const mine = await call(app, 'POST', '/v1/zoos', ZOO, keyed('shared-key'))
  const theirs = await call(app, 'POST', '/v1/zoos', ZOO, { ...keyed('shared-key'), authorization: `Bearer ${token}` })
  t.equal(theirs.statusCode, 201)
  t.notOk(theirs.headers['idempotent-replayed'])
  t.not(theirs.json().id, mine.json().id)
})

t.test('keys belong to one user: two users of one client do not share them', async t => {
  const app = await build(t)
  const bearer = async (username: string) => {
    await addUser(app, username, 'correct horse battery', 'zoos:read zoos:write')
    const grant = await tokenRequest(app, { grant_type: 'password', username, password: 'correct horse battery' })
    return { authorization: `Bearer ${grant.json().access_token}` }
  }
  const [ada, bo] = [await bearer('ada'), await bearer('bo')]
  const adas = await call(app, 'POST', '/v1/zoos', ZOO, { ...keyed('same-key'), ...ada })
  const bos = await call(app, 'POST', '/v1/zoos', { ...ZOO, name: 'Bo Zoo' }, { ...keyed('same-key'), ...bo })
  t.equal(bos.statusCode, 201, 'not 422: the key is not the other user\'s')
  t.notOk(bos.headers['idempotent-replayed'])
  t.equal(bos.json().name, 'Bo Zoo', 'nor a replay of the other user\'s record')
  const again = await call(app, 'POST', '/v1/zoos', ZOO, { ...keyed('same-key'), ...ada })
  t.same([again.headers['idempotent-replayed'], again.json()], ['true', adas.json()], 'each user\'s retry replays their own')
})

t.test('409 while the first request with the key is in flight; an abandoned one frees it', async t => {
  const app = await build(t)
  await call(app, 'GET', '/v1/zoos')
  // Issuer, client and subject (a client's own token has the client as its subject).
  const owner = JSON.stringify(['https://localhost:8443', BOOTSTRAP.id, BOOTSTRAP.id])
  await sql(
    app,
    "INSERT INTO idempotency_keys (owner, key, fingerprint, state, created_at) VALUES (?, 'busy', 'x', 'in_flight', ?)",
    owner,
    new Date().toISOString()
  )
  const res = await call(app, 'POST', '/v1/zoos', ZOO, keyed('busy'))
  t.equal(res.statusCode, 409)
  t.same(res.json(), { error: 'A request with this Idempotency-Key is still in progress; retry later' })
  t.equal(await count(app), 0)
  await sql(app, "UPDATE idempotency_keys SET created_at = ? WHERE key = 'busy'", new Date(Date.now() - 10 * 60 * 1000).toISOString())
  const retried = await call(app, 'POST', '/v1/zoos', ZOO, keyed('busy'))
  t.equal(retried.statusCode, 201, 'a request that never finished does not hold its key forever')
})

t.test('keys live 24 hours', async t => {
  const app = await build(t)
  await call(app, 'POST', '/v1/zoos', ZOO, keyed('old'))
  await sql(app, "UPDATE idempotency_keys SET created_at = ? WHERE key = 'old'", new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString())
  const res = await call(app, 'POST', '/v1/zoos', ZOO, keyed('old'))
  t.equal(res.statusCode, 201)
  t.notOk(res.headers['idempotent-replayed'], 'an expired key starts afresh')
  t.equal(await count(app), 2)
})

t.test('refused requests hold no key; a server fault releases it; a client error is replayed', async t => {
  const app = await build(t)
  const invalid = await call(app, 'POST', '/v1/zoos', { name: '' }, keyed('k'))
  t.equal(invalid.statusCode, 422)
  t.equal((await call(app, 'POST', '/v1/zoos', ZOO, keyed('k'))).statusCode, 201, 'a body refused by validation held no key')

  const unknownZoo = { name: 'a', species: 's', animal_type_id: 1, zoo_id: 4242 }
  const first = await call(app, 'POST', '/v1/animals', unknownZoo, keyed('animal'))
  t.equal(first.statusCode, 422)
  const retry = await call(app, 'POST', '/v1/animals', unknownZoo, keyed('animal'))
  t.equal(retry.statusCode, 422)
  t.equal(retry.headers['idempotent-replayed'], 'true')
  t.same(retry.json(), first.json())

  await sql(app, 'ALTER TABLE zoos RENAME TO zoos_elsewhere')
  const fault = await call(app, 'POST', '/v1/zoos', ZOO, keyed('fault'))
  t.equal(fault.statusCode, 500)
  await sql(app, 'ALTER TABLE zoos_elsewhere RENAME TO zoos')
  const recovered = await call(app, 'POST', '/v1/zoos', ZOO, keyed('fault'))
  t.equal(recovered.statusCode, 201)
  t.notOk(recovered.headers['idempotent-replayed'])

  const bad = await call(app, 'POST', '/v1/zoos', ZOO, keyed('x'.repeat(256)))
  t.equal(bad.statusCode, 400)
  t.match(bad.json(), { error: 'Invalid headers: header idempotency-key must have at most 255 characters', errors: [{ code: 'length' }] })
  const ignored = await call(app, 'PUT', '/v1/zoos/1', ZOO, keyed('put'))
  t.equal(ignored.statusCode, 201, 'PUT is idempotent already: the key is ignored')
  t.notOk((await call(app, 'PUT', '/v1/zoos/1', ZOO, keyed('put'))).headers['idempotent-replayed'])
})
