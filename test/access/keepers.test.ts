import type { LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import { accepted, finished } from '../jobs/helper.ts'
import { openStream } from '../sse.ts'
import { buildBeside, call, cli } from '../helper.ts'
import { as, clientToken, passwordBearer, SCOPE, serve, served, unbound, userToken } from './helper.ts'

/*
 * Access rules, end to end: a collection written exactly as docs/access-rules.md shows it
 * (fixture/keepers.ts), served from its schema file, its route files and the migration
 * `npm run migrations` writes, on SQLite and, in the second pass, on PostgreSQL. Tokens bound by
 * its rules see and change only the records and fields the rules give them, on every path.
 */

interface Change { event: string, id: number, record: Record<string, unknown> | null }

const ids = (res: LightMyRequestResponse): number[] => (res.json() as { id: number }[]).map(record => record.id)

/** Two zoos, users bound to one or the other, and keepers in each: what every test starts from. */
async function world (t: Test) {
  const app = await serve(t)
  const admin = unbound(app)
  const zooA = (await admin('POST', '/v1/zoos', { name: 'Alpha', city: 'Aachen' })).json().id as number
  const zooB = (await admin('POST', '/v1/zoos', { name: 'Beta', city: 'Bonn' })).json().id as number
  const ann = await userToken(app, 'ann', { zoo_id: zooA, zoos: [zooA] })
  const bob = await userToken(app, 'bob', {})
  const keeper = async (body: Record<string, unknown>) =>
    (await admin('POST', '/v1/keepers', body)).json() as Record<string, unknown> & { id: number }
  const inA = await keeper({ name: 'Ada', zoo_id: zooA, phone: '0301111', owner: 'someone' })
  const bobs = await keeper({ name: 'Bea', zoo_id: zooB, phone: '0302222', owner: bob.sub })
  const inB = await keeper({ name: 'Cid', zoo_id: zooB, phone: '0303333' })
  return { app, admin, zooA, zooB, ann, bob, inA, bobs, inB, annAs: as(app, ann.bearer), bobAs: as(app, bob.bearer) }
}

t.test('reads: a bound token sees the records its rules give it, never a hidden field, and nothing of the others', async t => {
  const { admin, zooA, zooB, inA, bobs, inB, annAs, bobAs } = await world(t)

  const own = await annAs('GET', `/v1/keepers/${inA.id}`)
  t.equal(own.statusCode, 200)
  t.same(Object.keys(own.json()).sort(), ['created_at', 'id', 'name', 'owner', 'updated_at', 'zoo_id'], 'no phone')
  t.equal(own.headers.etag, '"1"', 'the record\'s version, as If-Match takes it')
  const outside = await annAs('GET', `/v1/keepers/${inB.id}`)
  const never = await annAs('GET', '/v1/keepers/999999')
  t.same([outside.statusCode, never.statusCode], [404, 404], 'a record outside the rules is one that does not exist')
  t.same(Object.keys(outside.json()).sort(), Object.keys(never.json()).sort())
  t.equal((await annAs('HEAD', `/v1/keepers/${inB.id}`)).statusCode, 404)
  t.equal((await bobAs('GET', `/v1/keepers/${bobs.id}`)).statusCode, 200, 'bob sees the keeper he owns (the second rule)')
  t.equal((await bobAs('GET', `/v1/keepers/${inA.id}`)).statusCode, 404)
  t.equal((await admin('GET', `/v1/keepers/${inB.id}`)).json().phone, '0303333', 'keepers:all is bound by nothing')

  const list = await annAs('GET', '/v1/keepers')
  t.same([ids(list), list.headers['x-total-count']], [[inA.id], '1'])
  const bobList = await bobAs('GET', '/v1/keepers')
  t.same([ids(bobList), bobList.headers['x-total-count']], [[bobs.id], '1'])
  t.equal((await admin('GET', '/v1/keepers')).headers['x-total-count'], '3')
  t.same(ids(await annAs('GET', `/v1/zoos/${zooB}/keepers`)), [], 'a nested list holds only what the rules give')
  t.same(ids(await annAs('GET', `/v1/zoos/${zooA}/keepers`)), [inA.id])
  t.same(ids(await annAs('GET', '/v1/keepers?q=cid')), [], 'q finds only records within the rules')
  t.same(ids(await annAs('GET', '/v1/keepers?q=ada')), [inA.id])
  t.same(ids(await admin('GET', '/v1/keepers?q=0303333')), [], 'a hidden field is not searched, for any token')

  // Paging by cursor walks only the records within the rules, and counts only those.
  for (let i = 0; i < 5; i++) await admin('POST', '/v1/keepers', { name: `A${i}`, zoo_id: zooA })
  for (let i = 0; i < 5; i++) await admin('POST', '/v1/keepers', { name: `B${i}`, zoo_id: zooB })
  const walked: number[] = []
  let next: string | undefined = '/v1/keepers?limit=2&sortby=name'
  while (next !== undefined) {
    const page = await annAs('GET', next)
    t.equal(page.headers['x-total-count'], '6')
    walked.push(...ids(page))
    const link = /<([^>]+)>; rel="next"/.exec(String(page.headers.link))?.[1]
    next = link === undefined ? undefined : new URL(link).pathname + new URL(link).search
  }
  t.equal(walked.length, 6)
  const walkedZoos = (await admin('GET', `/v1/keepers?id_in=${walked.join(',')}`)).json().map((k: { zoo_id: number }) => k.zoo_id)
  t.same(new Set(walkedZoos), new Set([zooA]))

  // A list's ETag is the token's: the same URL read by another token is another page.
  const annTag = String((await annAs('GET', '/v1/keepers')).headers.etag)
  t.equal((await annAs('GET', '/v1/keepers', undefined, { 'if-none-match': annTag })).statusCode, 304)
  const bobRead = await bobAs('GET', '/v1/keepers', undefined, { 'if-none-match': annTag })
  t.equal(bobRead.statusCode, 200, 'another token\'s tag does not match')

  // A hidden field is no field to a bound token: named anywhere in a query, it is unknown.
  for (const query of ['fields=phone', 'fields=name,phone', 'sortby=phone', 'phone=0301111', 'phone_ne=1', 'phone_in=1,2']) {
    const refused = await annAs('GET', `/v1/keepers?${query}`)
    t.equal(refused.statusCode, 400, query)
    t.notMatch(refused.body, /0301111/)
  }
  t.equal((await annAs('GET', `/v1/keepers/${inA.id}?fields=phone`)).statusCode, 400)
  t.same((await annAs('GET', `/v1/keepers/${inA.id}?fields=name`)).json(), { id: inA.id, name: 'Ada' })
  t.equal((await admin('GET', '/v1/keepers?phone=0301111')).headers['x-total-count'], '1', 'an unbound token filters by it')

  // Embedding: the embedded collection's own rules apply.
  const zoos = await annAs('GET', '/v1/zoos?embed=keepers&sortby=id')
  t.equal(zoos.statusCode, 200)
  const [alpha, beta] = zoos.json() as { keepers: { id: number, phone?: string }[], keepers_total: number }[]
  t.same([alpha?.keepers_total, beta?.keepers_total], [6, 0])
  t.notOk(alpha?.keepers.some(keeper => 'phone' in keeper), 'no hidden field in an embedded record')
  const ranger = (await admin('POST', '/v1/rangers', { name: 'Rex', zoo_id: zooA, keeper_id: inB.id })).json()
  const rangers = await annAs('GET', '/v1/rangers?embed=keeper')
  t.same(rangers.json(), [{ ...ranger, keeper: null }], 'a keeper outside the keepers\' rules embeds as null')
  await admin('POST', '/v1/rangers', { name: 'Ray', zoo_id: zooB })
  t.same(ids(await annAs('GET', '/v1/rangers')), [ranger.id], 'an array claim, with _in')
  t.same(ids(await bobAs('GET', '/v1/rangers')), [], 'a missing claim matches nothing')
})

t.test('writes: a bound token writes only within its rules; what it may not see or give it never writes', async t => {
  const { app, admin, zooA, zooB, ann, inA, bobs, inB, annAs, bobAs } = await world(t)
  const total = async () => Number((await admin('GET', '/v1/keepers')).headers['x-total-count'])

  const made = await annAs('POST', '/v1/keepers', { name: 'Dan', zoo_id: zooA })
  t.equal(made.statusCode, 201)
  t.same([made.json().owner, 'phone' in made.json()], [ann.sub, false], 'owner set from the token; no phone answered')
  t.equal(await total(), 4)
  for (const [body, why] of [
    [{ name: 'Eve', zoo_id: zooB }, 'outside write'],
    [{ name: 'Eve' }, 'no zoo: outside write'],
    [[{ name: 'Eve', zoo_id: zooA }, { name: 'Fay', zoo_id: zooB }], 'one of an array outside write']
  ] as const) {
    const refused = await annAs('POST', '/v1/keepers', body)
    t.equal(refused.statusCode, 403, why)
    t.match(refused.json(), { error: /access rules of keepers/ })
  }
  t.match((await annAs('POST', '/v1/keepers', { name: 'Eve', zoo_id: zooA, owner: 'other' })).json(),
    { error: /owner/, errors: [{ field: 'owner', code: 'forbidden' }] })
  t.equal((await annAs('POST', '/v1/keepers', { name: 'Eve', zoo_id: zooA, owner: ann.sub })).statusCode, 201, 'its own value is accepted')
  t.match((await annAs('POST', '/v1/keepers', { name: 'Eve', zoo_id: zooA, phone: '1' })).json(),
    { error: /phone/, errors: [{ field: 'phone' }] })
  t.equal((await annAs('POST', '/v1/keepers', { name: 'Eve', zoo_id: zooA, phone: '1' })).statusCode, 403)
  t.equal((await bobAs('POST', '/v1/keepers', { name: 'Eve', zoo_id: zooA })).statusCode, 403, 'a missing claim never widens')
  t.equal(await total(), 5, 'nothing refused was written')

  t.equal((await annAs('PATCH', `/v1/keepers/${inB.id}`, { name: 'X' })).statusCode, 404, 'outside read: 404')
  t.equal((await annAs('PUT', `/v1/keepers/${inB.id}`, { name: 'X', zoo_id: zooB })).statusCode, 404)
  t.equal((await annAs('DELETE', `/v1/keepers/${inB.id}`)).statusCode, 404)
  t.equal((await bobAs('PATCH', `/v1/keepers/${bobs.id}`, { name: 'X' })).statusCode, 403, 'inside read, outside write: 403')
  t.equal((await bobAs('DELETE', `/v1/keepers/${bobs.id}`)).statusCode, 403)
  t.equal((await annAs('PATCH', `/v1/keepers/${inA.id}`, { zoo_id: zooB })).statusCode, 403, 'a change that would move it outside write')
  t.equal((await admin('GET', `/v1/keepers/${inA.id}`)).json().zoo_id, zooA, 'and nothing was written')

  const renamed = await annAs('PATCH', `/v1/keepers/${inA.id}`, { name: 'Ada Lovelace' })
  t.same([renamed.statusCode, 'phone' in renamed.json()], [201, false])
  const replaced = await annAs('PUT', `/v1/keepers/${inA.id}`, { name: 'Ada King', zoo_id: zooA }, { 'if-match': '"2"' })
  t.equal(replaced.statusCode, 201)
  t.match((await admin('GET', `/v1/keepers/${inA.id}`)).json(), { name: 'Ada King', phone: '0301111', owner: 'someone' },
    'a replace leaves what the token may not see or give as it was')
  t.equal((await annAs('PATCH', `/v1/keepers/${inA.id}`, { phone: '1' })).statusCode, 403)
  t.equal((await annAs('DELETE', `/v1/keepers/${made.json().id as number}`)).statusCode, 204)

  // A change of many records touches only those within both rules, and counts only those.
  const everyone = (await admin('GET', '/v1/keepers')).json() as { id: number, name: string }[]
  const dry = await annAs('PATCH', '/v1/keepers?id_gte=1', { name: 'Renamed' }, { prefer: 'tx=rollback, return=representation' })
  t.same([dry.statusCode, dry.json().affected], [200, 2])
  t.notOk(dry.json().records.some((keeper: object) => 'phone' in keeper))
  const bulk = await annAs('PATCH', '/v1/keepers?id_gte=1', { name: 'Renamed' })
  t.same(bulk.json(), { affected: 2 })
  const after = (await admin('GET', '/v1/keepers')).json() as { id: number, name: string, zoo_id: number }[]
  t.same(after.filter(k => k.name === 'Renamed').map(k => k.zoo_id), [zooA, zooA])
  t.same(after.filter(k => k.zoo_id === zooB), everyone.filter(k => after.find(a => a.id === k.id)?.zoo_id === zooB)
    .map(k => after.find(a => a.id === k.id)), 'the records outside the rules are untouched')
  t.equal((await annAs('PATCH', '/v1/keepers?id_gte=1', { zoo_id: zooB })).statusCode, 403, 'moving them outside write refuses all')
  t.equal((await annAs('DELETE', '/v1/keepers?id_gte=1', undefined, { prefer: 'tx=rollback' })).json().affected, 2)
  t.equal((await bobAs('DELETE', '/v1/keepers?id_gte=1')).json().affected, 0, 'bob may write none')
  t.equal(await total(), 4)

  // A batch: each operation as if sent alone; one refused refuses them all.
  const batch = await annAs('POST', '/v1/batch', {
    operations: [
      { method: 'POST', path: '/v1/keepers', body: { name: 'Gus', zoo_id: zooA } },
      { method: 'PATCH', path: `/v1/keepers/${inB.id}`, body: { name: 'X' } }
    ]
  })
  t.match([batch.statusCode, batch.json()], [404, { operation: 1 }])
  const refusedBatch = await annAs('POST', '/v1/batch', {
    operations: [
      { method: 'POST', path: '/v1/keepers', body: { name: 'Gus', zoo_id: zooA } },
      { method: 'POST', path: '/v1/keepers', body: { name: 'Hal', zoo_id: zooB } }
    ]
  })
  t.match([refusedBatch.statusCode, refusedBatch.json()], [403, { operation: 1 }])
  const good = await annAs('POST', '/v1/batch', {
    operations: [
      { method: 'POST', path: '/v1/keepers', body: { name: 'Gus', zoo_id: zooA } },
      { method: 'DELETE', path: '/v1/keepers?name=Gus' }
    ]
  })
  t.equal(good.statusCode, 200)
  t.same(good.json().results.map((r: { status: number }) => r.status), [201, 200])
  t.notOk('phone' in good.json().results[0].body)
  t.equal(await total(), 4, 'nothing of the refused batches was written')

  // OPTIONS lists what this token may change.
  t.same((await annAs('OPTIONS', '/v1/keepers')).json().writable, ['name', 'zoo_id'])
  t.same((await annAs('OPTIONS', `/v1/keepers/${inB.id}`)).statusCode, 404)
  t.same((await call(app, 'OPTIONS', '/v1/keepers')).json().writable, ['name', 'zoo_id', 'phone', 'owner'])
})

t.test('a queued job runs with the claims of the token that queued it', async t => {
  const { app, zooA, zooB, ann, annAs } = await world(t)
  const queued = async (body: object) =>
    finished(app, accepted(t, await annAs('POST', '/v1/keepers', body, { prefer: 'respond-async' })), { authorization: ann.bearer })
  t.match((await queued({ name: 'Job', zoo_id: zooA })).result, { status: 201, body: { owner: ann.sub, zoo_id: zooA } })
  t.match((await queued({ name: 'Job', zoo_id: zooB })).result, { status: 403 })
})

t.test('claims come from the accounts: the CLI gives and replaces them, and older tokens are refused on every instance', async t => {
  const { app, zooA, zooB, inA, inB } = await world(t)
  const other = await buildBeside(t, app, { ...app.collections, routes: served(t).routes })
  const made = await cli(app, ['user', 'create', '--username', 'cy', '--scope', SCOPE, '--password', 'a long password',
    '--claim', `zoo_id=${zooA}`, '--claim', `zoos=[${zooA},${zooB}]`])
  t.equal(made.code, 0, made.err)
  t.same(made.json().claims, { zoo_id: zooA, zoos: [zooA, zooB] })
  const before = await passwordBearer(app, 'cy')
  t.equal((await call(app, 'GET', `/v1/keepers/${inA.id}`, undefined, { authorization: before })).statusCode, 200)
  t.equal((await call(other, 'GET', '/v1/keepers', undefined, { authorization: before })).statusCode, 200)

  const changed = await cli(app, ['user', 'claims', 'cy', '--claim', `zoo_id=${zooB}`])
  t.same([changed.code, changed.json()], [0, { username: 'cy', claims: { zoo_id: zooB } }])
  for (const instance of [app, other]) {
    const refused = await call(instance, 'GET', '/v1/keepers', undefined, { authorization: before })
    t.equal(refused.statusCode, 401, 'the token issued before is refused, on either instance')
    t.match(refused.json().error, /claims changed/)
  }
  const after = await passwordBearer(app, 'cy')
  t.equal((await call(other, 'GET', `/v1/keepers/${inB.id}`, undefined, { authorization: after })).statusCode, 200)
  t.equal((await call(other, 'GET', `/v1/keepers/${inA.id}`, undefined, { authorization: after })).statusCode, 404)

  const client = await clientToken(app, { zoo_id: zooA })
  t.equal((await call(app, 'GET', `/v1/keepers/${inA.id}`, undefined, { authorization: client })).statusCode, 200, 'a client\'s own claims')
  for (const bad of [['--claim', 'sub=x'], ['--claim', 'zoo_id'], ['--claim', 'a=1', '--claim', 'a=2']]) {
    const refused = await cli(app, ['user', 'claims', 'cy', ...bad])
    t.equal(refused.code, 1, bad.join(' '))
  }
  t.match((await cli(app, ['user', 'list'])).json(),
    [{ username: 'ann' }, { username: 'bob' }, { username: 'cy', claims: { zoo_id: zooB } }])
})

t.test('the change feed tells a bound token only of records within its rules: one that leaves them as a removal, its id alone', async t => {
  const { app, admin, zooA, zooB, ann, inA, inB, annAs } = await world(t)
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  const told = async () => ((await annAs('GET', '/v1/keepers/changes?limit=1000')).json() as Change[])
    .map(change => [change.event, change.id, change.record === null ? null : Object.keys(change.record).sort().join(',')])
  const final = async (count: number): Promise<void> => {
    // On PostgreSQL a change is read once final (test/routes/v1/changes.test.ts).
    for (let waited = 0; (await call(app, 'GET', '/v1/keepers/changes?limit=1000')).json().length < count && waited < 5000; waited += 10) {
      await new Promise(resolve => setTimeout(resolve, 10))
    }
  }
  await final(3)
  const fields = 'created_at,id,name,owner,updated_at,zoo_id'
  t.same(await told(), [['created', inA.id, fields]], 'of the three keepers, only the one of zoo A, without its phone')

  const stream = await openStream(t, `${address}/v1/keepers/changes`, { authorization: ann.bearer })
  await stream.until(() => stream.comments.length > 0, 'the opening comment')
  await admin('POST', '/v1/keepers', { name: 'Out', zoo_id: zooB })
  await call(app, 'PATCH', `/v1/keepers/${inA.id}`, { name: 'Ada 2' })
  await call(app, 'PATCH', `/v1/keepers/${inA.id}`, { zoo_id: zooB })
  await call(app, 'PATCH', `/v1/keepers/${inB.id}`, { name: 'Cid 2' })
  const made = await admin('POST', '/v1/keepers', { name: 'In', zoo_id: zooA })
  await call(app, 'DELETE', `/v1/keepers/${made.json().id as number}`)
  await final(9)
  const expected = [
    ['created', inA.id, fields],
    ['updated', inA.id, fields],
    ['deleted', inA.id, null],
    ['created', made.json().id, fields],
    ['deleted', made.json().id, null]
  ]
  t.same(await told(), expected, 'a record that leaves the rules is a removal; the others\' changes are not told')
  await stream.until(() => stream.events.length >= 4, 'four events')
  await new Promise(resolve => setTimeout(resolve, 100))
  t.same(stream.events.map(e => [e.event, e.data.id, e.data.record === null ? null : Object.keys(e.data.record).sort().join(',')]),
    expected.slice(1), 'the stream tells the same')
})

t.test('the OpenAPI document says which operations answer 403 and 404 for a rule, and names the unrestricted scope', async t => {
  const { app } = await world(t)
  const doc = (await app.inject({ method: 'GET', url: '/documentation/json' })).json()
  const operation = (path: string, method: string) => doc.paths[path][method] as { description: string, responses: Record<string, unknown> }
  const writes = [['/v1/keepers', 'post'], ['/v1/keepers/{id}', 'patch'], ['/v1/keepers/{id}', 'put'], ['/v1/keepers/{id}', 'delete']]
  for (const [path, method] of writes as [string, string][]) {
    const { description, responses } = operation(path, method)
    t.match(description, /Access rules \(a token with keepers:all is bound by none\): .* is 403/, `${method} ${path}`)
    t.ok(responses['403'])
  }
  t.match(operation('/v1/keepers/{id}', 'get'),
    { description: /outside the token's rules is 404; phone never answered/, responses: { 404: {} } })
  t.match(operation('/v1/keepers', 'get').description, /only the records the token's rules let it see/)
  t.match(operation('/v1/keepers', 'patch').description, /only the records the token sees and may write are changed/)
  t.match(operation('/v1/keepers/changes', 'get').description, /one that leaves them is a removal/)
  t.notMatch(operation('/v1/zoos', 'get').description, /Access rules/, 'a collection without rules says nothing of them')
  t.match(doc.components.securitySchemes.clientCredentials.flows.clientCredentials.scopes,
    { 'keepers:all': /every keepers record and field/, 'rangers:all': /rangers/ })
})

t.test('a field may name, and a nested path be under, only a record the token sees in the collection it references', async t => {
  const { zooA, inA, inB, annAs } = await world(t)
  const refused = await annAs('POST', '/v1/rangers', { name: 'Rex', zoo_id: zooA, keeper_id: inB.id })
  const never = await annAs('POST', '/v1/rangers', { name: 'Rex', zoo_id: zooA, keeper_id: 999999 })
  t.same([refused.statusCode, never.statusCode], [422, 422], 'a keeper outside the keepers\' rules is one that does not exist')
  t.same(refused.json().errors.map((e: { code: string }) => e.code), never.json().errors.map((e: { code: string }) => e.code))
  const rex = await annAs('POST', '/v1/rangers', { name: 'Rex', zoo_id: zooA, keeper_id: inA.id })
  t.equal(rex.statusCode, 201)
  t.equal((await annAs('PATCH', `/v1/rangers/${rex.json().id as number}`, { keeper_id: inB.id })).statusCode, 422)
  t.equal((await annAs('PATCH', '/v1/rangers?id_gte=1', { keeper_id: inB.id })).statusCode, 422, 'nor in a change of many')

  t.same((await annAs('GET', `/v1/keepers/${inA.id}/rangers`)).json().map((r: { id: number }) => r.id), [rex.json().id])
  for (const [method, path] of [['GET', `/v1/keepers/${inB.id}/rangers`], ['OPTIONS', `/v1/keepers/${inB.id}/rangers`],
    ['POST', `/v1/keepers/${inB.id}/rangers`], ['DELETE', `/v1/keepers/${inB.id}/rangers/${rex.json().id as number}`]] as const) {
    const res = await annAs(method, path, method === 'POST' ? { name: 'Ray', zoo_id: zooA } : undefined)
    t.equal(res.statusCode, 404, `${method} under a keeper outside the rules`)
  }
  const operation = { method: 'POST', path: `/v1/keepers/${inB.id}/rangers`, body: { name: 'Ray', zoo_id: zooA } }
  const batch = await annAs('POST', '/v1/batch', { operations: [operation] })
  t.match([batch.statusCode, batch.json()], [404, { operation: 0 }], 'nor in a batch')
})

t.test('what a token writes stays what it sees; a set field is never taken over; ETags, pages, keys tell nothing else', async t => {
  const { app, admin, zooA, zooB, ann, inA, inB, annAs } = await world(t)
  // A write rule that is not within the read rule by itself: a bound token still writes only what it sees.
  t.equal((await annAs('POST', '/v1/rangers', { name: 'Rex', zoo_id: zooB })).statusCode, 403, 'a create outside read')
  const rex = await annAs('POST', '/v1/rangers', { name: 'Rex', zoo_id: zooA })
  t.equal(rex.statusCode, 201)
  t.equal((await annAs('PATCH', `/v1/rangers/${rex.json().id as number}`, { zoo_id: zooB })).statusCode, 403, 'a move outside read')
  t.equal((await annAs('PATCH', '/v1/rangers?id_gte=1', { zoo_id: zooB })).statusCode, 403)
  t.equal((await annAs('POST', '/v1/rangers', { name: 'Chief', zoo_id: zooA })).statusCode, 403, 'and outside write')

  // A set field of a record another made is not the token's to take, even with its own claim.
  const taken = await annAs('PATCH', `/v1/keepers/${inA.id}`, { owner: ann.sub })
  t.match([taken.statusCode, taken.json()], [403, { errors: [{ field: 'owner' }] }])
  t.equal((await annAs('PATCH', '/v1/keepers?id_gte=1', { owner: ann.sub })).statusCode, 403)
  t.equal((await annAs('PUT', `/v1/keepers/${inA.id}`, { name: 'Ada', zoo_id: zooA, owner: ann.sub })).statusCode, 403)
  t.equal((await admin('GET', `/v1/keepers/${inA.id}`)).json().owner, 'someone')
  const own = (await annAs('POST', '/v1/keepers', { name: 'Own', zoo_id: zooA })).json()
  const kept = await annAs('PATCH', `/v1/keepers/${own.id as number}`, { name: 'Own 2', owner: ann.sub })
  t.equal(kept.statusCode, 201, 'its own value')

  // A bound token's list ETag is of what it sees: writes it cannot see leave it as it was.
  const tag = String((await annAs('GET', '/v1/keepers')).headers.etag)
  await admin('POST', '/v1/keepers', { name: 'Elsewhere', zoo_id: zooB })
  await call(app, 'PATCH', `/v1/keepers/${inB.id}`, { name: 'Cid 2' })
  t.equal((await annAs('GET', '/v1/keepers', undefined, { 'if-none-match': tag })).statusCode, 304)
  await call(app, 'PATCH', `/v1/keepers/${inA.id}`, { name: 'Seen' })
  t.equal((await annAs('GET', '/v1/keepers', undefined, { 'if-none-match': tag })).statusCode, 200)

  // A page of the feed is as full as the changes it sees allow: the changes it does not see tell nothing.
  // On PostgreSQL a change is read once final: the page starts after the rename above, once the feed holds it.
  // Until then the feed may answer no change at all, while a transaction begun before is still open.
  const feed = async () => (await call(app, 'GET', '/v1/keepers/changes?limit=1000')).json() as Array<Change & { position: string }>
  const last = async () => (await feed()).at(-1)
  for (let waited = 0; (await last())?.record?.name !== 'Seen' && waited < 5000; waited += 10) {
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  const head = (await last())?.position
  t.ok(head, 'the rename is in the feed')
  await admin('POST', '/v1/keepers', { name: 'Hidden 1', zoo_id: zooB })
  await admin('POST', '/v1/keepers', { name: 'Hidden 2', zoo_id: zooB })
  await admin('POST', '/v1/keepers', { name: 'Seen 2', zoo_id: zooA })
  for (let waited = 0; (await call(app, 'GET', `/v1/keepers/changes?after=${head}`)).json().length < 3 && waited < 5000; waited += 10) {
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  const page = await annAs('GET', `/v1/keepers/changes?after=${head}&limit=1`)
  t.same(page.json().map((c: { record: { name: string } }) => c.record.name), ['Seen 2'], 'the first change it sees, past others')

  // An answer kept for an Idempotency-Key replays only to a token under the same rules.
  const keyed = { 'idempotency-key': 'review-5' }
  t.equal((await annAs('POST', '/v1/keepers', { name: 'Key', zoo_id: zooA }, keyed)).statusCode, 201)
  await cli(app, ['user', 'claims', 'ann', '--claim', `zoo_id=${zooB}`])
  const again = await as(app, await passwordBearer(app, 'ann'))('POST', '/v1/keepers', { name: 'Key', zoo_id: zooA }, keyed)
  t.not(again.headers['idempotent-replayed'], 'true', 'not replayed under other claims')
  t.equal(again.statusCode, 422)

  // A claim's text may hold a comma where a value of its field may: a client id, the subject of its own tokens.
  const crew = await clientToken(app, { zoo_id: zooA }, SCOPE, 'crew,north')
  const made = await as(app, crew)('POST', '/v1/keepers', { name: 'Dee', zoo_id: zooA })
  t.same([made.statusCode, made.json().owner], [201, 'crew,north'])
})
