import t from 'tap'
import { RESOURCES } from '../../../schemas/index.ts'
import { bearer, build, call, create, snapshot } from '../../helper.ts'
import { samplesOf } from '../../samples.ts'

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The same checks run for each collection: one generic implementation, one behaviour. */
for (const resource of RESOURCES) {
  const collection = resource.name
  t.test(collection, async t => {
    t.test('POST creates a record: 201, Location, ETag, the whole record', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const res = await call(app, 'POST', `/v1/${collection}`, sample.valid(), { host: 'zoo.test' })
      t.equal(res.statusCode, 201)
      const record = res.json()
      t.match(record, { ...sample.valid(), id: Number, created_at: TIMESTAMP, updated_at: TIMESTAMP })
      t.same(Object.keys(record), ['id', ...resource.writable, 'created_at', 'updated_at'])
      t.equal(res.headers.location, `http://zoo.test/v1/${collection}/${record.id}`)
      t.match(res.headers.etag, /^"\d+"$/)
    })

    t.test('optional fields left out are null', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const res = await call(app, 'POST', `/v1/${collection}`, sample.minimal())
      t.equal(res.statusCode, 201)
      const record = res.json()
      const optional = resource.writable.filter(f => !(f in sample.minimal()))
      // Else the loop below asserts nothing, and the test passes whatever the API answers.
      t.ok(optional.length > 0, `${collection} has optional fields: ${optional.join(', ')}`)
      for (const field of optional) t.equal(record[field], null, field)
    })

    t.test('GET and HEAD read one record with its ETag', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const created = await call(app, 'POST', `/v1/${collection}`, sample.valid())
      const url = `/v1/${collection}/${created.json().id}`
      const get = await call(app, 'GET', url)
      t.equal(get.statusCode, 200)
      t.same(get.json(), created.json())
      t.equal(get.headers.etag, created.headers.etag)
      t.notOk(get.headers.location, 'Location only on 201')
      t.equal(get.headers['cache-control'], 'private, no-cache')
      const head = await call(app, 'HEAD', url)
      t.equal(head.statusCode, 200)
      t.equal(head.body, '')
      t.equal(head.headers.etag, get.headers.etag)
      t.equal(head.headers['content-length'], get.headers['content-length'])
    })

    t.test('PUT replaces the record: 201, read-only fields ignored, left-out optional fields cleared', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const created = await call(app, 'POST', `/v1/${collection}`, sample.valid())
      const original = created.json()
      // A GET body sent back, with a change and read-only fields it may not set.
      const body = { ...original, ...sample.change, id: 999, created_at: '2000-01-01T00:00:00.000Z' }
      const res = await call(app, 'PUT', `/v1/${collection}/${original.id}`, body)
      t.equal(res.statusCode, 201)
      const replaced = res.json()
      t.same(replaced, { ...original, ...sample.change, updated_at: replaced.updated_at })
      t.ok(replaced.updated_at >= original.updated_at)
      t.not(res.headers.etag, created.headers.etag, 'the ETag changes on every write')
      t.equal(res.headers.location, `http://localhost:80/v1/${collection}/${original.id}`)

      const cleared = (await call(app, 'PUT', `/v1/${collection}/${original.id}`, sample.minimal())).json()
      for (const field of resource.writable.filter(f => !(f in sample.minimal()))) t.equal(cleared[field], null, field)
      t.same((await call(app, 'GET', `/v1/${collection}/${original.id}`)).json(), cleared)
    })

    t.test('PUT without every required field is 422 and changes nothing', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const { id } = await create(app, collection, sample.valid())
      const before = await snapshot(app)
      const res = await call(app, 'PUT', `/v1/${collection}/${id}`, sample.change)
      t.equal(res.statusCode, 422)
      const missing = Object.keys(sample.minimal()).filter(f => !(f in sample.change))
      t.same(res.json().errors.map((e: { field: string }) => e.field).sort(), missing.sort())
      t.match(res.json(), { error: /^Validation failed: / })
      t.same(await snapshot(app), before)
    })

    t.test('PATCH changes only the fields sent: 201 with the complete record', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const created = await call(app, 'POST', `/v1/${collection}`, sample.valid())
      const res = await call(app, 'PATCH', `/v1/${collection}/${created.json().id}`, sample.change)
      t.equal(res.statusCode, 201)
      t.same(res.json(), { ...created.json(), ...sample.change, updated_at: res.json().updated_at })
      t.not(res.headers.etag, created.headers.etag)
      t.same((await call(app, 'GET', `/v1/${collection}/${created.json().id}`)).json(), res.json())
    })

    t.test('DELETE: 204 with no body, then 410 for every method on the id; 404 for one never used', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const { id } = await create(app, collection, sample.valid())
      const res = await call(app, 'DELETE', `/v1/${collection}/${id}`)
      t.equal(res.statusCode, 204)
      t.equal(res.body, '')
      const gone = `${resource.singular} ${id} was deleted`
      for (const [method, body] of [['GET'], ['HEAD'], ['PUT', sample.valid()], ['PATCH', sample.change], ['DELETE']] as const) {
        const again = await call(app, method, `/v1/${collection}/${id}`, body)
        t.equal(again.statusCode, 410, method)
        if (method !== 'HEAD') t.same(again.json(), { error: gone }, method)
      }
      const never = await call(app, 'GET', `/v1/${collection}/4242`)
      t.equal(never.statusCode, 404)
      t.same(never.json(), { error: `no ${resource.singular} with id 4242` })
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        const res = await call(app, method, `/v1/${collection}/4242`, method === 'DELETE' ? undefined : sample.valid())
        t.equal(res.statusCode, 404, method)
      }
    })

    t.test('a deleted id is never handed out again', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const first = await create(app, collection, sample.valid())
      await call(app, 'DELETE', `/v1/${collection}/${first.id}`)
      const second = await create(app, collection, sample.valid())
      t.equal(second.id, first.id + 1)
    })

    t.test('OPTIONS tells the methods and the writable fields with their JSON Schema', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const { id } = await create(app, collection, sample.valid())
      const list = await call(app, 'OPTIONS', `/v1/${collection}`)
      t.equal(list.statusCode, 200)
      t.equal(list.headers.allow, 'GET, HEAD, POST, PATCH, DELETE, OPTIONS')
      t.same(list.json().methods, ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'])
      t.same(list.json().writable, resource.writable)
      t.match(list.json().schema, { type: 'object', additionalProperties: false, required: Object.keys(sample.minimal()) })
      t.same(Object.keys(list.json().schema.properties), resource.writable)
      const item = await call(app, 'OPTIONS', `/v1/${collection}/${id}`)
      t.equal(item.statusCode, 200)
      t.equal(item.headers.allow, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS')
      t.same(item.json().writable, resource.writable)
      t.equal((await call(app, 'OPTIONS', `/v1/${collection}/4242`)).statusCode, 404)
    })

    t.test('405 with Allow for a method a known path does not serve, before any body is read', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const { id } = await create(app, collection, sample.valid())
      const put = await call(app, 'PUT', `/v1/${collection}`)
      t.equal(put.statusCode, 405)
      t.equal(put.headers.allow, 'GET, HEAD, POST, PATCH, DELETE, OPTIONS')
      t.same(put.json(), { error: 'PUT is not allowed here; allowed: GET, HEAD, POST, PATCH, DELETE, OPTIONS' })
      const post = await app.inject({
        method: 'POST',
        url: `/v1/${collection}/${id}`,
        headers: { 'content-type': 'text/plain', authorization: await bearer(app) },
        payload: 'x'
      })
      t.equal(post.statusCode, 405)
      t.equal(post.headers.allow, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS')
    })

    t.test('POST of an array creates every record, in order, atomically', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const second = sample.minimal(1)
      const res = await call(app, 'POST', `/v1/${collection}`, [sample.valid(), second])
      t.equal(res.statusCode, 201)
      const records = res.json()
      t.equal(records.length, 2)
      t.match(records[0], sample.valid())
      t.equal(records[1].id, records[0].id + 1)
      t.notOk(res.headers.location, 'no single Location for a batch')

      const before = await snapshot(app)
      const { field, value, code } = sample.invalid
      const bad = await call(app, 'POST', `/v1/${collection}`, [sample.minimal(2), { ...sample.minimal(3), [field]: value }, {}])
      t.equal(bad.statusCode, 422)
      t.match(bad.json().errors, [{ field: `1.${field}`, code }])
      const first = Object.keys(sample.minimal())[0] as string
      t.ok(bad.json().errors.some((e: { field: string, code: string }) => e.field === `2.${first}` && e.code === 'required'))
      t.same(await snapshot(app), before, 'nothing of the batch was written')

      for (const body of [[], Array.from({ length: 1001 }, () => sample.minimal())]) {
        const res = await call(app, 'POST', `/v1/${collection}`, body)
        t.equal(res.statusCode, 422, `${body.length} records`)
        t.match(res.json().errors, [{ field: '', code: 'length' }])
      }
    })

    t.test('GET of the collection lists the records', async t => {
      const app = await build(t)
      const sample = await samplesOf(app, resource)
      const created = await create(app, collection, sample.valid())
      const res = await call(app, 'GET', `/v1/${collection}?id=${created.id}`)
      t.equal(res.statusCode, 200)
      t.same(res.json(), [created])
      t.equal(res.headers['x-total-count'], '1')
    })
  })
}
