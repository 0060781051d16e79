import t from 'tap'
import { build, call, create, snapshot } from '../../helper.ts'

const MEMBERS: Record<string, Record<string, unknown>> = {
  animals: { name: 'Knut', species: 'Polar bear', animal_type_id: 3 },
  employees: { name: 'Ada', role: 'Keeper', email: 'ada@example.org' }
}

for (const [collection, body] of Object.entries(MEMBERS)) {
  const singular = collection.slice(0, -1)
  /** Another valid body: employees' emails must differ. */
  const variant = (n: number) => 'email' in body ? { ...body, email: `member${n}@example.org` } : body

  t.test(`/v1/zoos/:zoo_id/${collection}`, async t => {
    t.test('POST takes zoo_id from the path; GET lists only that zoo\'s records', async t => {
      const app = await build(t)
      const berlin = await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin' })
      const vienna = await create(app, 'zoos', { name: 'Schönbrunn', city: 'Vienna' })
      const res = await call(app, 'POST', `/v1/zoos/${berlin.id}/${collection}`, body, { host: 'zoo.test' })
      t.equal(res.statusCode, 201)
      const member = res.json()
      t.match(member, { ...body, zoo_id: berlin.id })
      t.equal(res.headers.location, `http://zoo.test/v1/${collection}/${member.id}`, 'Location is the canonical URL')
      await create(app, collection, { ...variant(1), zoo_id: vienna.id })

      const list = await call(app, 'GET', `/v1/zoos/${berlin.id}/${collection}`)
      t.equal(list.statusCode, 200)
      t.same(list.json(), [member])
      t.equal(list.headers['x-total-count'], '1')
      t.match(list.headers.link, new RegExp(`/v1/zoos/${berlin.id}/${collection}\\?offset=0>; rel="first"`))
      t.same(list.json(), (await call(app, 'GET', `/v1/${collection}?zoo_id=${berlin.id}`)).json(), 'the same as the filtered collection')

      const batch = await call(app, 'POST', `/v1/zoos/${vienna.id}/${collection}`, [variant(2), variant(3)])
      t.equal(batch.statusCode, 201)
      t.same(batch.json().map((r: { zoo_id: number }) => r.zoo_id), [vienna.id, vienna.id])
    })

    t.test('zoo_id in the body of a nested POST is refused: the path says it', async t => {
      const app = await build(t)
      const zoo = await create(app, 'zoos', { name: 'Z', city: 'C' })
      const res = await call(app, 'POST', `/v1/zoos/${zoo.id}/${collection}`, { ...body, zoo_id: zoo.id })
      t.equal(res.statusCode, 422)
      t.match(res.json(), { errors: [{ field: 'zoo_id', code: 'unknown' }] })
    })

    t.test('GET and DELETE of a record through its zoo; 404 when it is in another zoo', async t => {
      const app = await build(t)
      const zoo = await create(app, 'zoos', { name: 'Z', city: 'C' })
      const other = await create(app, 'zoos', { name: 'O', city: 'C' })
      const member = await create(app, collection, { ...body, zoo_id: zoo.id })
      const get = await call(app, 'GET', `/v1/zoos/${zoo.id}/${collection}/${member.id}`)
      t.equal(get.statusCode, 200)
      t.same(get.json(), member)
      t.match(get.headers.etag, /^"\d+"$/)

      const before = await snapshot(app)
      for (const method of ['GET', 'DELETE'] as const) {
        const wrong = await call(app, method, `/v1/zoos/${other.id}/${collection}/${member.id}`)
        t.equal(wrong.statusCode, 404, method)
        t.same(wrong.json(), { error: `${singular} ${member.id} is not in zoo ${other.id}` })
      }
      t.same(await snapshot(app), before, 'a DELETE through the wrong zoo deleted nothing')

      const del = await call(app, 'DELETE', `/v1/zoos/${zoo.id}/${collection}/${member.id}`)
      t.equal(del.statusCode, 204)
      t.equal(del.body, '')
      t.equal((await call(app, 'GET', `/v1/${collection}/${member.id}`)).statusCode, 410)
      t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}/${collection}/${member.id}`)).statusCode, 410)
    })

    t.test('a zoo that never existed is 404, a deleted one 410, on every nested route', async t => {
      const app = await build(t)
      const zoo = await create(app, 'zoos', { name: 'Z', city: 'C' })
      await call(app, 'DELETE', `/v1/zoos/${zoo.id}`)
      for (const [zooId, status, error] of [[4242, 404, 'no zoo with id 4242'], [zoo.id, 410, `zoo ${zoo.id} was deleted`]] as const) {
        const requests = [
          ['GET', `/v1/zoos/${zooId}/${collection}`, undefined],
          ['POST', `/v1/zoos/${zooId}/${collection}`, body],
          ['GET', `/v1/zoos/${zooId}/${collection}/1`, undefined],
          ['DELETE', `/v1/zoos/${zooId}/${collection}/1`, undefined],
          ['OPTIONS', `/v1/zoos/${zooId}/${collection}`, undefined]
        ] as const
        for (const [method, url, payload] of requests) {
          const res = await call(app, method, url, payload)
          t.equal(res.statusCode, status, `${method} ${url}`)
          t.same(res.json(), { error }, `${method} ${url}`)
        }
      }
    })

    t.test('PUT and PATCH are not served on the nested record: 405 with Allow', async t => {
      const app = await build(t)
      const zoo = await create(app, 'zoos', { name: 'Z', city: 'C' })
      const member = await create(app, collection, { ...body, zoo_id: zoo.id })
      for (const method of ['PUT', 'PATCH', 'POST'] as const) {
        const res = await call(app, method, `/v1/zoos/${zoo.id}/${collection}/${member.id}`, body)
        t.equal(res.statusCode, 405, method)
        t.equal(res.headers.allow, 'GET, HEAD, DELETE, OPTIONS')
      }
      const options = await call(app, 'OPTIONS', `/v1/zoos/${zoo.id}/${collection}/${member.id}`)
      t.equal(options.statusCode, 200)
      t.same(options.json().methods, ['GET', 'HEAD', 'DELETE', 'OPTIONS'])
    })
  })
}

t.test('DELETE of a zoo that still has animals or employees is 409 and deletes nothing', async t => {
  const app = await build(t)
  for (const [collection, body] of Object.entries(MEMBERS)) {
    const zoo = await create(app, 'zoos', { name: 'Z', city: 'C' })
    const member = await create(app, collection, { ...body, zoo_id: zoo.id })
    const before = await snapshot(app)
    const res = await call(app, 'DELETE', `/v1/zoos/${zoo.id}`)
    t.equal(res.statusCode, 409)
    t.same(res.json(), { error: `zoo ${zoo.id} still has ${collection}; delete or move them first` })
    t.same(await snapshot(app), before)
    // Moved elsewhere, the zoo can go.
    t.equal((await call(app, 'PATCH', `/v1/${collection}/${member.id}`, { zoo_id: null })).statusCode, 201)
    t.equal((await call(app, 'DELETE', `/v1/zoos/${zoo.id}`)).statusCode, 204)
  }
})
