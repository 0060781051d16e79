import t from 'tap'
import { build, call, create, snapshot } from '../../helper.ts'

const ZOO = { name: 'Berlin Zoo', city: 'Berlin' }

t.test('If-None-Match: 304 with the ETag and no body when the copy is current', async t => {
  const app = await build(t)
  const created = await call(app, 'POST', '/v1/zoos', ZOO)
  const url = `/v1/zoos/${created.json().id}`
  const etag = String(created.headers.etag)
  for (const method of ['GET', 'HEAD'] as const) {
    for (const header of [etag, `W/${etag}`, `"99", ${etag}`, '*']) {
      const res = await call(app, method, url, undefined, { 'if-none-match': header })
      t.equal(res.statusCode, 304, `${method} ${header}`)
      t.equal(res.body, '')
      t.equal(res.headers.etag, etag)
    }
  }
  const stale = await call(app, 'GET', url, undefined, { 'if-none-match': '"0"' })
  t.equal(stale.statusCode, 200)
  t.same(stale.json(), created.json())
  await call(app, 'PATCH', url, { city: 'Potsdam' })
  const changed = await call(app, 'GET', url, undefined, { 'if-none-match': etag })
  t.equal(changed.statusCode, 200, 'after a write the old tag no longer matches')
  t.equal(changed.json().city, 'Potsdam')
  t.not(changed.headers.etag, etag)
  t.equal((await call(app, 'GET', '/v1/zoos/999', undefined, { 'if-none-match': '*' })).statusCode, 404, 'preconditions never hide a 404')
})

t.test('If-Match: PUT, PATCH and DELETE with a stale tag are 412 and change nothing', async t => {
  const app = await build(t)
  const created = await call(app, 'POST', '/v1/zoos', ZOO)
  const id = created.json().id
  const url = `/v1/zoos/${id}`
  const first = String(created.headers.etag)
  const patched = await call(app, 'PATCH', url, { city: 'Potsdam' }, { 'if-match': first })
  t.equal(patched.statusCode, 201, 'the current tag lets the write through')
  const second = String(patched.headers.etag)

  const before = await snapshot(app)
  for (const [method, body] of [['PUT', ZOO], ['PATCH', { city: 'Hamburg' }], ['DELETE', undefined]] as const) {
    for (const header of [first, `W/${second}`, '"nonsense"']) {
      const res = await call(app, method, url, body, { 'if-match': header })
      t.equal(res.statusCode, 412, `${method} ${header}`)
      t.same(res.json(), { error: `zoo ${id} has changed: its ETag is now ${second}` })
    }
  }
  t.same(await snapshot(app), before, 'no 412 wrote anything')

  t.equal((await call(app, 'PUT', url, ZOO, { 'if-match': `"1", ${second}` })).statusCode, 201, 'one of a list matches')
  const third = String((await call(app, 'GET', url)).headers.etag)
  t.equal((await call(app, 'DELETE', url, undefined, { 'if-match': '*' })).statusCode, 204, '* matches any current record')
  t.not(third, second)
  t.equal((await call(app, 'DELETE', url, undefined, { 'if-match': '*' })).statusCode, 410, 'a deleted record is 410, not 412')
  t.equal((await call(app, 'PATCH', '/v1/zoos/4242', { city: 'x' }, { 'if-match': '*' })).statusCode, 404)
})

t.test('If-Match on a nested DELETE', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  const animal = await call(app, 'POST', `/v1/zoos/${zoo.id}/animals`, { name: 'Knut', species: 'Polar bear', animal_type_id: 3 })
  const url = `/v1/zoos/${zoo.id}/animals/${animal.json().id}`
  t.equal((await call(app, 'DELETE', url, undefined, { 'if-match': '"42"' })).statusCode, 412)
  t.equal((await call(app, 'DELETE', url, undefined, { 'if-match': String(animal.headers.etag) })).statusCode, 204)
})
