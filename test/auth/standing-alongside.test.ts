import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { addClient, basic, build, call, cli, create, ENGINE, snapshot, storageOf, tokenRequest } from '../helper.ts'

/*
 * A read of the collections asks whether its token still stands in its first statement where it
 * can (a record's read; on PostgreSQL also a list's stamps), or alone: whatever the read answers,
 * a token that no longer stands gets its 401, never the data, nor a 400, 403 or 404 of the route.
 */

/** A token of a new client with `scope`, the client's id and its HTTP Basic credentials. */
async function tokenOf (app: FastifyInstance, scope: string) {
  const client = await addClient(app, scope)
  const credentials = basic(client.client_id, client.client_secret)
  const res = await tokenRequest(app, { grant_type: 'client_credentials' }, credentials)
  return { authorization: `Bearer ${res.json().access_token as string}`, clientId: client.client_id, credentials }
}

/** Revokes a token through the revocation endpoint, as its own client: a client revokes its own tokens (RFC 7009 §2.1). */
const revoke = (app: FastifyInstance, token: { authorization: string, credentials: string }) => app.inject({
  method: 'POST',
  url: '/oauth/revoke',
  headers: { authorization: token.credentials, 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ token: token.authorization.slice('Bearer '.length) }).toString()
})

const READS = [
  ['a record', '/v1/zoos/1', 200],
  ['a record that never was', '/v1/zoos/999', 404],
  ['a nested record', '/v1/zoos/1/animals/1', 200],
  ['a list', '/v1/zoos?sortby=name', 200],
  ['a list with a bad parameter', '/v1/zoos?limit=500', 400],
  ['a list embedding what the token may not read', '/v1/animals?embed=zoo', 403],
  ['a list of a parent that never was', '/v1/zoos/999/animals', 404]
] as const

t.test('each read answers as it should while the token stands, and 401 once it is revoked or its client deleted', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin' })
  await create(app, 'animals', { name: 'Knut', species: 'polar bear', animal_type_id: 1, zoo_id: zoo.id })
  const revoked = await tokenOf(app, 'zoos:read animals:read')
  const deleted = await tokenOf(app, 'zoos:read animals:read')
  const narrow = await tokenOf(app, 'animals:read')
  for (const [what, path, status] of READS) {
    const authorization = path.includes('embed') ? narrow.authorization : revoked.authorization
    t.equal((await call(app, 'GET', path, undefined, { authorization })).statusCode, status, what)
  }

  t.equal((await revoke(app, revoked)).statusCode, 200)
  t.equal((await cli(app, ['client', 'delete', deleted.clientId])).code, 0)
  t.equal((await cli(app, ['client', 'delete', narrow.clientId])).code, 0)
  for (const [what, path] of READS) {
    for (const [how, token, error] of [
      ['revoked', revoked, 'the access token was revoked'],
      ['of a deleted client', path.includes('embed') ? narrow : deleted, 'the client of the access token no longer exists']
    ] as const) {
      const res = await call(app, 'GET', path, undefined, { authorization: token.authorization })
      t.equal(res.statusCode, 401, `${what}, with a token ${how}`)
      t.same(res.json().error, `Invalid access token: ${error}`)
      t.match(res.headers['www-authenticate'], /error="invalid_token"/)
      const head = await app.inject({ method: 'HEAD', url: path, headers: { authorization: token.authorization } })
      t.equal(head.statusCode, 401, `HEAD of ${what}, with a token ${how}`)
    }
  }
})

t.test('a read of one record asks the token\'s standing in its own statement, not in one of the standing\'s', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin' })
  const token = await tokenOf(app, 'zoos:read')
  const accounts = storageOf(app).accounts
  const alone = accounts.tokenStanding.bind(accounts)
  let asked = 0
  Object.assign(accounts, { tokenStanding: (...args: Parameters<typeof alone>) => { asked++; return alone(...args) } })
  t.teardown(() => Object.assign(accounts, { tokenStanding: alone }))
  const read = await call(app, 'GET', `/v1/zoos/${zoo.id}`, undefined, { authorization: token.authorization })
  const unchanged = await call(app, 'GET', `/v1/zoos/${zoo.id}`, undefined,
    { authorization: token.authorization, 'if-none-match': String(read.headers.etag) })
  const absent = await call(app, 'GET', '/v1/zoos/999', undefined, { authorization: token.authorization })
  // A record not there: PostgreSQL answers the standing in the read's one row; SQLite asks it from the same columns, alone.
  t.same([read.statusCode, unchanged.statusCode, absent.statusCode, asked], [200, 304, 404, 0],
    'never asked by the standing\'s own statement (tokenStanding), the record found or not')
  t.same(read.json(), zoo)
})

t.test('on PostgreSQL a read of one record, and of a list\'s stamps, asks the token\'s standing in the same round trip', {
  skip: ENGINE !== 'postgres' && 'round trips are PostgreSQL\'s: SQLite\'s statements are counted by the test above'
}, async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin' })
  const { pool } = storageOf(app).collections as unknown as { pool: { query: (...args: unknown[]) => unknown } }
  const query = pool.query.bind(pool)
  let queries = 0
  pool.query = (...args: unknown[]) => {
    queries++
    return query(...args)
  }
  t.teardown(() => { delete (pool as Partial<typeof pool>).query })
  const read = await call(app, 'GET', `/v1/zoos/${zoo.id}`)
  t.same([read.statusCode, queries], [200, 1], 'the record and the standing, one statement')
  queries = 0
  const absent = await call(app, 'GET', '/v1/zoos/999')
  t.same([absent.statusCode, queries], [404, 2], 'a record not there: the read with the standing, then whether it ever was')
  queries = 0
  const page = await call(app, 'GET', '/v1/zoos', undefined, { 'if-none-match': String(read.headers.etag) })
  t.equal(page.statusCode, 200)
  const revalidated = await call(app, 'GET', '/v1/zoos', undefined, { 'if-none-match': String(page.headers.etag) })
  queries = 0
  const again = await call(app, 'GET', '/v1/zoos', undefined, { 'if-none-match': String(page.headers.etag) })
  t.same([revalidated.statusCode, again.statusCode, queries], [304, 304, 1], 'a 304 from the stamps and the standing, one statement')
})

for (const [used, scope] of [['never used', 'zoos:write'], ['that wrote and read before', 'zoos:write zoos:read']] as const) {
  t.test(`a write with a token that no longer stands writes nothing, whatever would write first: a token ${used}`, async t => {
    const app = await build(t)
    const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin' })
    const token = await tokenOf(app, scope)
    if (scope.includes('read')) {
      // Its standing accepted, and remembered: a create may then ask it in its own statement.
      const wrote = await call(app, 'POST', '/v1/zoos', { name: 'Before', city: 'B' }, { authorization: token.authorization })
      const read = await call(app, 'GET', `/v1/zoos/${zoo.id}`, undefined, { authorization: token.authorization })
      t.same([wrote.statusCode, read.statusCode], [201, 200])
    }
    t.equal((await revoke(app, token)).statusCode, 200)
    await writesNothing(t, app, zoo.id, token.authorization)
  })
}

/** Every kind of write with `authorization`, a revoked token's: 401 each, and nothing written. */
async function writesNothing (t: Test, app: FastifyInstance, zoo: number, authorization: string): Promise<void> {
  const before = await snapshot(app)
  for (const [what, method, path, body, headers] of [
    ['a create', 'POST', '/v1/zoos', { name: 'A', city: 'B' }, {}],
    ['a patch', 'PATCH', `/v1/zoos/${zoo}`, { city: 'C' }, {}],
    ['a put', 'PUT', `/v1/zoos/${zoo}`, { name: 'A', city: 'C' }, {}],
    ['a delete', 'DELETE', `/v1/zoos/${zoo}`, undefined, {}],
    ['a change of many', 'PATCH', '/v1/zoos?city=Berlin', { city: 'C' }, {}],
    ['a batch', 'POST', '/v1/batch', { operations: [{ method: 'POST', path: '/v1/zoos', body: { name: 'A', city: 'B' } }] }, {}],
    ['a keyed create', 'POST', '/v1/zoos', { name: 'A', city: 'B' }, { 'idempotency-key': 'k' }],
    ['a queued create', 'POST', '/v1/zoos', { name: 'A', city: 'B' }, { prefer: 'respond-async' }],
    ['a create with a bad body', 'POST', '/v1/zoos', { city: 5 }, {}],
    ['a write of a record that never was', 'PATCH', '/v1/zoos/999', { city: 'C' }, {}]
  ] as const) {
    const res = await call(app, method, path, body, { authorization, ...headers })
    t.equal(res.statusCode, 401, what)
    t.equal(res.json().error, 'Invalid access token: the access token was revoked', what)
    t.equal(res.json().operation, undefined, `${what}: no operation named`)
  }
  t.same(await snapshot(app), before, 'nothing was written: no record, key, job or change')
}
