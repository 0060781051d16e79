import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { groupCommits, heard, statements, type StatementEvent } from '../../../store/observed.ts'
import { bearerWith, build, buildBeside, call, create, snapshot } from '../../helper.ts'
import { accepted, finished } from '../../jobs/helper.ts'

/*
 * POST /v1/batch: writes that succeed or fail together, through inject() on the engine of the
 * pass, every answer checked against the OpenAPI document.
 */

type Operation = { method: string, path: string, body?: unknown, headers?: Record<string, string> }

const batch = (app: FastifyInstance, operations: Operation[], headers: Record<string, string> = {}) =>
  call(app, 'POST', '/v1/batch', { operations }, headers)

const ZOO = { name: 'Tierpark', city: 'Berlin' }

/**
 * The transactions the store begins while `t` runs: on SQLite each group commit (a write joins
 * one to run), on PostgreSQL each BEGIN sent, heard as the traces hear statements: subscribed to,
 * and wanted (store/observed.ts `heard`).
 */
function transactionsBegun (t: Test): { begun: number } {
  const counted = { begun: 0 }
  const onGroup = (): void => { counted.begun++ }
  const onStatement = (message: unknown): void => {
    if (/^\s*BEGIN/i.test((message as StatementEvent).text)) counted.begun++
  }
  groupCommits.subscribe(onGroup)
  statements.start.subscribe(onStatement)
  heard.statements++
  t.teardown(() => {
    heard.statements--
    groupCommits.unsubscribe(onGroup)
    statements.start.unsubscribe(onStatement)
  })
  return counted
}
const animal = (name: string) => ({ name, species: 'bear', animal_type_id: 1 })

t.test('a batch runs its operations in order, each answered as it would be alone, later ones using earlier answers', async t => {
  const app = await build(t)
  const res = await batch(app, [
    { method: 'POST', path: '/v1/zoos', body: ZOO },
    { method: 'POST', path: '/v1/zoos/{0.id}/animals', body: animal('Knut') },
    { method: 'POST', path: '/v1/employees', body: { name: 'Ada', role: 'keeper', email: 'ada@zoo.test', zoo_id: { $ref: '0.id' } } },
    { method: 'PATCH', path: '/v1/zoos/{0.id}', body: { country: 'DE' }, headers: { 'If-Match': '"1"' } },
    { method: 'PUT', path: '/v1/animals/{1.id}', body: { ...animal('Knut'), zoo_id: { $ref: '0.id' }, born_on: '2006-12-05' } },
    { method: 'POST', path: '/v1/animals', body: [animal('Bao'), { ...animal('Fu'), zoo_id: { $ref: '3.id' } }] },
    { method: 'PATCH', path: '/v1/animals?name_in=Bao,Fu', body: { species: 'panda' } },
    { method: 'DELETE', path: '/v1/animals/{5.0.id}', headers: { 'if-match': '"2"' } }
  ])
  t.equal(res.statusCode, 200)
  const results = res.json().results
  t.same(results.map((r: { status: number }) => r.status), [201, 201, 201, 201, 201, 201, 200, 204])
  const [zoo, knut, ada, patched, replaced, made, bulk, removed] = results
  t.match(zoo, { headers: { location: 'http://localhost:80/v1/zoos/1', etag: '"1"' }, body: { id: 1, ...ZOO } })
  t.match(knut.body, { id: 1, name: 'Knut', zoo_id: 1 })
  t.equal(knut.headers.location, 'http://localhost:80/v1/animals/1', 'the canonical URL, as a nested POST alone answers')
  t.match(ada.body, { zoo_id: 1 })
  t.match(patched, { headers: { etag: '"2"' }, body: { country: 'DE' } })
  t.match(replaced.body, { born_on: '2006-12-05', zoo_id: 1 })
  t.same(made.headers, {}, 'an array creates answer no Location')
  t.same(made.body.map((a: { zoo_id: number | null }) => a.zoo_id), [null, 1])
  t.same(bulk.body, { affected: 2 })
  t.same(removed, { status: 204, headers: {} })

  t.match((await call(app, 'GET', '/v1/zoos/1')).json(), { country: 'DE' })
  t.same(((await call(app, 'GET', '/v1/animals')).json() as { name: string, species: string }[]).map(a => `${a.name}:${a.species}`),
    ['Knut:bear', 'Fu:panda'])
  t.equal((await call(app, 'GET', '/v1/animals/2')).statusCode, 410)
})

t.test('a batch that fails at any position answers that operation\'s refusal with its index, and writes nothing', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  await create(app, 'animals', { ...animal('Knut'), zoo_id: zoo.id })
  const gone = await create(app, 'zoos', { name: 'Old', city: 'Bonn' })
  await call(app, 'DELETE', `/v1/zoos/${gone.id}`)
  const writer = await bearerWith(app, 'zoos:read zoos:write animals:write')
  const valid: Operation[] = [
    { method: 'POST', path: '/v1/zoos', body: { name: 'Hellabrunn', city: 'Munich' } },
    { method: 'PATCH', path: `/v1/zoos/${zoo.id}`, body: { country: 'DE' } },
    { method: 'POST', path: '/v1/zoos/{0.id}/animals', body: animal('Bao') },
    { method: 'DELETE', path: '/v1/animals/{2.id}' }
  ]
  const refusals: [Operation, number, RegExp][] = [
    [{ method: 'POST', path: '/v1/giraffes', body: {} }, 404, /: Nothing at \/v1\/giraffes$/],
    [{ method: 'PATCH', path: '/v1/zoos/0', body: {} }, 404, /identifiers are positive integers/],
    [{ method: 'PUT', path: '/v1/zoos', body: ZOO }, 405, /PUT is not allowed/],
    [{ method: 'PATCH', path: `/v1/zoos/${zoo.id}/animals/1`, body: {} }, 405, /allowed: GET, HEAD, DELETE, OPTIONS/],
    [{ method: 'POST', path: '/v1/employees', body: { name: 'Ada', role: 'keeper', email: 'ada@zoo.test' } }, 403, /employees:write/],
    [{ method: 'POST', path: '/v1/zoos?x=1', body: ZOO }, 400, /unknown query parameter x/],
    [{ method: 'DELETE', path: '/v1/zoos' }, 400, /at least one filter/],
    [{ method: 'DELETE', path: `/v1/zoos/${zoo.id}`, body: {} }, 400, /takes no body/],
    [{ method: 'POST', path: '/v1/zoos' }, 400, /takes a body/],
    [{ method: 'POST', path: '/v1/zoos', body: 'zoo' }, 400, /must be a JSON object or array/],
    [{ method: 'POST', path: '/v1/zoos', body: { city: 'Rome' } }, 422, /name is required/],
    [{ method: 'POST', path: '/v1/zoos', body: { name: 'a\u0000b', city: 'Rome' } }, 422, /null byte/],
    [{ method: 'POST', path: '/v1/animals', body: { ...animal('X'), zoo_id: 999 } }, 422, /names no existing record/],
    [{ method: 'DELETE', path: `/v1/zoos/${zoo.id}` }, 409, /still has animals/],
    [{ method: 'PATCH', path: `/v1/zoos/${gone.id}`, body: {} }, 410, /was deleted/],
    [{ method: 'POST', path: `/v1/zoos/${gone.id}/animals`, body: animal('X') }, 410, /was deleted/],
    [{ method: 'DELETE', path: `/v1/zoos/${zoo.id}/animals/999` }, 404, /no animal with id 999/],
    [{ method: 'DELETE', path: `/v1/zoos/${zoo.id}`, headers: { 'If-Match': '"7"' } }, 412, /has changed/],
    [{ method: 'PATCH', path: `/v1/zoos/${zoo.id}`, body: { name: { $ref: '9.name' } } }, 400, /names no earlier operation/],
    [{ method: 'PATCH', path: `/v1/zoos/${zoo.id}`, body: { name: { $ref: '0.keeper' } } }, 422, /names nothing in the answer/]
  ]
  const before = await snapshot(app)
  for (const [refused, status, message] of refusals) {
    for (let at = 0; at <= valid.length; at++) {
      const operations = [...valid.slice(0, at), refused, ...valid.slice(at)]
      // A $ref naming operation 0 needs one before it.
      if (at === 0 && JSON.stringify(refused).includes('"0.')) continue
      const res = await batch(app, operations, { authorization: writer })
      const what = `${refused.method} ${refused.path} at ${at}`
      t.equal(res.statusCode, status, what)
      t.equal(res.json().operation, at, what)
      t.match(res.json().error, new RegExp(`^Operation ${at}: `), what)
      t.match(res.json().error, message, what)
    }
  }
  t.same(await snapshot(app), before, 'no refused batch wrote anything')
  const scope = await batch(app, [{ method: 'POST', path: '/v1/employees', body: {} }], { authorization: writer })
  t.match(scope.headers['www-authenticate'], /insufficient_scope.*employees:write/, 'a 403 says the scope as alone')
  const put = await batch(app, [{ method: 'PUT', path: '/v1/zoos', body: ZOO }])
  t.same([put.statusCode, put.headers.allow], [405, undefined], 'no Allow: it would name another path\'s methods as the batch\'s')
  const fields = await batch(app, [{ method: 'POST', path: '/v1/zoos', body: { city: 5 } }])
  t.match(fields.json(), { operation: 0, errors: [{ field: 'name', code: 'required' }, { field: 'city', code: 'type' }] })
})

t.test('an operation sees what earlier ones wrote: versions, unique values, parents', async t => {
  const app = await build(t)
  const versions = await batch(app, [
    { method: 'POST', path: '/v1/zoos', body: ZOO },
    { method: 'PATCH', path: '/v1/zoos/{0.id}', body: { city: 'Berlin-Lichtenberg' }, headers: { 'If-Match': '"1"' } },
    { method: 'PATCH', path: '/v1/zoos/{0.id}', body: { country: 'DE' }, headers: { 'If-Match': '"2"' } }
  ])
  t.same(versions.json().results.map((r: { headers: { etag: string } }) => r.headers.etag), ['"1"', '"2"', '"3"'])
  const unique = await batch(app, [
    { method: 'POST', path: '/v1/employees', body: { name: 'Ada', role: 'keeper', email: 'ada@zoo.test' } },
    { method: 'POST', path: '/v1/employees', body: { name: 'Bob', role: 'keeper', email: 'ADA@zoo.test' } }
  ])
  t.match([unique.statusCode, unique.json()], [422, { operation: 1, errors: [{ field: 'email', code: 'unique' }] }])
  const parent = await batch(app, [
    { method: 'DELETE', path: '/v1/zoos/1' },
    { method: 'POST', path: '/v1/zoos/1/animals', body: animal('Knut') }
  ])
  t.match([parent.statusCode, parent.json()], [410, { operation: 1 }], 'a parent deleted earlier in the batch')
  t.equal((await call(app, 'GET', '/v1/zoos/1')).statusCode, 200, 'and nothing was deleted')
  const nested = await batch(app, [
    { method: 'POST', path: '/v1/zoos', body: ZOO },
    { method: 'POST', path: '/v1/animals', body: animal('Knut') },
    { method: 'DELETE', path: '/v1/zoos/{0.id}/animals/{1.id}' }
  ])
  t.match([nested.statusCode, nested.json()], [404, { operation: 2, error: /is not in zoo/ }])
  const path = await batch(app, [
    { method: 'POST', path: '/v1/zoos', body: ZOO },
    { method: 'DELETE', path: '/v1/zoos/{0.name}' }
  ])
  t.match([path.statusCode, path.json()], [404, { operation: 1 }], 'a path segment that names no id')
  const object = await batch(app, [
    { method: 'POST', path: '/v1/zoos', body: ZOO },
    { method: 'DELETE', path: '/v1/zoos/{0.opened_on}' }
  ])
  t.match([object.statusCode, object.json()], [422, { operation: 1, error: /must name a number or a text/ }])
})

t.test('the batch body itself: at most BATCH_MAX_OPERATIONS, known members only', async t => {
  const app = await build(t, { BATCH_MAX_OPERATIONS: '2' })
  const three = await batch(app, [0, 1, 2].map(() => ({ method: 'POST', path: '/v1/zoos', body: ZOO })))
  t.equal(three.statusCode, 422)
  t.match(three.json().errors, [{ field: 'operations', code: 'length' }])
  for (const body of [{}, { operations: [] }, { operations: [{ method: 'GET', path: '/v1/zoos' }] },
    { operations: [{ method: 'POST', path: 'v1/zoos', body: ZOO }] },
    { operations: [{ method: 'DELETE', path: '/v1/zoos/1', headers: { 'Idempotency-Key': 'x' } }] }]) {
    const res = await call(app, 'POST', '/v1/batch', body)
    t.equal(res.statusCode, 422, JSON.stringify(body))
  }
  t.equal((await call(app, 'GET', '/v1/batch')).statusCode, 405)
  t.same((await call(app, 'GET', '/v1/zoos')).json(), [])
})

t.test('Idempotency-Key applies to the batch as a whole; Prefer: respond-async queues it', async t => {
  const app = await build(t)
  const operations = [{ method: 'POST', path: '/v1/zoos', body: ZOO }]
  const first = await batch(app, operations, { 'idempotency-key': 'batch-1' })
  const again = await batch(app, operations, { 'idempotency-key': 'batch-1' })
  t.same([again.statusCode, again.json(), again.headers['idempotent-replayed']], [200, first.json(), 'true'])
  t.equal((await call(app, 'GET', '/v1/zoos')).json().length, 1, 'created once')
  const other = await batch(app, [...operations, ...operations], { 'idempotency-key': 'batch-1' })
  t.equal(other.statusCode, 422)

  const queued = await batch(app, [...operations, { method: 'PATCH', path: '/v1/zoos/{0.id}', body: { country: 'DE' } }],
    { prefer: 'respond-async' })
  const job = await finished(app, accepted(t, queued))
  const results = [{ status: 201 }, { status: 201, body: { country: 'DE' } }]
  t.match(job, { status: 'succeeded', result: { status: 200, body: { results } } })
})

t.test('paths may carry API_PREFIX, or not', async t => {
  const app = await build(t, { API_PREFIX: '/api' })
  const res = await call(app, 'POST', '/api/v1/batch', {
    operations: [{ method: 'POST', path: '/api/v1/zoos', body: ZOO }, { method: 'PATCH', path: '/v1/zoos/{0.id}/', body: { city: 'Bonn' } }]
  })
  t.equal(res.statusCode, 200)
  t.equal(res.json().results[1].headers.location, 'http://localhost:80/api/v1/zoos/1')
})

t.test('the totals a list keeps follow a batch of many statements, on every instance of the database', async t => {
  const app = await build(t)
  const beside = await buildBeside(t, app)
  const totals = async () => [app, beside].map(async a => (await call(a, 'GET', '/v1/zoos?city=Berlin')).headers['x-total-count'])
  t.same(await Promise.all(await totals()), ['0', '0'])
  await batch(app, [
    { method: 'POST', path: '/v1/zoos', body: ZOO },
    { method: 'POST', path: '/v1/zoos', body: [ZOO, ZOO] },
    { method: 'PATCH', path: '/v1/zoos/{0.id}', body: { city: 'Bonn' } },
    { method: 'PATCH', path: '/v1/zoos?id_in=2,3', body: { country: 'DE' } }
  ])
  t.same(await Promise.all(await totals()), ['2', '2'])
  await batch(beside, [{ method: 'DELETE', path: '/v1/zoos?city=Berlin' }])
  t.same(await Promise.all(await totals()), ['0', '0'])
})

t.test('a body nested deep in an operation is refused as any ill-typed value is', async t => {
  const app = await build(t)
  const deep = `${'['.repeat(40_000)}${']'.repeat(40_000)}`
  const res = await app.inject({
    method: 'POST',
    url: '/v1/batch',
    headers: { authorization: (await bearerWith(app, 'zoos:write')), 'content-type': 'application/json' },
    payload: `{"operations":[{"method":"POST","path":"/v1/zoos","body":{"name":${deep},"city":"x"}}]}`
  })
  t.equal(res.statusCode, 422)
  t.match(res.json(), { operation: 0, errors: [{ field: 'name', code: 'type' }] })
})

t.test('a queued batch is refused at once for any operation\'s path, method or scope: no job is made', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  const reader = await bearerWith(app, 'zoos:read animals:write')
  const before = await snapshot(app)
  const refusals: [Operation[], number, RegExp][] = [
    [[{ method: 'DELETE', path: `/v1/zoos/${zoo.id}` }], 403, /^Operation 0: The access token lacks the scope zoos:write$/],
    [[{ method: 'POST', path: '/v1/animals', body: animal('Knut') }, { method: 'PATCH', path: '/v1/zoos/{0.zoo_id}', body: {} }], 403,
      /^Operation 1: .*zoos:write/],
    [[{ method: 'POST', path: '/v1/animals', body: animal('Knut') }, { method: 'DELETE', path: '/v1/animals?id_gte=1' }], 403,
      /^Operation 1: The access token lacks the scope animals:read$/],
    [[{ method: 'POST', path: '/v1/animals', body: animal('Knut') }, { method: 'POST', path: '/v1/giraffes', body: {} }], 404,
      /^Operation 1: Nothing at/],
    [[{ method: 'POST', path: '/v1/animals', body: animal('Knut') }, { method: 'PUT', path: '/v1/animals', body: {} }], 405,
      /^Operation 1: PUT is not allowed/]
  ]
  for (const [operations, status, message] of refusals) {
    const res = await batch(app, operations, { authorization: reader, prefer: 'respond-async' })
    t.equal(res.statusCode, status, JSON.stringify(operations))
    t.match(res.json().error, message)
  }
  const huge = Array.from({ length: 100 }, () => ({ method: 'DELETE', path: `/v1/zoos/${zoo.id}` }))
  t.equal((await batch(app, huge, { authorization: reader, prefer: 'respond-async' })).statusCode, 403)
  t.same(await snapshot(app), before, 'no job was queued, nothing was written')
  const allowed = await batch(app, [{ method: 'POST', path: '/v1/animals', body: animal('Knut') }],
    { authorization: reader, prefer: 'respond-async' })
  t.equal(allowed.statusCode, 202)
})

t.test('an operation that uses no earlier answer is checked before the transaction begins: a bad body begins none', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  const counted = transactionsBegun(t)
  const operations: Operation[] = [
    { method: 'POST', path: '/v1/zoos', body: { name: 'Hellabrunn', city: 'Munich' } },
    { method: 'PATCH', path: `/v1/zoos/${zoo.id}`, body: { country: 'DE' } },
    { method: 'POST', path: `/v1/zoos/${zoo.id}/animals`, body: animal('Knut') }
  ]
  const before = await snapshot(app)
  for (const [last, status, message] of [
    [{ method: 'POST', path: '/v1/zoos', body: { name: 'No city' } }, 422, /^Operation 3: .*city/],
    [{ method: 'PATCH', path: `/v1/zoos/${zoo.id}`, body: { country: 42 } }, 422, /^Operation 3: .*country/],
    [{ method: 'DELETE', path: '/v1/zoos?colour=red' }, 400, /^Operation 3: .*colour/],
    [{ method: 'PATCH', path: '/v1/zoos?name=Tierpark', body: { name: '' } }, 422, /^Operation 3: .*name/]
  ] as const) {
    const res = await batch(app, [...operations, last])
    t.equal(res.statusCode, status, JSON.stringify(last.body ?? last.path))
    t.match(res.json(), { error: message, operation: 3 })
  }
  t.equal(counted.begun, 0, 'no transaction begun for any of them')
  t.same(await snapshot(app), before, 'nothing written')

  const ran = await batch(app, operations)
  t.equal(ran.statusCode, 200)
  t.ok(counted.begun >= 1, 'the count sees a batch that runs')
  const referencing = await batch(app, [...operations, { method: 'POST', path: '/v1/zoos/{0.id}/animals', body: { name: 'No species' } }])
  t.match(referencing.json(), { error: /^Operation 3: /, operation: 3 }, 'one that uses an answer is planned in the transaction')
})
