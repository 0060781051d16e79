import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { clientToken, serve } from '../../access/helper.ts'
import { statementTimes } from '../../../store/observed.ts'
import { build, call, create, ENGINE, query } from '../../helper.ts'
import { serveMeals } from './fixture/meals.ts'

/*
 * Aggregates (docs/aggregates.md) on the shipped collections and on meals (fixture/meals.ts), which
 * has a number field: every parameter, every refusal, the groups' pages and totals, revalidation,
 * nested aggregates, and a token bound by access rules. Run on both engines.
 */

interface Meal { food: string, weight: number | null, zoo: 'berlin' | 'paris' | null, eaten_on: string | null }

const MEALS: Meal[] = [
  { food: 'fish', weight: 2.5, zoo: 'berlin', eaten_on: '2024-03-01' },
  { food: 'fish', weight: 1.5, zoo: 'berlin', eaten_on: '2024-03-20' },
  { food: 'fish', weight: 4, zoo: 'paris', eaten_on: '2024-04-02' },
  { food: 'hay', weight: 10, zoo: 'berlin', eaten_on: '2025-01-05' },
  { food: 'hay', weight: null, zoo: 'paris', eaten_on: null },
  { food: 'meat', weight: 7, zoo: null, eaten_on: '2023-12-31' }
]

async function fed (t: Test) {
  const app = await serveMeals(t)
  const berlin = await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin', country: 'DE', opened_on: '1844-08-01' })
  const paris = await create(app, 'zoos', { name: 'Paris Zoo', city: 'Paris', country: 'FR' })
  const ids = { berlin: berlin.id, paris: paris.id }
  for (const { zoo, ...meal } of MEALS) await create(app, 'meals', { ...meal, zoo_id: zoo === null ? null : ids[zoo] })
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await call(app, 'GET', url, undefined, headers)
    return { status: res.statusCode, body: res.body === '' ? undefined : res.json(), headers: res.headers }
  }
  return { app, ids, get }
}

t.test('groups, counts and measures: sum of a number, avg, min and max in the field\'s kind, a null group', async t => {
  const { ids, get } = await fed(t)
  const all = await get('/v1/meals/aggregate')
  t.equal(all.status, 200)
  t.same(all.body, [{ count: 6 }], 'without group_by, one group of every record')
  t.equal(all.headers['x-total-count'], '1')

  const byFood = await get('/v1/meals/aggregate?group_by=food&count&sum=weight,id&avg=weight&min=eaten_on,weight&max=food')
  t.equal(byFood.status, 200)
  t.same(byFood.body, [
    {
      food: 'fish',
      count: 3,
      sum: { weight: 8, id: 6 },
      avg: { weight: 8 / 3 },
      min: { eaten_on: '2024-03-01', weight: 1.5 },
      max: { food: 'fish' }
    },
    {
      food: 'hay',
      count: 2,
      sum: { weight: 10, id: 9 },
      avg: { weight: 10 },
      min: { eaten_on: '2025-01-05', weight: 10 },
      max: { food: 'hay' }
    },
    {
      food: 'meat',
      count: 1,
      sum: { weight: 7, id: 6 },
      avg: { weight: 7 },
      min: { eaten_on: '2023-12-31', weight: 7 },
      max: { food: 'meat' }
    }
  ])
  t.equal(byFood.headers['x-total-count'], '3')
  t.ok(Number.isInteger(byFood.body[0].sum.id), 'a sum of integers is an integer')

  const byZoo = await get('/v1/meals/aggregate?group_by=zoo_id&avg=weight')
  t.same(byZoo.body, [
    { zoo_id: null, count: 1, avg: { weight: 7 } },
    { zoo_id: ids.berlin, count: 3, avg: { weight: 14 / 3 } },
    { zoo_id: ids.paris, count: 2, avg: { weight: 4 } }
  ], 'a group without a value holds null, first in ascending order')

  const noValues = await get('/v1/meals/aggregate?group_by=food&avg=weight&min=weight&sum=weight&food=hay&zoo_id=' + ids.paris)
  t.same(noValues.body, [{ food: 'hay', count: 1, sum: { weight: null }, avg: { weight: null }, min: { weight: null } }],
    'a group without values has null measures')
})

t.test('buckets of dates and timestamps', async t => {
  const { get } = await fed(t)
  const years = await get('/v1/meals/aggregate?group_by=eaten_on:year')
  t.same(years.body, [
    { eaten_on: null, count: 1 }, { eaten_on: '2023', count: 1 }, { eaten_on: '2024', count: 3 }, { eaten_on: '2025', count: 1 }
  ])
  const months = await get('/v1/meals/aggregate?group_by=food,eaten_on:month&food=fish')
  t.same(months.body, [{ food: 'fish', eaten_on: '2024-03', count: 2 }, { food: 'fish', eaten_on: '2024-04', count: 1 }])
  const days = await get('/v1/meals/aggregate?group_by=eaten_on:day&eaten_on_gte=2024-03-20&eaten_on_lt=2025-01-01')
  t.same(days.body, [{ eaten_on: '2024-03-20', count: 1 }, { eaten_on: '2024-04-02', count: 1 }])
  const created = await get('/v1/meals/aggregate?group_by=created_at:year')
  t.same(created.body, [{ created_at: new Date().toISOString().slice(0, 4), count: 6 }], 'a timestamp takes a bucket too')
  const sorted = await get('/v1/meals/aggregate?group_by=eaten_on:month&sortby=eaten_on&order=desc&eaten_on_ne=null')
  t.same(sorted.body.map((g: { eaten_on: string }) => g.eaten_on), ['2025-01', '2024-04', '2024-03', '2023-12'],
    'sorted by a bucketed field: by its bucket')
})

t.test('the list\'s filters choose the records first, q included', async t => {
  const { get } = await fed(t)
  t.same((await get('/v1/meals/aggregate?food_in=fish,meat&weight_gt=2')).body, [{ count: 3 }])
  t.same((await get('/v1/meals/aggregate?group_by=food&q=fis')).body, [{ food: 'fish', count: 3 }])
  t.same((await get('/v1/meals/aggregate?group_by=food&weight=null')).body, [{ food: 'hay', count: 1 }])
})

t.test('having filters the groups by count or by a measure asked, with the list\'s operators', async t => {
  const { get } = await fed(t)
  const foods = async (query: string) => (await get(`/v1/meals/aggregate?group_by=food&${query}`)).body.map((g: { food: string }) => g.food)
  t.same(await foods('having.count_gt=1'), ['fish', 'hay'])
  t.same(await foods('having.count=1'), ['meat'])
  t.same(await foods('having.count_in=1,3'), ['fish', 'meat'])
  t.same(await foods('having.count_ne=3'), ['hay', 'meat'])
  t.same(await foods('avg=weight&having.avg.weight_gte=7'), ['hay', 'meat'])
  t.same(await foods('sum=weight&having.sum.weight_lt=9'), ['fish', 'meat'])
  t.same(await foods('min=eaten_on&having.min.eaten_on_lt=2024-01-01'), ['meat'])
  t.same(await foods('max=food&having.max.food_lte=hay&having.count_gte=2'), ['fish', 'hay'], 'conditions together')
  const totals = await get('/v1/meals/aggregate?group_by=food&having.count_gt=1')
  t.equal(totals.headers['x-total-count'], '2', 'X-Total-Count counts the groups that pass')
  t.same((await get('/v1/meals/aggregate?having.count_gt=100')).body, [], 'one group of every record, filtered out')
})

t.test('sorted by count, by a measure or by a key, each way; paged, with totals and links', async t => {
  const { get } = await fed(t)
  const foods = (body: { food: string }[]) => body.map(g => g.food)
  t.same(foods((await get('/v1/meals/aggregate?group_by=food&sortby=count&order=desc')).body), ['fish', 'hay', 'meat'])
  t.same(foods((await get('/v1/meals/aggregate?group_by=food&avg=weight&sortby=avg.weight')).body), ['fish', 'meat', 'hay'])
  t.same(foods((await get('/v1/meals/aggregate?group_by=food&sortby=food&order=desc')).body), ['meat', 'hay', 'fish'])
  const ties = await get('/v1/meals/aggregate?group_by=zoo_id,food&sortby=count,zoo_id&order=desc,asc')
  t.same(ties.body.map((g: { food: string, count: number }) => `${g.count} ${g.food}`), ['2 fish', '1 meat', '1 hay', '1 fish', '1 hay'],
    'ties end in the group keys')

  const first = await get('/v1/meals/aggregate?group_by=food&limit=1')
  t.same(foods(first.body), ['fish'])
  t.equal(first.headers['x-total-count'], '3')
  t.match(first.headers.link, /<http:\/\/[^>]+\/v1\/meals\/aggregate\?group_by=food&limit=1&offset=1>; rel="next"/)
  t.match(first.headers.link, /offset=2>; rel="last"/)
  t.notMatch(first.headers.link, /rel="prev"/)
  const second = await get('/v1/meals/aggregate?group_by=food&limit=1&offset=1')
  t.same(foods(second.body), ['hay'])
  t.match(second.headers.link, /offset=0>; rel="prev"/)
  const last = await get('/v1/meals/aggregate?group_by=food&limit=1&offset=2')
  t.notMatch(last.headers.link, /rel="next"/)
  t.same((await get('/v1/meals/aggregate?group_by=food&offset=5')).body, [], 'past the end: []')

  const uncounted = await get('/v1/meals/aggregate?group_by=food', { prefer: 'count=none' })
  t.equal(uncounted.headers['x-total-count'], undefined)
  t.equal(uncounted.headers['preference-applied'], 'count=none')
  t.notMatch(uncounted.headers.link, /rel="last"/)
})

t.test('what an aggregate cannot be is 400, naming it', async t => {
  const { get } = await fed(t)
  const refused = async (query: string, pattern: RegExp) => {
    const res = await get(`/v1/meals/aggregate?${query}`)
    t.equal(res.status, 400, query)
    t.match(res.body.error, pattern, query)
  }
  await refused('group_by=colour', /group_by/)
  await refused('sum=food', /sum=food: food is a string field/)
  await refused('avg=eaten_on', /avg=eaten_on/)
  await refused('min=nothing', /min/)
  await refused('group_by=food:year', /food is a string field; only a date or timestamp takes a bucket/)
  await refused('group_by=food,food', /group_by names food twice/)
  await refused('avg=weight,weight', /avg names weight twice/)
  await refused('having.avg.weight_gt=1', /having.avg.weight_gt is on avg=weight, which is not asked for/)
  await refused('having.sum.food=1', /unknown query parameter having.sum.food/)
  await refused('having.count.weight=1', /unknown query parameter having.count.weight/)
  await refused('having.median.weight=1', /unknown query parameter having.median.weight/)
  await refused('sum=weight&having.sum.weight_like=1', /unknown query parameter having.sum.weight_like/)
  await refused('having.count_in=1,x', /having.count_in: "1,x" is not a comma list of values of a count/)
  await refused('having.count_gt=1.5', /having.count_gt: "1.5" is not a value of a count/)
  await refused('min=eaten_on&having.min.eaten_on_gt=soon', /having.min.eaten_on_gt/)
  await refused('having.count_gt=1&having.count_gt=2', /having/)
  await refused('having.count_gt=many', /having.count_gt/)
  await refused('group_by=food&sortby=weight', /sortby: weight is not a group_by field/)
  await refused('group_by=food&sortby=avg.weight', /sortby: avg.weight is not asked for/)
  await refused('group_by=food&sortby=food,count&order=asc,desc,asc', /order takes one direction/)
  await refused('colour=red', /unknown query parameter colour/)
  await refused('count=yes', /count/)
  await refused('limit=1001', /limit/)
  await refused('weight_gt=heavy', /weight_gt/)
})

t.test('revalidation: a weak ETag, 304 while nothing it counts changes', async t => {
  const { app, get } = await fed(t)
  const first = await get('/v1/meals/aggregate?group_by=food')
  const etag = first.headers.etag as string
  t.match(etag, /^W\//)
  t.equal((await get('/v1/meals/aggregate?group_by=food', { 'if-none-match': etag })).status, 304)
  t.not((await get('/v1/meals/aggregate?group_by=zoo_id')).headers.etag, etag, 'another query, another tag')
  await create(app, 'meals', { food: 'fish', weight: 1 })
  const after = await get('/v1/meals/aggregate?group_by=food', { 'if-none-match': etag })
  t.equal(after.status, 200, 'a write to the collection changes it')
  t.equal(after.body[0].count, 4)
})

t.test('nested: the records of one parent; a parent that is not there is 404, as for its list', async t => {
  const { ids, get } = await fed(t)
  t.same((await get(`/v1/zoos/${ids.berlin}/meals/aggregate?group_by=food&sum=weight`)).body,
    [{ food: 'fish', count: 2, sum: { weight: 4 } }, { food: 'hay', count: 1, sum: { weight: 10 } }])
  t.same((await get(`/v1/zoos/${ids.paris}/animals/aggregate`)).body, [{ count: 0 }])
  t.equal((await get('/v1/zoos/999/meals/aggregate')).status, 404)
})

t.test('every collection has its aggregate; HEAD answers its headers, other methods 405', async t => {
  const { app, ids } = await fed(t)
  const counts = { zoos: 2, animals: 0, employees: 0, meals: 6, [`zoos/${ids.berlin}/animals`]: 0, [`zoos/${ids.berlin}/employees`]: 0 }
  for (const [collection, count] of Object.entries(counts)) {
    const res = await call(app, 'GET', `/v1/${collection}/aggregate`)
    t.equal(res.statusCode, 200, collection)
    t.same(res.json(), [{ count }], collection)
  }
  const zoos = await call(app, 'GET', '/v1/zoos/aggregate?group_by=country&min=opened_on')
  t.same(zoos.json(),
    [{ country: 'DE', count: 1, min: { opened_on: '1844-08-01' } }, { country: 'FR', count: 1, min: { opened_on: null } }])
  const head = await call(app, 'HEAD', '/v1/zoos/aggregate?group_by=country')
  t.equal(head.statusCode, 200)
  t.equal(head.body, '')
  t.equal(head.headers['x-total-count'], '2')
  const post = await call(app, 'POST', '/v1/zoos/aggregate', {})
  t.equal(post.statusCode, 405)
  t.equal(post.headers.allow, 'GET, HEAD')
  const unscoped = await call(app, 'GET', '/v1/meals/aggregate', undefined,
    { authorization: await clientTokenOf(app, 'zoos:read') })
  t.equal(unscoped.statusCode, 403, 'the scope is the collection\'s read scope')
})

/** A bearer token of a client holding `scope` only. */
async function clientTokenOf (app: FastifyInstance, scope: string): Promise<string> {
  return clientToken(app, {}, scope)
}

t.test('a token bound by access rules counts only the records it sees, and may not name a hidden field', async t => {
  const app = await serve(t)
  const berlin = await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin' })
  const paris = await create(app, 'zoos', { name: 'Paris Zoo', city: 'Paris' })
  for (const [name, zoo] of [['Ada', berlin], ['Bo', berlin], ['Cy', paris]] as const) {
    await create(app, 'keepers', { name, zoo_id: zoo.id, phone: `+49 ${name}` })
  }
  const bound = await clientToken(app, { zoo_id: berlin.id })
  const get = (url: string) => call(app, 'GET', url, undefined, { authorization: bound })
  t.same((await get('/v1/keepers/aggregate?group_by=zoo_id')).json(), [{ zoo_id: berlin.id, count: 2 }])
  t.same((await get('/v1/keepers/aggregate?max=name')).json(), [{ count: 2, max: { name: 'Bo' } }], 'Cy is not counted')
  t.same((await get(`/v1/zoos/${paris.id}/keepers/aggregate`)).json(), [{ count: 0 }])
  for (const query of ['group_by=phone', 'min=phone', 'phone=x', 'phone_ne=x', 'group_by=name&sortby=name&max=phone']) {
    const res = await get(`/v1/keepers/aggregate?${query}`)
    t.equal(res.statusCode, 400, query)
    t.match(res.json().error, /phone/, query)
  }
  const unbound = await call(app, 'GET', '/v1/keepers/aggregate?group_by=zoo_id&max=phone')
  t.same(unbound.json().map((g: { count: number }) => g.count), [2, 1], 'the bootstrap client is bound by none')
  // A bound token's tag is made of what it is answered: a write it cannot see leaves it as it was.
  const etag = (await get('/v1/keepers/aggregate')).headers.etag as string
  await create(app, 'keepers', { name: 'Di', zoo_id: paris.id })
  const again = await call(app, 'GET', '/v1/keepers/aggregate', undefined, { authorization: bound, 'if-none-match': etag })
  t.equal(again.statusCode, 304)
})

/** `count` zoos written straight into the database, as another program would: more than an aggregate reads in a moment. */
async function manyZoos (app: FastifyInstance, count: number): Promise<void> {
  const now = new Date().toISOString()
  await query(app, 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) ' +
    "INSERT INTO zoos (name, city, created_at, updated_at) SELECT 'Zoo ' || i, 'City ' || (i % 997), ?, ? FROM n", [count, now, now])
}

t.test('an aggregate that runs longer than AGGREGATE_TIMEOUT is ended: 503 naming the setting, and the service answers on', async t => {
  const app = await build(t, { AGGREGATE_TIMEOUT: '0.001' })
  await manyZoos(app, 100_000)
  const res = await call(app, 'GET', '/v1/zoos/aggregate?group_by=name,city&max=created_at&sortby=count')
  t.equal(res.statusCode, 503)
  t.match(res.json().error, /AGGREGATE_TIMEOUT allows \(0\.001 s\)/)
  t.equal((await call(app, 'GET', '/v1/zoos?limit=1')).statusCode, 200)
  const again = await call(app, 'GET', '/v1/zoos/aggregate?group_by=city,name&min=created_at')
  t.equal(again.statusCode, 503, 'the next one meets the limit too')
})

t.test('AGGREGATE_TIMEOUT is seconds, decimals allowed; anything else stops start-up naming it', async t => {
  for (const bad of ['0', 'soon', '-1', '601', '1e3']) {
    await t.rejects(build(t, { AGGREGATE_TIMEOUT: bad }), /AGGREGATE_TIMEOUT must be a number of seconds from 0.001 to 600/, bad)
  }
})

const SQLITE_ONLY = { skip: ENGINE !== 'sqlite' && 'SQLite only' }

t.test('on SQLite, no statement of an aggregate runs on the connection that answers the requests', SQLITE_ONLY, async t => {
  const app = await build(t)
  await manyZoos(app, 1000)
  const seen: string[] = []
  const listener = (message: unknown): void => { seen.push((message as { text: string }).text) }
  statementTimes.subscribe(listener)
  t.teardown(() => { statementTimes.unsubscribe(listener) })
  const res = await call(app, 'GET', '/v1/zoos/aggregate?group_by=city&having.count_gt=1')
  t.equal(res.statusCode, 200)
  t.same(res.json().map((group: { city: string }) => group.city), ['City 1', 'City 2', 'City 3'])
  t.ok(seen.length > 0, 'the request\'s other statements are seen')
  t.same(seen.filter(text => /GROUP BY|count\(\*\)/.test(text)), [], 'the groups are read on a thread of their own')
})
