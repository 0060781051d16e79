import t from 'tap'
import type { Mount } from '../../collections/request.ts'
import {
  belongingTo, inputsOf, planWrite, refuseNullBytes, writesServed, type WriteRequest
} from '../../collections/write-plan.ts'
import { HttpError } from '../../http/errors.ts'
import { NoQuerySchema } from '../../schemas/common.ts'
import { Animals } from '../../schemas/animal.ts'
import { Zoos } from '../../schemas/zoo.ts'

// The planner is what every surface that writes calls (the routes, the batch, the jobs that replay
// either): these tests hold it to what each surface answers, which the route and batch suites
// check through the API.

const zoos: Mount = { segments: ['v1', 'zoos'], resource: Zoos, nesting: undefined }
const zooAnimals: Mount = { segments: ['v1', 'zoos', ':zoo_id', 'animals'], resource: Animals, nesting: { parent: Zoos, field: 'zoo_id' } }

/** Where the API is as the client addressed it. */
const root = 'https://api.example/v1'

const asked = (mount: Mount, method: WriteRequest['method'], rest: Partial<WriteRequest> = {}): WriteRequest =>
  ({ mount, root, method, parentId: undefined, id: undefined, query: {}, body: undefined, ifMatch: undefined, prefer: undefined, ...rest })

const thrown = (fn: () => unknown): HttpError => {
  try {
    fn()
  } catch (err) {
    if (err instanceof HttpError) return err
    throw err
  }
  throw new Error('nothing was thrown')
}

t.test('a collection takes a create and a change of many; a record a replace, change and delete; a nested one a delete', async t => {
  t.same(writesServed(zoos, false), ['POST', 'PATCH', 'DELETE'])
  t.same(writesServed(zoos, true), ['PUT', 'PATCH', 'DELETE'])
  t.same(writesServed(zooAnimals, false), ['POST', 'PATCH', 'DELETE'])
  t.same(writesServed(zooAnimals, true), ['DELETE'])
})

t.test('each write validates its body and query against the resource\'s schemas, the same objects on every call', async t => {
  t.equal(inputsOf(zoos, 'PUT', true).body, Zoos.schemas.replace)
  t.equal(inputsOf(zoos, 'PATCH', true).body, Zoos.schemas.patch)
  t.equal(inputsOf(zoos, 'PATCH', false).query, Zoos.schemas.filters, 'a change of many is chosen by the list\'s filters')
  t.equal(inputsOf(zoos, 'DELETE', true).body, undefined, 'a delete takes no body')
  t.equal(inputsOf(zoos, 'POST', false).query, NoQuerySchema)
  t.equal(inputsOf(zoos, 'POST', false).body, inputsOf(zoos, 'POST', false).body, 'compiled once')
  const nested = JSON.stringify(inputsOf(zooAnimals, 'POST', false).body)
  t.notMatch(nested, /"zoo_id"/, 'a nested create\'s body has no parent field: the path names it')
  t.match(JSON.stringify(inputsOf(zoos, 'POST', false).body), /"maxItems":1000/, 'an array creates up to 1000')
})

t.test('text holding a null byte is refused with the field named, in one record or an array', async t => {
  t.equal(thrown(() => refuseNullBytes({ name: 'a\u0000b' })).statusCode, 422)
  t.match(thrown(() => refuseNullBytes([{ name: 'ok' }, { city: '\u0000' }])).extra, { errors: [{ field: '1.city', code: 'pattern' }] })
  t.doesNotThrow(() => refuseNullBytes({ name: 'fine' }))
})

t.test('a nested create names its parent, which must be live when it runs', async t => {
  const planned = planWrite(asked(zooAnimals, 'POST', { parentId: 7, body: { name: 'Kit', species: 'cat', animal_type_id: 1 } }))
  t.match(planned.write, { op: 'create', collection: 'animals', parent: { collection: 'zoos', id: 7 }, many: false })
  t.match(planned.write, { inputs: [{ zoo_id: 7, name: 'Kit' }] })
  const answer = planned.answer([{ record: { id: 3, name: 'Kit' }, version: 2 }])
  t.same(answer, {
    status: 201,
    headers: { location: 'https://api.example/v1/animals/3', etag: '"2"' },
    body: { id: 3, name: 'Kit' }
  })
})

t.test('Prefer: return=minimal answers the same status and headers without a body, and says so', async t => {
  const planned = planWrite(asked(zoos, 'PATCH', { id: 4, body: { city: 'Bern' }, prefer: 'return=minimal' }))
  t.match(planned.write, { op: 'update', id: 4, values: { city: 'Bern' } })
  t.same(planned.answer({ record: { id: 4 }, version: 9 }), {
    status: 201,
    headers: { location: 'https://api.example/v1/zoos/4', etag: '"9"', 'preference-applied': 'return=minimal' }
  })
})

t.test('a record write checks If-Match, and a nested record that it is in the parent the path names', async t => {
  const planned = planWrite(asked(zooAnimals, 'DELETE', { parentId: 2, id: 5, ifMatch: '"3"' }))
  t.equal(planned.write.op, 'delete')
  const precondition = 'precondition' in planned.write ? planned.write.precondition : undefined
  if (precondition === undefined) throw new Error('no precondition')
  t.equal(thrown(() => precondition({ record: { id: 5, zoo_id: 1 }, version: 3 })).statusCode, 404, 'in another zoo')
  t.equal(thrown(() => precondition({ record: { id: 5, zoo_id: 2 }, version: 4 })).statusCode, 412, 'changed since')
  t.doesNotThrow(() => precondition({ record: { id: 5, zoo_id: 2 }, version: 3 }))
  t.same(planned.answer(undefined), { status: 204, headers: {} })
  t.equal(thrown(() => belongingTo(Animals, { parent: Zoos, field: 'zoo_id' }, 1, undefined)({ record: { id: 1, zoo_id: 9 }, version: 1 }))
    .message, 'animal 1 is not in zoo 1')
})

t.test('a change of many needs a filter, is narrowed to its parent\'s records, and is bounded as Prefer says', async t => {
  t.match(thrown(() => planWrite(asked(zoos, 'DELETE'))), { statusCode: 400, message: /needs at least one filter/ })
  const planned = planWrite(asked(zooAnimals, 'PATCH', {
    parentId: 3,
    query: { species: 'cat' },
    body: { born_on: null },
    prefer: 'max-affected=10, tx=rollback, return=representation'
  }))
  t.match(planned.write, {
    op: 'updateWhere',
    filters: [{ field: 'species', op: 'eq', value: 'cat' }],
    parent: { collection: 'zoos', id: 3, field: 'zoo_id' }
  }, 'the store narrows it to the records whose zoo_id names the parent (store/batching.ts)')
  t.match(planned.write, { max: 10 })
  t.equal(planned.dryRun, true)
  const answer = planned.answer({ records: [{ id: 1 }, { id: 2 }] })
  t.same(answer.body, { affected: 2, records: [{ id: 1 }, { id: 2 }] })
  t.match(answer.headers['preference-applied'], /max-affected=10/)
  const quiet = planWrite(asked(zoos, 'DELETE', { query: { city: 'Bern' } }))
  t.notOk('max' in quiet.write, 'no Prefer: no bound but WRITE_MAX_RECORDS')
  t.equal(quiet.dryRun, false)
  t.same(quiet.answer({ records: [{ id: 1 }] }), { status: 200, headers: {}, body: { affected: 1 } })
})
