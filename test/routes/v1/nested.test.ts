import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import type { Resource } from '../../../model/resource.ts'
import { RESOURCES } from '../../../schemas/index.ts'
import { build, call, create, snapshot } from '../../helper.ts'
import { samplesOf, type Body } from '../../samples.ts'

const ROUTES = fileURLToPath(new URL('../../../routes', import.meta.url))

/**
 * Every collection served under a record of another (`/v1/<parent>/:<field>/<collection>`): the
 * references of the resources whose route folders mirror such a path.
 */
const NESTINGS = RESOURCES.flatMap(resource => Object.entries(resource.references)
  .filter(([field, parent]) => existsSync(join(ROUTES, 'v1', parent, `_${field}`, resource.name, 'index.ts')))
  .map(([field, parent]) => ({ resource, field, parent: RESOURCES.find(r => r.name === parent) as Resource })))

t.test('the nested collections are found', async t => {
  t.ok(NESTINGS.length > 0)
})

for (const { resource, field, parent } of NESTINGS) {
  const collection = resource.name
  const parents = parent.name
  const under = (id: number): string => `/v1/${parents}/${id}/${collection}`

  /** Bodies of the nested collection without the parent's field (the path names the parent), and a parent maker. */
  async function setUp (app: FastifyInstance) {
    const samples = await samplesOf(app, resource)
    const parentSamples = await samplesOf(app, parent)
    let made = 0
    return {
      body: (n = 0): Body => {
        const { [field]: _parent, ...rest } = samples.valid(n)
        return rest
      },
      parent: async () => create(app, parents, parentSamples.valid(++made + 10))
    }
  }

  t.test(`/v1/${parents}/:${field}/${collection}`, async t => {
    t.test(`POST takes ${field} from the path; GET lists only that ${parent.singular}'s records`, async t => {
      const app = await build(t)
      const { body, parent: newParent } = await setUp(app)
      const first = await newParent()
      const second = await newParent()
      const res = await call(app, 'POST', under(first.id), body(1), { host: 'zoo.test' })
      t.equal(res.statusCode, 201)
      const member = res.json()
      t.match(member, { ...body(1), [field]: first.id })
      t.equal(res.headers.location, `http://zoo.test/v1/${collection}/${member.id}`, 'Location is the canonical URL')
      await create(app, collection, { ...body(2), [field]: second.id })

      const list = await call(app, 'GET', under(first.id))
      t.equal(list.statusCode, 200)
      t.same(list.json(), [member])
      t.equal(list.headers['x-total-count'], '1')
      t.match(list.headers.link, new RegExp(`${under(first.id)}\\?offset=0>; rel="first"`))
      t.same(list.json(), (await call(app, 'GET', `/v1/${collection}?${field}=${first.id}`)).json(), 'the same as the filtered collection')

      const batch = await call(app, 'POST', under(second.id), [body(3), body(4)])
      t.equal(batch.statusCode, 201)
      t.same(batch.json().map((r: Body) => r[field]), [second.id, second.id])
    })

    t.test(`${field} in the body of a nested POST is refused: the path says it`, async t => {
      const app = await build(t)
      const { body, parent: newParent } = await setUp(app)
      const owner = await newParent()
      const res = await call(app, 'POST', under(owner.id), { ...body(), [field]: owner.id })
      t.equal(res.statusCode, 422)
      t.match(res.json(), { errors: [{ field, code: 'unknown' }] })
    })

    t.test(`GET and DELETE of a record through its ${parent.singular}; 404 when it is in another`, async t => {
      const app = await build(t)
      const { body, parent: newParent } = await setUp(app)
      const owner = await newParent()
      const other = await newParent()
      const member = await create(app, collection, { ...body(), [field]: owner.id })
      const get = await call(app, 'GET', `${under(owner.id)}/${member.id}`)
      t.equal(get.statusCode, 200)
      t.same(get.json(), member)
      t.match(get.headers.etag, /^"\d+"$/)

      const before = await snapshot(app)
      for (const method of ['GET', 'DELETE'] as const) {
        const wrong = await call(app, method, `${under(other.id)}/${member.id}`)
        t.equal(wrong.statusCode, 404, method)
        t.same(wrong.json(), { error: `${resource.singular} ${member.id} is not in ${parent.singular} ${other.id}` })
      }
      t.same(await snapshot(app), before, `a DELETE through the wrong ${parent.singular} deleted nothing`)

      const del = await call(app, 'DELETE', `${under(owner.id)}/${member.id}`)
      t.equal(del.statusCode, 204)
      t.equal(del.body, '')
      t.equal((await call(app, 'GET', `/v1/${collection}/${member.id}`)).statusCode, 410)
      t.equal((await call(app, 'GET', `${under(owner.id)}/${member.id}`)).statusCode, 410)
    })

    t.test(`a ${parent.singular} that never existed is 404, a deleted one 410, on every nested route`, async t => {
      const app = await build(t)
      const { body, parent: newParent } = await setUp(app)
      const owner = await newParent()
      await call(app, 'DELETE', `/v1/${parents}/${owner.id}`)
      const cases = [
        [4242, 404, `no ${parent.singular} with id 4242`], [owner.id, 410, `${parent.singular} ${owner.id} was deleted`]
      ] as const
      for (const [id, status, error] of cases) {
        const requests = [
          ['GET', under(id), undefined],
          ['POST', under(id), body()],
          ['GET', `${under(id)}/1`, undefined],
          ['DELETE', `${under(id)}/1`, undefined],
          ['OPTIONS', under(id), undefined]
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
      const { body, parent: newParent } = await setUp(app)
      const owner = await newParent()
      const member = await create(app, collection, { ...body(), [field]: owner.id })
      for (const method of ['PUT', 'PATCH', 'POST'] as const) {
        const res = await call(app, method, `${under(owner.id)}/${member.id}`, body())
        t.equal(res.statusCode, 405, method)
        t.equal(res.headers.allow, 'GET, HEAD, DELETE, OPTIONS')
      }
      const options = await call(app, 'OPTIONS', `${under(owner.id)}/${member.id}`)
      t.equal(options.statusCode, 200)
      t.same(options.json().methods, ['GET', 'HEAD', 'DELETE', 'OPTIONS'])
    })
  })
}

t.test('DELETE of a record that records of another collection still name is 409 and deletes nothing', async t => {
  const app = await build(t)
  for (const { resource, field, parent } of NESTINGS) {
    const samples = await samplesOf(app, resource)
    const owner = await create(app, parent.name, (await samplesOf(app, parent)).valid(20))
    const member = await create(app, resource.name, { ...samples.valid(), [field]: owner.id })
    const before = await snapshot(app)
    const res = await call(app, 'DELETE', `/v1/${parent.name}/${owner.id}`)
    t.equal(res.statusCode, 409)
    t.same(res.json(), { error: `${parent.singular} ${owner.id} still has ${resource.name}; delete or move them first` })
    t.same(await snapshot(app), before)
    // Moved elsewhere, the record can go.
    const elsewhere = resource.columns.find(c => c.name === field)?.nullable === true
      ? null
      : (await create(app, parent.name, (await samplesOf(app, parent)).valid(21))).id
    t.equal((await call(app, 'PATCH', `/v1/${resource.name}/${member.id}`, { [field]: elsewhere })).statusCode, 201)
    t.equal((await call(app, 'DELETE', `/v1/${parent.name}/${owner.id}`)).statusCode, 204)
  }
})
