import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { Animals } from '../../../schemas/animal.ts'
import { Zoos } from '../../../schemas/zoo.ts'
import { bearerWith, build, call, countCalls, create, storageOf } from '../../helper.ts'

/*
 * Sparse fieldsets (`fields=`) and embedding (`embed=`), through inject() on the engine of the
 * pass; every answer is also checked against the OpenAPI document (test/contract.ts).
 */

const REALM = 'Bearer realm="zoo-api"'

async function zooWithAnimals (app: FastifyInstance, animals: number, name = 'Berlin Zoo'): Promise<number> {
  const zoo = await create(app, 'zoos', { name, city: 'Berlin', country: 'DE' })
  if (animals > 0) {
    const body = Array.from({ length: animals }, (_, i) => ({ name: `a${i}`, species: 'Lion', animal_type_id: 1 + (i % 3) }))
    const res = await call(app, 'POST', `/v1/zoos/${zoo.id}/animals`, body)
    if (res.statusCode !== 201) throw new Error(res.body)
  }
  return zoo.id
}

t.test('fields answers id and the fields named, on lists, nested lists and one record', async t => {
  const app = await build(t)
  const zooId = await zooWithAnimals(app, 3)
  await create(app, 'zoos', { name: 'Vienna Zoo', city: 'Vienna', country: 'AT', opened_on: '1752-07-31' })

  const list = await call(app, 'GET', '/v1/zoos?fields=city,name')
  t.equal(list.statusCode, 200)
  t.same(list.json(), [{ id: 1, name: 'Berlin Zoo', city: 'Berlin' }, { id: 2, name: 'Vienna Zoo', city: 'Vienna' }])
  t.same(Object.keys(list.json()[0]), ['id', 'name', 'city'], 'in the order of the resource, whatever the order asked')

  const idOnly = await call(app, 'GET', '/v1/zoos?fields=id')
  t.same(idOnly.json(), [{ id: 1 }, { id: 2 }])

  // Filters and sortby may name fields that are not answered.
  const filtered = await call(app, 'GET', '/v1/zoos?fields=name&country=AT&sortby=opened_on&order=desc')
  t.same(filtered.json(), [{ id: 2, name: 'Vienna Zoo' }])
  t.equal(filtered.headers['x-total-count'], '1')

  const nested = await call(app, 'GET', `/v1/zoos/${zooId}/animals?fields=name&sortby=name&order=desc`)
  t.same(nested.json(), [{ id: 3, name: 'a2' }, { id: 2, name: 'a1' }, { id: 1, name: 'a0' }])
  // A cursor walks a sparse list as any other: the sort key need not be answered.
  const first = await call(app, 'GET', `/v1/zoos/${zooId}/animals?fields=id&sortby=name&limit=2`)
  t.same(first.json(), [{ id: 1 }, { id: 2 }])
  const next = new URL(/<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1] ?? 'http://localhost/none')
  t.same((await call(app, 'GET', `${next.pathname}${next.search}`)).json(), [{ id: 3 }])

  const full = await call(app, 'GET', '/v1/zoos/2')
  const sparse = await call(app, 'GET', '/v1/zoos/2?fields=country,opened_on')
  t.equal(sparse.statusCode, 200)
  t.same(sparse.json(), { id: 2, country: 'AT', opened_on: '1752-07-31' })
  t.equal(full.headers.etag, '"1"')
  t.equal(sparse.headers.etag, '"1-id-country-opened_on"', 'a sparse answer has its own ETag')
  const again = await call(app, 'GET', '/v1/zoos/2?fields=opened_on,country', undefined, { 'if-none-match': String(sparse.headers.etag) })
  t.equal(again.statusCode, 304, 'the same fields in another order are the same answer')
  t.equal(again.body, '')
  const other = await call(app, 'GET', '/v1/zoos/2?fields=country', undefined, { 'if-none-match': String(sparse.headers.etag) })
  t.equal(other.statusCode, 200, 'other fields are another answer')
  t.equal((await call(app, 'GET', '/v1/zoos/2', undefined, { 'if-none-match': String(sparse.headers.etag) })).statusCode, 200)
  // If-Match names the record's own tag: a sparse one is another representation's.
  const write = await call(app, 'PATCH', '/v1/zoos/2', { city: 'Wien' }, { 'if-match': String(sparse.headers.etag) })
  t.equal(write.statusCode, 412)
})

t.test('an unknown, repeated or empty field is 400 with {error}', async t => {
  const app = await build(t)
  await create(app, 'zoos', { name: 'Z', city: 'C' })
  for (const url of ['/v1/zoos?fields=name,nope', '/v1/zoos?fields=name,name', '/v1/zoos?fields=', '/v1/zoos?fields=name,',
    '/v1/zoos/1?fields=species', '/v1/zoos/1?fields=city,city', '/v1/zoos/1/animals?fields=zoo', '/v1/zoos?fields=name&fields=city']) {
    const res = await call(app, 'GET', url)
    t.equal(res.statusCode, 400, url)
    t.type(res.json().error, 'string', url)
  }
  t.match((await call(app, 'GET', '/v1/zoos?fields=name,name')).json(), { error: 'Invalid query: fields names name twice' })
  t.match((await call(app, 'GET', '/v1/zoos?fields=nope')).json().error, /fields.*name, city/)
})

t.test('embed=zoo gives each animal and employee its zoo, or null, in one read per page', async t => {
  const app = await build(t)
  const berlin = await zooWithAnimals(app, 2)
  const vienna = await zooWithAnimals(app, 1, 'Vienna Zoo')
  await create(app, 'animals', { name: 'stray', species: 'Cat', animal_type_id: 1, zoo_id: null })
  await create(app, 'employees', { name: 'Ann', role: 'keeper', email: 'ann@zoo.example', zoo_id: vienna })
  const zoos = (await call(app, 'GET', '/v1/zoos')).json()
  const zooOf = (id: number) => zoos.find((z: { id: number }) => z.id === id)

  const getMany = countCalls(t, storageOf(app).collections.collection(Zoos), 'getMany')
  const animals = await call(app, 'GET', '/v1/animals?embed=zoo')
  t.equal(animals.statusCode, 200)
  t.same(animals.json().map((a: { name: string, zoo: unknown }) => [a.name, a.zoo]),
    [['a0', zooOf(berlin)], ['a1', zooOf(berlin)], ['a0', zooOf(vienna)], ['stray', null]])
  t.equal(getMany.calls, 1, 'the zoos of a page are read at once')
  t.match(animals.json()[0], { id: 1, name: 'a0', species: 'Lion', animal_type_id: 1, zoo_id: berlin, born_on: null })

  const employees = await call(app, 'GET', '/v1/employees?embed=zoo&fields=name')
  t.same(employees.json(), [{ id: 1, name: 'Ann', zoo: zooOf(vienna) }], 'fields applies to the top-level records only')

  const nested = await call(app, 'GET', `/v1/zoos/${berlin}/animals?embed=zoo&fields=name&limit=1`)
  t.same(nested.json(), [{ id: 1, name: 'a0', zoo: zooOf(berlin) }])
  t.equal(nested.headers['x-total-count'], '2')
  t.match(nested.headers.link, /embed=zoo/, 'links keep embed')
})

t.test('embed=animals,employees gives each zoo its first 100 of each in id order, and their totals', async t => {
  const app = await build(t)
  const big = await zooWithAnimals(app, 130)
  const small = await zooWithAnimals(app, 2, 'Small Zoo')
  const empty = await zooWithAnimals(app, 0, 'Empty Zoo')
  await call(app, 'POST', `/v1/zoos/${small}/employees`, [{ name: 'Bo', role: 'vet', email: 'bo@zoo.example' }])
  const children = countCalls(t, storageOf(app).collections.collection(Animals), 'children')

  const res = await call(app, 'GET', '/v1/zoos?embed=animals,employees&sortby=name')
  t.equal(res.statusCode, 200)
  t.equal(children.calls, 1, 'one read of the animals for the page')
  const byId = new Map(res.json().map((z: { id: number }) => [z.id, z]))
  interface Embedding { animals: { id: number, zoo_id: number }[], animals_total: number, employees: unknown[], employees_total: number }
  const bigZoo = byId.get(big) as Embedding
  t.equal(bigZoo.animals.length, 100)
  t.same(bigZoo.animals.map(a => a.id), Array.from({ length: 100 }, (_, i) => i + 1), 'the first 100 in id order')
  t.ok(bigZoo.animals.every(a => a.zoo_id === big))
  t.equal(bigZoo.animals_total, 130)
  t.same([bigZoo.employees, bigZoo.employees_total], [[], 0])
  t.match(byId.get(small), { animals_total: 2, employees_total: 1, employees: [{ name: 'Bo', zoo_id: small }] })
  t.match(byId.get(empty), { animals: [], animals_total: 0, employees: [], employees_total: 0 })
  t.same(res.json().map((z: { name: string }) => z.name), ['Berlin Zoo', 'Empty Zoo', 'Small Zoo'], 'the zoos as they were sorted')

  // The rest through the nested route, as the docs say.
  const rest = await call(app, 'GET', `/v1/zoos/${big}/animals?id_gt=100&fields=id`)
  t.equal(rest.headers['x-total-count'], '30')

  const sparse = await call(app, 'GET', `/v1/zoos?embed=employees&fields=name&id=${small}`)
  const { employees } = byId.get(small) as { employees: unknown[] }
  t.same(sparse.json(), [{ id: small, name: 'Small Zoo', employees, employees_total: 1 }])
})

t.test('a deeper, unknown or repeated embed is 400; an embed needs its collection\'s read scope', async t => {
  const app = await build(t)
  const zooId = await zooWithAnimals(app, 1)
  for (const url of ['/v1/animals?embed=zoo.animals', '/v1/animals?embed=animals', '/v1/zoos?embed=zoo', '/v1/zoos?embed=animals,animals',
    '/v1/animals?embed=', '/v1/zoos/1?embed=animals', `/v1/zoos/${zooId}/animals?embed=employees`, '/v1/animals?embed=zoo,']) {
    const res = await call(app, 'GET', url)
    t.equal(res.statusCode, 400, url)
    t.type(res.json().error, 'string', url)
  }
  t.match((await call(app, 'GET', '/v1/zoos?embed=animals,animals')).json(), { error: 'Invalid query: embed names animals twice' })

  const animalsOnly = await bearerWith(app, 'animals:read')
  const refused = await call(app, 'GET', '/v1/animals?embed=zoo', undefined, { authorization: animalsOnly })
  t.equal(refused.statusCode, 403)
  t.equal(refused.headers['www-authenticate'], `${REALM}, error="insufficient_scope", scope="zoos:read"`)
  t.match(refused.json(), { error: 'The access token lacks the scope zoos:read', message: 'Requires the scope zoos:read' })
  t.equal((await call(app, 'GET', '/v1/animals', undefined, { authorization: animalsOnly })).statusCode, 200)

  const zoosOnly = await bearerWith(app, 'zoos:read employees:read')
  const children = await call(app, 'GET', '/v1/zoos?embed=employees,animals', undefined, { authorization: zoosOnly })
  t.equal(children.statusCode, 403)
  t.equal(children.headers['www-authenticate'], `${REALM}, error="insufficient_scope", scope="animals:read"`)
  t.equal((await call(app, 'GET', '/v1/zoos?embed=employees', undefined, { authorization: zoosOnly })).statusCode, 200)
})
