import t from 'tap'
import { bearer, build, call, create } from '../../helper.ts'

/*
 * What a write takes and answers besides plain JSON: a JSON Merge Patch on PATCH, and
 * Prefer: return=minimal or return=representation on POST, PUT and PATCH, through inject() on
 * the engine of the pass (every answer checked against the OpenAPI document).
 */

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' }

t.test('PATCH takes a JSON Merge Patch: members replace the record\'s, null clears a field that may be empty', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin', opened_on: '1844-08-01' })
  const patched = await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Berlin-Tiergarten', opened_on: null }, MERGE_PATCH)
  t.equal(patched.statusCode, 201)
  t.match(patched.json(), { id: zoo.id, name: 'Berlin Zoo', city: 'Berlin-Tiergarten', opened_on: null })

  const required = await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { name: null }, MERGE_PATCH)
  t.equal(required.statusCode, 422, 'null on a required field')
  t.match(required.json(), { error: String, errors: [{ field: 'name' }] })
  const unknown = await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { keeper: 'Ada' }, MERGE_PATCH)
  t.equal(unknown.statusCode, 422, 'a member the record has not')
  const notObject = await app.inject({
    method: 'PATCH', url: `/v1/zoos/${zoo.id}`, headers: { ...MERGE_PATCH, authorization: await bearer(app) }, payload: '[1]'
  })
  t.equal(notObject.statusCode, 400, 'a patch that is not an object')
  const broken = await app.inject({
    method: 'PATCH', url: `/v1/zoos/${zoo.id}`, headers: { ...MERGE_PATCH, authorization: await bearer(app) }, payload: '{"city":'
  })
  t.equal(broken.statusCode, 400, 'not JSON')
  const after = (await call(app, 'GET', `/v1/zoos/${zoo.id}`)).json()
  t.match(after, { city: 'Berlin-Tiergarten', name: 'Berlin Zoo' }, 'refusals changed nothing')
})

t.test('only PATCH takes a merge patch; a 415 says what the route takes', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Zoo Zürich', city: 'Zürich' })
  const post = await call(app, 'POST', '/v1/zoos', { name: 'Tierpark', city: 'Berlin' }, MERGE_PATCH)
  t.equal(post.statusCode, 415)
  t.equal(post.json().error, 'Content-Type must be application/json; got application/merge-patch+json')
  const put = await call(app, 'PUT', `/v1/zoos/${zoo.id}`, { name: 'Zoo', city: 'Zürich' }, MERGE_PATCH)
  t.equal(put.statusCode, 415)
  const text = await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Basel' }, { 'content-type': 'text/plain' })
  t.equal(text.statusCode, 415)
  t.equal(text.json().error, 'Content-Type must be application/json or application/merge-patch+json; got text/plain')
  t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}`)).json().city, 'Zürich')
})

t.test('a merge patch queued with Prefer: respond-async is applied as one', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Zoo Basel', city: 'Basel', opened_on: '1874-07-03' })
  const queued = await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { opened_on: null }, { ...MERGE_PATCH, prefer: 'respond-async' })
  t.equal(queued.statusCode, 202)
  const job = String(queued.headers.location).replace(/^https?:\/\/[^/]+/, '')
  let status = 'queued'
  for (let i = 0; i < 200 && (status === 'queued' || status === 'running'); i++) {
    await new Promise(resolve => setTimeout(resolve, 10))
    status = (await call(app, 'GET', job)).json().status
  }
  t.equal(status, 'succeeded')
  t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}`)).json().opened_on, null)
})

t.test('Prefer: return=minimal answers the status, Location and ETag without a body', async t => {
  const app = await build(t)
  const minimal = { prefer: 'return=minimal' }
  const created = await call(app, 'POST', '/v1/zoos', { name: 'Tierpark', city: 'Berlin' }, minimal)
  t.equal(created.statusCode, 201)
  t.equal(created.body, '')
  t.equal(created.headers['preference-applied'], 'return=minimal')
  t.match(created.headers.location, /\/v1\/zoos\/\d+$/)
  const path = String(created.headers.location).replace(/^https?:\/\/[^/]+/, '')
  const read = await call(app, 'GET', path)
  t.equal(read.json().name, 'Tierpark')
  t.equal(read.headers.etag, created.headers.etag, 'the ETag of the record as written')

  const replaced = await call(app, 'PUT', path, { name: 'Tierpark Berlin', city: 'Berlin' }, minimal)
  t.same([replaced.statusCode, replaced.body, replaced.headers['preference-applied']], [201, '', 'return=minimal'])
  const patched = await call(app, 'PATCH', path, { city: 'Berlin-Friedrichsfelde' }, { ...minimal, ...MERGE_PATCH })
  t.same([patched.statusCode, patched.body], [201, ''])
  const now = await call(app, 'GET', path)
  t.equal(now.json().city, 'Berlin-Friedrichsfelde')
  t.equal(now.headers.etag, patched.headers.etag)

  const many = await call(app, 'POST', '/v1/zoos', [{ name: 'A', city: 'a' }, { name: 'B', city: 'b' }], minimal)
  t.same([many.statusCode, many.body, many.headers['preference-applied']], [201, '', 'return=minimal'], 'an array too')

  const representation = await call(app, 'PATCH', path, { city: 'Berlin' }, { prefer: 'return=representation' })
  t.equal(representation.json().city, 'Berlin')
  t.equal(representation.headers['preference-applied'], 'return=representation')
  const unknown = await call(app, 'PATCH', path, { city: 'Berlin' }, { prefer: 'return=headers-only' })
  t.equal(unknown.json().city, 'Berlin', 'an unknown return is ignored')
  t.equal(unknown.headers['preference-applied'], undefined)
  const refused = await call(app, 'PATCH', path, { name: '' }, minimal)
  t.equal(refused.statusCode, 422, 'a refusal has its body whatever was preferred')
  t.match(refused.json(), { error: String })
})

t.test('an Idempotency-Key retry of a minimal answer replays it', async t => {
  const app = await build(t)
  const headers = { prefer: 'return=minimal', 'idempotency-key': 'minimal-1' }
  const first = await call(app, 'POST', '/v1/zoos', { name: 'Zoo Wien', city: 'Vienna' }, headers)
  const again = await call(app, 'POST', '/v1/zoos', { name: 'Zoo Wien', city: 'Vienna' }, headers)
  t.same([again.statusCode, again.body, again.headers.location, again.headers['preference-applied']],
    [201, '', first.headers.location, 'return=minimal'])
  t.equal(again.headers['idempotent-replayed'], 'true')
})
