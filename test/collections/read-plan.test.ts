import t from 'tap'
import { embedsOf } from '../../collections/embedding.ts'
import { planList, planRecord, runList, runRecord, type ReadRequest } from '../../collections/read-plan.ts'
import type { Mount } from '../../collections/request.ts'
import { HttpError } from '../../http/errors.ts'
import { Animals } from '../../schemas/animal.ts'
import { Zoos } from '../../schemas/zoo.ts'
import { BoundStores } from '../../store/bound.ts'
import { build, create, storageOf } from '../helper.ts'

// The read planner takes a request value, never Fastify's request: these tests build it as it is,
// and run its plans on the records view of a token, over the engine of the pass.

const zoos: Mount = { segments: ['v1', 'zoos'], resource: Zoos, nesting: undefined }
const zooAnimals: Mount = { segments: ['v1', 'zoos', ':zoo_id', 'animals'], resource: Animals, nesting: { parent: Zoos, field: 'zoo_id' } }
const origin = 'https://api.example'

/** What `fn` throws. */
function refusal (fn: () => unknown): unknown {
  try {
    fn()
  } catch (err) {
    return err
  }
  throw new Error('nothing was thrown')
}

function asked (mount: Mount, url: string, rest: Partial<ReadRequest> = {}): ReadRequest {
  return {
    mount,
    root: `${origin}/v1`,
    parentId: undefined,
    id: undefined,
    query: Object.fromEntries(new URL(url, origin).searchParams),
    body: undefined,
    ifMatch: undefined,
    prefer: undefined,
    origin,
    url,
    ifNoneMatch: undefined,
    authorize: () => {},
    ...rest
  }
}

t.test('a list is planned from the request value, then run: its page, links, total, and a 304 from the stamps alone', async t => {
  const app = await build(t)
  const berlin = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin', country: 'DE' })
  await create(app, 'zoos', { name: 'Zoo de Vincennes', city: 'Paris', country: 'FR' })
  await create(app, 'zoos', { name: 'Zoo Leipzig', city: 'Leipzig', country: 'DE' })
  await create(app, 'animals', { name: 'Knut', species: 'bear', animal_type_id: 1, zoo_id: berlin.id })
  const resources = app.collections.resources
  const records = new BoundStores(storageOf(app).collections, resources, { scopes: new Set(), claims: {} })

  const url = '/v1/zoos?country=DE&sortby=name&limit=1'
  const plan = planList(asked(zoos, url, { query: { country: 'DE', sortby: 'name', limit: 1 } }), [], records)
  t.same(plan.listing.query.filters, [{ field: 'country', op: 'eq', value: 'DE' }])
  t.same(plan.reads, ['zoos'])
  t.equal(plan.counting, 'exact')
  t.notOk(plan.seen, 'a token no rule binds: the tag is made of the stamps')
  const answer = await runList(plan, records)
  if (answer.notModified) throw new Error('no If-None-Match was sent')
  t.same(answer.items.map(zoo => zoo.name), ['Tierpark'])
  t.equal(answer.total, 2)
  const first = '<https://api.example/v1/zoos?country=DE&sortby=name&limit=1&offset=0>; rel="first"'
  t.ok(answer.link.startsWith(`${first}, <`) && /cursor=[^>]*>; rel="next"/.test(answer.link), 'first and next links')
  const again = planList(asked(zoos, url, { query: plan.request.query, ifNoneMatch: answer.etag }), [], records)
  t.same(await runList(again, records), { notModified: true, etag: answer.etag }, 'the same stamps: 304')

  const nested = asked(zooAnimals, `/v1/zoos/${berlin.id}/animals?embed=zoo`, { parentId: berlin.id, query: { embed: 'zoo' } })
  const needed: string[] = []
  nested.authorize = scopes => { needed.push(...scopes) }
  const embedding = planList(nested, embedsOf(Animals, resources), records)
  t.same(needed, ['zoos:read'], 'an embed asks the read scope of its collection')
  t.same(embedding.within, [{ field: 'zoo_id', op: 'eq', value: berlin.id }])
  t.same(embedding.reads, ['animals', 'zoos'])
  const embedded = await runList(embedding, records)
  t.match(embedded, { notModified: false, items: [{ name: 'Knut', zoo: { name: 'Tierpark' } }], total: 1 })

  nested.authorize = scopes => { throw new HttpError(403, `lacks ${scopes.join(' ')}`) }
  const refused = refusal(() => planList(nested, embedsOf(Animals, resources), records))
  t.match(refused, { statusCode: 403 }, 'refused while planned, before any read')
  const mixed = asked(zoos, '/v1/zoos?limit=1&page=2', { query: { limit: 1, page: 2 } })
  t.match(refusal(() => planList(mixed, [], records)), { statusCode: 400, message: /limit\/offset or page\/per_page/ })
  const missing = planList(asked(zooAnimals, '/v1/zoos/999/animals', { parentId: 999 }), [], records)
  t.match(await runList(missing, records).catch(err => err), { kind: 'not_found', message: 'no zoo with id 999' },
    'the parent is seen when the plan runs')
})

t.test('one record: the fields it answers are planned, its tag and 304 run', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin', country: 'DE' })
  const records = new BoundStores(storageOf(app).collections, app.collections.resources, { scopes: new Set(), claims: {} })
  const request = asked(zoos, `/v1/zoos/${zoo.id}?fields=city`, { id: zoo.id, query: { fields: 'city' } })
  const plan = planRecord(request, records)
  t.same(plan.fields, ['id', 'city'])
  const { etag, record } = await runRecord(plan, records)
  t.same(record, { id: zoo.id, city: 'Berlin' })
  t.match(etag, /^"\d+-id-city"$/)
  t.same(await runRecord(planRecord({ ...request, ifNoneMatch: etag }, records), records), { etag, record: undefined })
  t.match(await runRecord(planRecord({ ...request, id: 999 }, records), records).catch(err => err), { kind: 'not_found' })
})
