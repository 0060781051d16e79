import t from 'tap'
import { Zoos } from '../../../schemas/zoo.ts'
import { Sql } from '../../../store/sql.ts'
import { bearer, build, buildBeside, call, countCalls, create, ENGINE, storageOf } from '../../helper.ts'

/*
 * Revalidation of list pages (a weak ETag, 304 for If-None-Match) and count control
 * (Prefer: count=none), through inject() on the engine of the pass.
 */

t.test('a list answers a weak ETag; If-None-Match naming it is 304 without reading the page', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin' })
  await create(app, 'animals', { name: 'Leo', species: 'Lion', animal_type_id: 1, zoo_id: zoo.id })
  const first = await call(app, 'GET', '/v1/zoos?sortby=name')
  t.equal(first.statusCode, 200)
  const etag = String(first.headers.etag)
  t.match(etag, /^W\/"[A-Za-z0-9_-]+"$/)
  t.match(first.headers.vary, /\bPrefer\b/)

  const lists = countCalls(t, storageOf(app).collections.collection(Zoos), 'list')
  const again = await call(app, 'GET', '/v1/zoos?sortby=name', undefined, { 'if-none-match': etag })
  t.equal(again.statusCode, 304)
  t.equal(again.body, '')
  t.equal(again.headers.etag, etag)
  t.equal(lists.calls, 0, 'the 304 is decided without the page query')
  const head = await app.inject({
    method: 'HEAD', url: '/v1/zoos?sortby=name', headers: { authorization: await bearer(app), 'if-none-match': `"x", ${etag}` }
  })
  t.equal(head.statusCode, 304, 'HEAD too, and a tag among others')

  t.not((await call(app, 'GET', '/v1/zoos?sortby=city')).headers.etag, etag, 'another query, another tag')
  t.not((await call(app, 'GET', '/v1/zoos?sortby=name', undefined, { host: 'zoo.example.com' })).headers.etag, etag,
    'another host: other links')
  t.equal((await call(app, 'GET', '/v1/zoos?sortby=name', undefined, { 'if-none-match': '"abc"' })).statusCode, 200)

  // A write to another collection leaves the page as it was ...
  await create(app, 'animals', { name: 'Mia', species: 'Tiger', animal_type_id: 1 })
  t.equal((await call(app, 'GET', '/v1/zoos?sortby=name', undefined, { 'if-none-match': etag })).statusCode, 304)
  // ... unless the page embeds it.
  const embedding = await call(app, 'GET', '/v1/zoos?embed=animals')
  const embedTag = String(embedding.headers.etag)
  t.equal((await call(app, 'GET', '/v1/zoos?embed=animals', undefined, { 'if-none-match': embedTag })).statusCode, 304)
  await call(app, 'PATCH', '/v1/animals/1', { name: 'Leonie' })
  const changed = await call(app, 'GET', '/v1/zoos?embed=animals', undefined, { 'if-none-match': embedTag })
  t.equal(changed.statusCode, 200)
  t.equal(changed.json()[0].animals[0].name, 'Leonie')

  // A write to the collection: a new page, a new tag.
  t.equal((await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Berlin-Mitte' })).statusCode, 201)
  const fresh = await call(app, 'GET', '/v1/zoos?sortby=name', undefined, { 'if-none-match': etag })
  t.equal(fresh.statusCode, 200)
  t.equal(fresh.json()[0].city, 'Berlin-Mitte')
  t.not(fresh.headers.etag, etag)
  // A refused write commits nothing and changes no tag.
  const current = String(fresh.headers.etag)
  t.equal((await call(app, 'POST', '/v1/zoos', [{ name: 'A', city: 'B' }, { name: 'C', city: 'D', country: 'XX' }])).statusCode, 422)
  t.equal((await call(app, 'GET', '/v1/zoos?sortby=name', undefined, { 'if-none-match': current })).statusCode, 304)
})

t.test('a nested list revalidates, and answers 404 or 410 for its parent first', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Z', city: 'C' })
  const list = await call(app, 'GET', `/v1/zoos/${zoo.id}/animals`)
  const etag = String(list.headers.etag)
  t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}/animals`, undefined, { 'if-none-match': etag })).statusCode, 304)
  t.equal((await call(app, 'DELETE', `/v1/zoos/${zoo.id}`)).statusCode, 204)
  t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}/animals`, undefined, { 'if-none-match': etag })).statusCode, 410)
})

const ONE_INSTANCE = ENGINE === 'sqlite' && 'an instance of its own per SQLite file'
t.test('the tag holds across instances on one database', { skip: ONE_INSTANCE }, async t => {
  const one = await build(t)
  const two = await buildBeside(t, one)
  await create(one, 'zoos', { name: 'Z', city: 'C' })
  const etag = String((await call(one, 'GET', '/v1/zoos')).headers.etag)
  t.equal((await call(two, 'GET', '/v1/zoos', undefined, { 'if-none-match': etag })).statusCode, 304, 'the same page on the other')
  await create(two, 'zoos', { name: 'Y', city: 'C' })
  const after = await call(one, 'GET', '/v1/zoos', undefined, { 'if-none-match': etag })
  t.equal(after.statusCode, 200, 'a write on the other instance is seen')
  t.equal(after.json().length, 2)
})

t.test('Prefer: count=none answers without X-Total-Count and last, and says so', async t => {
  const app = await build(t)
  const zoos = Array.from({ length: 5 }, (_, i) => ({ name: `z${i}`, city: i % 2 === 0 ? 'Even' : 'Odd' }))
  const res = await call(app, 'POST', '/v1/zoos', zoos)
  t.equal(res.statusCode, 201)
  const none = await call(app, 'GET', '/v1/zoos?limit=2&offset=2&city=Even', undefined, { prefer: 'count=none' })
  t.equal(none.statusCode, 200)
  t.same(none.json().map((z: { name: string }) => z.name), ['z4'])
  t.equal(none.headers['x-total-count'], undefined)
  t.equal(none.headers['preference-applied'], 'count=none')
  const rels = [...String(none.headers.link).matchAll(/rel="(\w+)"/g)].map(m => m[1])
  t.same(rels, ['first', 'prev'], 'no last; no next on the last page')
  const walking = await call(app, 'GET', '/v1/zoos?limit=2', undefined, { prefer: 'count=none' })
  t.same([...String(walking.headers.link).matchAll(/rel="(\w+)"/g)].map(m => m[1]), ['first', 'next'])
  t.same((await call(app, 'GET', '/v1/zoos?offset=10', undefined, { prefer: 'count=none' })).json(), [], 'past the end')

  const exact = await call(app, 'GET', '/v1/zoos?limit=2', undefined, { prefer: 'respond-async, count=exact' })
  t.equal(exact.headers['x-total-count'], '5')
  t.equal(exact.headers['preference-applied'], 'count=exact')
  t.match(exact.headers.link, /rel="last"/)
  const plain = await call(app, 'GET', '/v1/zoos?limit=2')
  t.equal(plain.headers['preference-applied'], undefined, 'nothing asked, nothing said')
  t.equal(plain.headers['x-total-count'], '5', 'count=exact is the default')
  const unknown = await call(app, 'GET', '/v1/zoos?limit=2', undefined, { prefer: 'count=planned' })
  t.same([unknown.headers['x-total-count'], unknown.headers['preference-applied']], ['5', undefined], 'an unknown count is ignored')
  t.not(none.headers.etag, (await call(app, 'GET', '/v1/zoos?limit=2&offset=2&city=Even')).headers.etag, 'a counted page is another answer')
  const revalidated = await call(app, 'GET', '/v1/zoos?limit=2&offset=2&city=Even', undefined,
    { prefer: 'count=none', 'if-none-match': String(none.headers.etag) })
  t.equal(revalidated.statusCode, 304)
  t.equal(revalidated.headers['preference-applied'], 'count=none')
})

t.test('Prefer: count=none spares the count: none on PostgreSQL, one stopped early on SQLite', async t => {
  const app = await build(t)
  const zoos = Array.from({ length: 30 }, (_, i) => ({ name: `z${i}`, city: `c${i % 3}` }))
  t.equal((await call(app, 'POST', '/v1/zoos', zoos)).statusCode, 201)
  // Every statement the store runs, by its text, through a spy on the engine's own entry point.
  const texts: string[] = []
  const store = storageOf(app).collections as unknown as Record<string, unknown>
  const owner = (ENGINE === 'postgres' ? store.pool : store.port) as Record<string, (...args: unknown[]) => unknown>
  const method = ENGINE === 'postgres' ? 'query' : 'compiled'
  const original = (owner[method] as (...args: unknown[]) => unknown).bind(owner)
  owner[method] = (...args: unknown[]) => {
    const [first] = args as [string | { text: string } | Sql]
    texts.push(typeof first === 'string' ? first : first instanceof Sql ? first.render(() => '?').sql : first.text)
    return original(...args)
  }
  t.teardown(() => { delete owner[method] })
  const counts = () => texts.filter(sql => sql.includes('count(*)'))

  const none = await call(app, 'GET', '/v1/zoos?city=c1&sortby=name&limit=2', undefined, { prefer: 'count=none' })
  t.same(none.json().map((z: { name: string }) => z.name), ['z1', 'z10'])
  if (ENGINE === 'postgres') t.same(counts(), [], 'no count statement')
  else {
    const filtered = counts().filter(sql => sql.includes('WHERE'))
    t.equal(filtered.length, 1)
    t.match(filtered[0], /LIMIT/, 'the one count of the matches stops early')
  }
  texts.length = 0
  t.equal((await call(app, 'GET', '/v1/zoos?city=c1&sortby=name&limit=2')).headers['x-total-count'], '10')
  t.ok(counts().some(sql => sql.includes('WHERE') && !/LIMIT/.test(sql)), 'counted in full when the count is wanted')
})

t.test('a write that writes nothing, or is refused, leaves the tags as they were', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin' })
  const gone = await create(app, 'zoos', { name: 'Gone', city: 'Nowhere' })
  t.equal((await call(app, 'DELETE', `/v1/zoos/${gone.id}`)).statusCode, 204)
  const animal = await create(app, 'animals', { name: 'Knut', species: 'polar bear', animal_type_id: 1, zoo_id: zoo.id })
  await create(app, 'employees', { name: 'Ada', role: 'keeper', email: 'ada@zoo.test' })
  const grace = await create(app, 'employees', { name: 'Grace', role: 'vet', email: 'grace@zoo.test' })
  const lists = ['/v1/zoos', '/v1/animals', '/v1/employees']

  const zooBody = { name: 'Z', city: 'C' }
  const writes = [
    ['PATCH', '/v1/zoos/999', { city: 'X' }, {}, 404],
    ['PUT', '/v1/zoos/999', zooBody, {}, 404],
    ['DELETE', '/v1/zoos/999', undefined, {}, 404],
    ['PATCH', `/v1/zoos/${gone.id}`, { city: 'X' }, {}, 410],
    ['PUT', `/v1/zoos/${gone.id}`, zooBody, {}, 410],
    ['DELETE', `/v1/zoos/${gone.id}`, undefined, {}, 410],
    ['PATCH', `/v1/zoos/${gone.id}`, { city: 'X' }, { 'if-match': '"1"' }, 410],
    ['DELETE', `/v1/zoos/${zoo.id}/animals/999`, undefined, {}, 404],
    ['DELETE', `/v1/zoos/${zoo.id}`, undefined, {}, 409],
    ['PATCH', `/v1/zoos/${zoo.id}`, { city: 'X' }, { 'if-match': '"9"' }, 412],
    ['DELETE', `/v1/zoos/${zoo.id}`, undefined, { 'if-match': '"9"' }, 412],
    ['PATCH', `/v1/animals/${animal.id}`, { zoo_id: 999 }, {}, 422],
    ['PATCH', `/v1/employees/${grace.id}`, { email: 'ADA@zoo.test' }, {}, 422],
    ['POST', '/v1/employees', { name: 'Bea', role: 'vet', email: 'Ada@Zoo.test' }, {}, 422],
    ['PATCH', '/v1/zoos?city=Paris', { country: 'FR' }, {}, 200],
    ['DELETE', '/v1/zoos?city=Paris', undefined, {}, 200]
  ] as const
  for (const [method, path, body, headers, status] of writes) {
    const tags = await Promise.all(lists.map(async list => String((await call(app, 'GET', list)).headers.etag)))
    t.equal((await call(app, method, path, body, headers)).statusCode, status, `${method} ${path}`)
    const again = await Promise.all(lists.map(async (list, i) =>
      (await call(app, 'GET', list, undefined, { 'if-none-match': tags[i] as string })).statusCode))
    t.same(again, [304, 304, 304], `${method} ${path} ${status}: every list as it was`)
  }
})
