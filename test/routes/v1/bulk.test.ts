import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearerWith, build, call, create, snapshot } from '../../helper.ts'
import { accepted, finished } from '../../jobs/helper.ts'

/*
 * Changes of every record a query's filters match: PATCH and DELETE of a collection's path (and of
 * a nested one), through inject() on the engine of the pass, every answer checked against the
 * OpenAPI document.
 */

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' }

/** Five zoos: three in Berlin (one of them "Tierpark"), one in Munich, one in Zürich. */
async function zoos (app: FastifyInstance) {
  const made = []
  for (const [name, city] of [['Zoo Berlin', 'Berlin'], ['Tierpark', 'Berlin'], ['Aquarium', 'Berlin'], ['Hellabrunn', 'Munich'],
    ['Zoo Zürich', 'Zürich']] as const) made.push(await create(app, 'zoos', { name, city }))
  return made
}

const cities = async (app: FastifyInstance) =>
  ((await call(app, 'GET', '/v1/zoos?sortby=id')).json() as { country?: string, city: string }[]).map(z => `${z.city}:${z.country ?? '-'}`)

t.test('PATCH of a collection sets the fields of every record the filters match, all in one answer', async t => {
  const app = await build(t)
  const [berlin] = await zoos(app)
  const res = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { affected: 3 })
  t.equal(res.headers['preference-applied'], undefined)
  t.same(await cities(app), ['Berlin:DE', 'Berlin:DE', 'Berlin:DE', 'Munich:-', 'Zürich:-'])
  const read = await call(app, 'GET', `/v1/zoos/${berlin?.id}`)
  t.equal(read.headers.etag, '"2"', 'each record is written as a PATCH of it would be: a new version')
  t.not(read.json().updated_at, berlin?.updated_at)

  const merged = await call(app, 'PATCH', '/v1/zoos?q=zoo', { opened_on: '1844-08-01' }, MERGE_PATCH)
  t.same(merged.json(), { affected: 2 }, 'a merge patch, and q as a filter')
  const none = await call(app, 'PATCH', '/v1/zoos?city=Paris', { country: 'FR' })
  t.same([none.statusCode, none.json()], [200, { affected: 0 }], 'nothing matches: nothing changes')
})

t.test('a change of many records needs a filter, takes only the list\'s filters and refuses bad values', async t => {
  const app = await build(t)
  await zoos(app)
  const before = await snapshot(app)
  for (const [method, url, status] of [
    ['PATCH', '/v1/zoos', 400], ['DELETE', '/v1/zoos', 400], ['PATCH', '/v1/zoos?limit=5', 400], ['DELETE', '/v1/zoos?sortby=name', 400],
    ['PATCH', '/v1/zoos?keeper=Ada', 400], ['DELETE', '/v1/zoos?id_gte=x', 400], ['PATCH', '/v1/zoos?q=', 400]
  ] as const) {
    const res = await call(app, method, url, method === 'PATCH' ? { country: 'DE' } : undefined)
    t.equal(res.statusCode, status, `${method} ${url}`)
    t.match(res.json(), { error: String })
  }
  const invalid = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'Germany' })
  t.equal(invalid.statusCode, 422)
  t.match(invalid.json(), { errors: [{ field: 'country' }] })
  const required = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { name: null }, MERGE_PATCH)
  t.equal(required.statusCode, 422, 'null on a required field')
  const notObject = await call(app, 'PATCH', '/v1/zoos?city=Berlin', [{ country: 'DE' }])
  t.equal(notObject.statusCode, 400)
  t.same(await snapshot(app), before, 'nothing was written')
  const noFilter = await call(app, 'DELETE', '/v1/zoos')
  t.match(noFilter.json().error, /at least one filter/)
})

t.test('Prefer: max-affected refuses more matches than it allows, naming their number; nothing changes', async t => {
  const app = await build(t)
  await zoos(app)
  const before = await snapshot(app)
  const refused = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' }, { prefer: 'max-affected=2' })
  t.equal(refused.statusCode, 422)
  t.match(refused.json().error, /^3 zoos match, more than the 2 that Prefer: max-affected allows/)
  t.equal(refused.headers['preference-applied'], undefined, 'a refusal applied nothing')
  const deleting = await call(app, 'DELETE', '/v1/zoos?city=Berlin', undefined, { prefer: 'max-affected=0' })
  t.equal(deleting.statusCode, 422)
  t.same(await snapshot(app), before)

  const allowed = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' }, { prefer: 'max-affected=3' })
  t.same([allowed.statusCode, allowed.json(), allowed.headers['preference-applied']], [200, { affected: 3 }, 'max-affected=3'])
})

t.test('a max-affected or tx that cannot be read is refused (400 naming it), not ignored; queued, it is refused at once', async t => {
  const app = await build(t)
  await zoos(app)
  const before = await snapshot(app)
  for (const prefer of ['max-affected=+10', 'max-affected=-1', 'max-affected=10.0', 'max-affected=many', 'max-affected',
    'max-affected=1e3', 'max-affected=10000000000000000', 'tx=rolback', 'tx', 'tx=rollback, max-affected=two']) {
    for (const async of ['', 'respond-async, ']) {
      const res = await call(app, 'PATCH', '/v1/zoos?id_gte=1', { country: 'DE' }, { prefer: `${async}${prefer}` })
      t.equal(res.statusCode, 400, `${async}${prefer}`)
      t.match(res.json().error, /^Invalid Prefer: (max-affected|tx) /, prefer)
      const remove = await call(app, 'DELETE', '/v1/zoos?id_gte=1', undefined, { prefer: `${async}${prefer}` })
      t.equal(remove.statusCode, 400, `DELETE ${async}${prefer}`)
    }
  }
  t.same(await snapshot(app), before, 'nothing was changed, and no job was queued')
  const spaced = await call(app, 'PATCH', '/v1/zoos?city=Munich', { country: 'DE' }, { prefer: 'max-affected = 1, tx="commit"' })
  t.same([spaced.statusCode, spaced.headers['preference-applied']], [200, 'max-affected=1, tx=commit'], 'as RFC 7240 may write them')
  const other = await call(app, 'PATCH', '/v1/zoos?city=Munich', { country: 'DE' }, { prefer: 'return=everything, handling=lenient' })
  t.equal(other.statusCode, 200, 'what does not decide what is written is ignored, as RFC 7240 says')
  const single = await call(app, 'PATCH', '/v1/zoos/1', { country: 'DE' }, { prefer: 'max-affected=+10' })
  t.equal(single.statusCode, 201, 'a write of one record takes no max-affected')
})

t.test('Prefer: tx=rollback answers what the change would do and changes nothing', async t => {
  const app = await build(t)
  await zoos(app)
  const before = await snapshot(app)
  const patch = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' }, { prefer: 'tx=rollback, return=representation' })
  t.equal(patch.statusCode, 200)
  t.equal(patch.headers['preference-applied'], 'tx=rollback, return=representation')
  t.equal(patch.json().affected, 3)
  t.same(patch.json().records.map((z: { country: string }) => z.country), ['DE', 'DE', 'DE'], 'the records as they would be')
  const remove = await call(app, 'DELETE', '/v1/zoos?city_in=Munich,Zürich', undefined, { prefer: 'tx=rollback' })
  t.same(remove.json(), { affected: 2 })
  const refused = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' }, { prefer: 'tx=rollback, max-affected=1' })
  t.equal(refused.statusCode, 422, 'a dry run is refused as the change would be')
  t.same(await snapshot(app), before, 'nothing was written')
  const committed = await call(app, 'PATCH', '/v1/zoos?city=Munich', { country: 'DE' }, { prefer: 'tx=commit' })
  t.same([committed.json(), committed.headers['preference-applied']], [{ affected: 1 }, 'tx=commit'])
  t.same(await cities(app), ['Berlin:-', 'Berlin:-', 'Berlin:-', 'Munich:DE', 'Zürich:-'])
})

t.test('Prefer: return=representation answers the records as written, or as they were before a delete', async t => {
  const app = await build(t)
  const made = await zoos(app)
  const patch = await call(app, 'PATCH', '/v1/zoos?city=Berlin&name_ne=Tierpark', { country: 'DE' }, { prefer: 'return=representation' })
  t.same(patch.json().records.map((z: { id: number }) => z.id), [made[0]?.id, made[2]?.id], 'in id order')
  t.match(patch.json().records[0], { name: 'Zoo Berlin', country: 'DE' })
  const remove = await call(app, 'DELETE', '/v1/zoos?city=Zürich', undefined, { prefer: 'return=representation' })
  t.same(remove.json(), { affected: 1, records: [made[4]] })
  t.equal((await call(app, 'GET', `/v1/zoos/${made[4]?.id}`)).statusCode, 410, 'a deleted id stays dead')
  const minimal = await call(app, 'PATCH', '/v1/zoos?city=Munich', { country: 'DE' }, { prefer: 'return=minimal' })
  t.same([minimal.json(), minimal.headers['preference-applied']], [{ affected: 1 }, 'return=minimal'])
})

t.test('each record keeps the rules of its own write: references, unique values, records still named', async t => {
  const app = await build(t)
  const [berlin, tierpark] = await zoos(app)
  const keeper = { name: 'Ada', role: 'keeper', zoo_id: berlin?.id }
  await create(app, 'employees', { ...keeper, email: 'ada@zoo.test' })
  await create(app, 'employees', { ...keeper, name: 'Bob', email: 'bob@zoo.test' })
  await create(app, 'animals', { name: 'Knut', species: 'polar bear', animal_type_id: 1, zoo_id: tierpark?.id })
  const before = await snapshot(app)

  const unique = await call(app, 'PATCH', '/v1/employees?role=keeper', { email: 'keepers@zoo.test' })
  t.equal(unique.statusCode, 422, 'two records cannot take one unique value')
  t.match(unique.json(), { errors: [{ field: 'email', code: 'unique' }] })
  const reference = await call(app, 'PATCH', '/v1/employees?role=keeper', { zoo_id: 999 })
  t.equal(reference.statusCode, 422)
  t.match(reference.json(), { errors: [{ field: 'zoo_id', code: 'not_found' }] })
  const named = await call(app, 'DELETE', '/v1/zoos?city=Berlin')
  t.equal(named.statusCode, 409, 'a zoo that still has animals or employees')
  t.match(named.json().error, /still has/)
  t.same(await snapshot(app), before, 'nothing was written')

  const one = await call(app, 'PATCH', '/v1/employees?name=Bob', { email: 'ADA2@zoo.test' })
  t.same(one.json(), { affected: 1 }, 'one record may take a value no other has')
  const moved = await call(app, 'PATCH', `/v1/employees?zoo_id=${berlin?.id}`, { zoo_id: null })
  t.same(moved.json(), { affected: 2 })
  const emptied = await call(app, 'DELETE', `/v1/zoos?city=Berlin&id_ne=${tierpark?.id}`)
  t.same(emptied.json(), { affected: 2 }, 'zoos nobody names any more')
})

t.test('nested: only the records of that parent, which must be live', async t => {
  const app = await build(t)
  const [berlin, tierpark] = await zoos(app)
  for (const [name, zoo] of [['Knut', tierpark], ['Bao Bao', berlin], ['Fatou', berlin]] as const) {
    await create(app, 'animals', { name, species: 'bear', animal_type_id: 1, zoo_id: zoo?.id })
  }
  const res = await call(app, 'PATCH', `/v1/zoos/${berlin?.id}/animals?species=bear`, { species: 'panda' })
  t.same(res.json(), { affected: 2 })
  const species = ((await call(app, 'GET', '/v1/animals?sortby=id')).json() as { species: string }[]).map(a => a.species)
  t.same(species, ['bear', 'panda', 'panda'])
  const removed = await call(app, 'DELETE', `/v1/zoos/${tierpark?.id}/animals?id_gte=1`, undefined, { prefer: 'return=representation' })
  t.match(removed.json(), { affected: 1, records: [{ name: 'Knut' }] })
  t.equal((await call(app, 'PATCH', '/v1/zoos/999/animals?id_gte=1', { species: 'x' })).statusCode, 404)
  await call(app, 'DELETE', `/v1/zoos/${tierpark?.id}`)
  t.equal((await call(app, 'DELETE', `/v1/zoos/${tierpark?.id}/animals?id_gte=1`)).statusCode, 410)
})

t.test('a change of many records needs the collection\'s read and write scopes; Allow names the methods', async t => {
  const app = await build(t)
  await zoos(app)
  const reader = await bearerWith(app, 'zoos:read')
  const res = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' }, { authorization: reader })
  t.equal(res.statusCode, 403)
  t.equal(res.headers['www-authenticate'], 'Bearer realm="zoo-api", error="insufficient_scope", scope="zoos:read zoos:write"')
  t.match(res.json(), { error: 'The access token lacks the scope zoos:write' })
  const put = await call(app, 'PUT', '/v1/zoos?city=Berlin', { name: 'x', city: 'y' })
  t.equal(put.statusCode, 405)
  t.equal(put.headers.allow, 'GET, HEAD, POST, PATCH, DELETE, OPTIONS')
})

t.test('an Idempotency-Key retry of a change of many records replays its first answer', async t => {
  const app = await build(t)
  await zoos(app)
  const headers = { 'idempotency-key': 'bulk-1' }
  const first = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { opened_on: '2000-01-01' }, headers)
  await create(app, 'zoos', { name: 'Späti-Zoo', city: 'Berlin' })
  const again = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { opened_on: '2000-01-01' }, headers)
  t.same([again.statusCode, again.json(), again.headers['idempotent-replayed']], [200, first.json(), 'true'])
  const other = await call(app, 'PATCH', '/v1/zoos?city=Munich', { opened_on: '2000-01-01' }, headers)
  t.equal(other.statusCode, 422, 'the same key with another request')
})

t.test('a change of many records queued with Prefer: respond-async keeps its other preferences', async t => {
  const app = await build(t)
  await zoos(app)
  const before = await snapshot(app)
  const queue = async (method: 'PATCH' | 'DELETE', url: string, prefer: string, body?: unknown) => {
    const res = await call(app, method, url, body, { prefer: `respond-async, ${prefer}` })
    return finished(app, accepted(t, res))
  }
  t.match(await queue('DELETE', '/v1/zoos?city=Munich', 'tx=rollback'),
    { status: 'succeeded', result: { status: 200, body: { affected: 1 } } })
  t.match(await queue('PATCH', '/v1/zoos?city=Berlin', 'max-affected=2', { country: 'DE' }),
    { status: 'failed', result: { status: 422 } })
  t.same(await snapshotWithoutJobs(app), await withoutJobs(before), 'the dry run and the refused change wrote nothing')
  t.match(await queue('PATCH', '/v1/zoos?city=Berlin', 'return=representation', { country: 'DE' }),
    { status: 'succeeded', result: { status: 200, body: { affected: 3, records: [{ country: 'DE' }, {}, {}] } } })
})

/** The rows of what a change of records writes: the records, their tombstones and the change feed (not the jobs' own). */
const RECORD_TABLES = ['zoos', 'animals', 'employees', 'tombstones', 'changes']
const withoutJobs = (rows: Record<string, unknown[]>) =>
  Object.fromEntries(Object.entries(rows).filter(([table]) => RECORD_TABLES.includes(table)))
const snapshotWithoutJobs = async (app: FastifyInstance) => withoutJobs(await snapshot(app))

t.test('an Idempotency-Key names a change with its preferences: a dry run and the real change are two requests', async t => {
  const app = await build(t)
  await zoos(app)
  const dry = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' }, { 'idempotency-key': 'k', prefer: 'tx=rollback' })
  t.same(dry.json(), { affected: 3 })
  const real = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' }, { 'idempotency-key': 'k' })
  t.equal(real.statusCode, 422, 'not the dry run\'s answer replayed as if it had been applied')
  const same = await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'DE' }, { 'idempotency-key': 'k', prefer: 'TX=rollback' })
  t.same([same.statusCode, same.headers['idempotent-replayed']], [200, 'true'], 'the same preferences, however written')
})

t.test('a write-only token learns nothing of records through a change of many: not its records, not how many match', async t => {
  const app = await build(t)
  const [berlin] = await zoos(app)
  await create(app, 'animals', { name: 'Knut', species: 'polar bear', animal_type_id: 1, zoo_id: berlin?.id })
  const writer = await bearerWith(app, 'zoos:write animals:write')
  const before = await snapshot(app)
  const asked: [string, string, unknown, string][] = [
    ['DELETE', '/v1/zoos?id_gte=1', undefined, 'tx=rollback, return=representation'],
    ['PATCH', '/v1/zoos?id_gte=1', {}, 'tx=rollback, return=representation'],
    ['PATCH', '/v1/zoos?q=tierpark', { country: 'DE' }, ''],
    ['DELETE', '/v1/zoos?name=Tierpark', undefined, 'tx=rollback'],
    ['DELETE', '/v1/zoos?city=Berlin', undefined, 'max-affected=0'],
    ['DELETE', '/v1/zoos?id_gte=1', undefined, 'respond-async, tx=rollback, return=representation'],
    ['PATCH', `/v1/zoos/${berlin?.id}/animals?name=Knut`, {}, 'tx=rollback, return=representation'],
    ['DELETE', `/v1/zoos/${berlin?.id}/animals?id_gte=1`, undefined, 'respond-async, tx=rollback']
  ]
  for (const [method, url, body, prefer] of asked) {
    const res = await call(app, method as 'PATCH' | 'DELETE', url, body, { authorization: writer, prefer })
    const what = `${method} ${url} ${prefer}`
    t.equal(res.statusCode, 403, what)
    t.same(Object.keys(res.json()).sort(), ['documentation_url', 'error', 'message'], `${what}: nothing of the records`)
    t.match(res.headers['www-authenticate'], /scope="(zoos|animals):read (zoos|animals):write"/, what)
  }
  const batched = await call(app, 'POST', '/v1/batch', {
    operations: [{ method: 'DELETE', path: '/v1/zoos?id_gte=1' }]
  }, { authorization: writer, prefer: 'respond-async' })
  t.equal(batched.statusCode, 403, 'a batch\'s change of many records, queued')
  t.same(await snapshot(app), before, 'nothing was changed, and no job was queued')
  const one = await call(app, 'PATCH', `/v1/zoos/${berlin?.id}`, { country: 'DE' }, { authorization: writer })
  t.equal(one.statusCode, 201, 'the token still writes a record it names')
  const both = await bearerWith(app, 'zoos:read zoos:write')
  const allowed = await call(app, 'DELETE', '/v1/zoos?city=Munich', undefined, { authorization: both, prefer: 'tx=rollback' })
  t.same([allowed.statusCode, allowed.json()], [200, { affected: 1 }])
})
