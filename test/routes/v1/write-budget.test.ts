import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { build, call, snapshot } from '../../helper.ts'
import { accepted, finished } from '../../jobs/helper.ts'

/*
 * WRITE_MAX_RECORDS: the records one request may write, whether a POST of an array, a change of
 * many records, or a batch's operations together, checked as each runs and before its work, on
 * the engine of the pass.
 */

const LIMIT = 5

/** `count` zoos, made by as many requests as the limit needs. */
async function zoos (app: FastifyInstance, count: number): Promise<void> {
  for (let made = 0; made < count; made += LIMIT) {
    const body = Array.from({ length: Math.min(LIMIT, count - made) }, (_, i) => ({ name: `Zoo ${made + i + 1}`, city: 'Berlin' }))
    const res = await call(app, 'POST', '/v1/zoos', body)
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`)
  }
}

const batch = (app: FastifyInstance, operations: unknown[], headers: Record<string, string> = {}) =>
  call(app, 'POST', '/v1/batch', { operations }, headers)

t.test('a change of many records may match at most WRITE_MAX_RECORDS, whatever max-affected allows', async t => {
  const app = await build(t, { WRITE_MAX_RECORDS: String(LIMIT) })
  await zoos(app, LIMIT + 1)
  const before = await snapshot(app)
  for (const [method, body, prefer] of [
    ['PATCH', { country: 'DE' }, ''], ['DELETE', undefined, ''], ['PATCH', { country: 'DE' }, 'max-affected=100'],
    ['DELETE', undefined, 'tx=rollback, return=representation']
  ] as const) {
    const res = await call(app, method, '/v1/zoos?id_gte=1', body, { prefer })
    t.equal(res.statusCode, 422, `${method} ${prefer}`)
    t.equal(res.json().error, `More than ${LIMIT} zoos match, and one request may change at most ${LIMIT} records: ` +
      'narrow the filters; nothing was changed')
  }
  const fewer = await call(app, 'PATCH', '/v1/zoos?id_gte=1', { country: 'DE' }, { prefer: 'max-affected=3' })
  t.match(fewer.json().error, new RegExp(`^More than ${LIMIT} zoos match, more than the 3 that Prefer: max-affected allows`))
  t.same(await snapshot(app), before, 'nothing was changed')
  const queued = await call(app, 'DELETE', '/v1/zoos?id_gte=1', undefined, { prefer: 'respond-async' })
  t.match(await finished(app, accepted(t, queued)), { status: 'failed', result: { status: 422 } }, 'as a job too')
  const within = await call(app, 'PATCH', `/v1/zoos?id_lte=${LIMIT}`, { country: 'DE' })
  t.same([within.statusCode, within.json()], [200, { affected: LIMIT }], 'as many as the limit')
})

t.test('a POST of an array may create at most WRITE_MAX_RECORDS', async t => {
  const app = await build(t, { WRITE_MAX_RECORDS: String(LIMIT) })
  const res = await call(app, 'POST', '/v1/zoos', Array.from({ length: LIMIT + 1 }, () => ({ name: 'Zoo', city: 'Bonn' })))
  t.equal(res.statusCode, 422)
  t.equal(res.json().error, `One request may write at most ${LIMIT} records; this one would write ${LIMIT + 1}; nothing was written`)
  t.same((await call(app, 'GET', '/v1/zoos')).json(), [])
  t.equal((await call(app, 'POST', '/v1/zoos', Array.from({ length: LIMIT }, () => ({ name: 'Zoo', city: 'Bonn' })))).statusCode, 201)
})

t.test('a batch has one budget of WRITE_MAX_RECORDS for all its operations, spent as each runs', async t => {
  const app = await build(t, { WRITE_MAX_RECORDS: String(LIMIT) })
  await zoos(app, 3)
  const before = await snapshot(app)
  const refusals: [unknown[], number, string][] = [
    // Two changes of three records each: the second may match only the two left.
    [[{ method: 'PATCH', path: '/v1/zoos?id_gte=1', body: { country: 'DE' } }, { method: 'DELETE', path: '/v1/zoos?id_lte=3' }], 1,
      'More than 2 zoos match, and this batch may change only 2 more records (one request may write at most 5): narrow the filters; ' +
      'nothing was changed'],
    // Creates count as they would alone: three and three is more than five.
    [[{ method: 'POST', path: '/v1/zoos', body: [{ name: 'A', city: 'B' }, { name: 'A', city: 'B' }, { name: 'A', city: 'B' }] },
      { method: 'POST', path: '/v1/zoos', body: [{ name: 'A', city: 'B' }, { name: 'A', city: 'B' }, { name: 'A', city: 'B' }] }], 1,
    'One request may write at most 5 records; this batch would write 6; nothing was written'],
    // A write of one record counts one.
    [[...Array.from({ length: 5 }, () => ({ method: 'PATCH', path: '/v1/zoos/1', body: { country: 'DE' } })),
      { method: 'POST', path: '/v1/zoos', body: { name: 'A', city: 'B' } }], 5,
    'One request may write at most 5 records; this batch would write 6; nothing was written']
  ]
  for (const [operations, index, message] of refusals) {
    const res = await batch(app, operations)
    t.equal(res.statusCode, 422, JSON.stringify(operations))
    t.same(res.json(), { error: `Operation ${index}: ${message}`, operation: index })
  }
  t.same(await snapshot(app), before, 'nothing was written')
  const within = await batch(app, [
    { method: 'PATCH', path: '/v1/zoos?id_gte=1', body: { country: 'DE' } },
    { method: 'POST', path: '/v1/zoos', body: [{ name: 'A', city: 'B' }, { name: 'A', city: 'B' }] }
  ])
  t.equal(within.statusCode, 200, 'five records in all')
})
