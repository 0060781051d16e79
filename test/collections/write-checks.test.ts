import t from 'tap'
import { BatchRefusal, type Filter, type Write } from '../../store/contract.ts'
import { build, create, query, snapshot, storageOf } from '../helper.ts'

/*
 * A write runs one way, alone or in a batch (store/batching.ts's `running`), and on PostgreSQL a
 * write of one record alone as one statement made from the same write: each check the plan puts in
 * a write (a nested path's parent, seen by the token; a precondition) is made on every one of
 * them. Run on the engine of the pass: on PostgreSQL, alone is the one-statement path.
 */

const IN_FRANCE: Filter[] = [{ field: 'country', op: 'eq', value: 'FR' }]

t.test('a write\'s parent and precondition hold alone and in a batch, and nothing is written where they fail', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin', country: 'DE' })
  const knut = await create(app, 'animals', { name: 'Knut', species: 'bear', animal_type_id: 1, zoo_id: zoo.id })
  const { collections } = storageOf(app)
  const unseen = { collection: 'zoos', id: zoo.id, field: 'zoo_id', within: IN_FRANCE }
  const refusing = () => { throw new Error('the precondition refuses') }
  const kit = { name: 'Kit', species: 'cat', animal_type_id: 1, zoo_id: zoo.id }
  const writes: [string, Write, RegExp][] = [
    ['a create whose parent the token does not see',
      { collection: 'animals', op: 'create', inputs: [kit], many: false, parent: unseen },
      /no zoo with id/],
    ['an update whose parent the token does not see',
      { collection: 'animals', op: 'update', id: knut.id, values: { name: 'Knut II' }, parent: unseen }, /no zoo with id/],
    ['a delete whose parent the token does not see',
      { collection: 'animals', op: 'delete', id: knut.id, parent: unseen }, /no zoo with id/],
    ['an update its precondition refuses',
      { collection: 'animals', op: 'update', id: knut.id, values: { name: 'Knut II' }, precondition: refusing }, /precondition refuses/],
    ['a delete its precondition refuses',
      { collection: 'zoos', op: 'delete', id: zoo.id, precondition: refusing }, /precondition refuses/]
  ]
  const before = await snapshot(app)
  for (const [name, write, refusal] of writes) {
    await t.rejects(collections.write(write, { records: 10 }), { message: refusal }, `${name}: alone`)
    const refused = await collections.batch(done => done.length === 0 ? write : undefined, { records: 10 }).catch((err: unknown) => err)
    t.ok(refused instanceof BatchRefusal, `${name}: in a batch`)
    t.match(refused, { index: 0, reason: { message: refusal } })
  }
  t.same(await snapshot(app), before, 'nothing written, not even a change counted or fed')

  const seen = { ...unseen, within: [{ field: 'country', op: 'eq', value: 'DE' }] satisfies Filter[] }
  await collections.write({ collection: 'animals', op: 'update', id: knut.id, values: { name: 'Knut II' }, parent: seen }, { records: 10 })
  await collections.write({ collection: 'animals', op: 'delete', id: knut.id, parent: seen }, { records: 10 })
  t.same(await query(app, 'SELECT count(*) AS n FROM animals'), [{ n: 0 }], 'where the parent is seen, they write')
})
