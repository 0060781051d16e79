import { Type } from '@sinclair/typebox'
import t, { type Test } from 'tap'
import { defineResource, type ResourceSpec } from '../../../collections/resource.ts'
import { Nullable } from '../../../schemas/common.ts'
import { RESOURCES } from '../../../schemas/index.ts'
import { SqliteStore } from '../../../store/sqlite/collections.ts'
import { openDatabase } from '../../../store/sqlite/database.ts'

function migrated (t: Test) {
  const db = openDatabase(t.testdir())
  t.teardown(() => db.close())
  return db
}

const animals = (change: Partial<ResourceSpec>) => defineResource({
  name: 'animals',
  singular: 'animal',
  fields: { name: Type.String(), species: Type.String(), animal_type_id: Type.Integer(), zoo_id: Type.Optional(Nullable(Type.Integer())) },
  references: { zoo_id: 'zoos' },
  ...change
})

t.test('the resources and the migrated tables agree', async t => {
  const db = migrated(t)
  t.doesNotThrow(() => new SqliteStore(db, RESOURCES))
})

t.test('start-up refuses a table that disagrees with its resource, naming the difference', async t => {
  const db = migrated(t)
  const refused = (change: Partial<ResourceSpec>, message: RegExp, what: string) =>
    t.throws(() => new SqliteStore(db, [animals(change)]), { message }, what)
  refused({ name: 'giraffes' }, /table giraffes .*: the table does not exist/, 'a resource without a table')
  refused({ fields: { name: Type.String(), weight: Type.Integer() }, references: {} }, /column weight is missing/,
    'a field without a column')
  refused({ fields: { name: Type.Integer() }, references: {} }, /column name is TEXT, not INTEGER/, 'a field of another type')
  refused({ fields: { name: Type.Optional(Nullable(Type.String())) }, references: {} }, /column name is NOT NULL, the field is nullable/,
    'a nullable field in a NOT NULL column')
  refused({ fields: { born_on: Type.String({ format: 'date' }) }, references: {} }, /column born_on is NULL, the field is not nullable/,
    'a required field in a nullable column')
  refused({ references: { animal_type_id: 'zoos' } }, /column animal_type_id is not a foreign key to zoos/,
    'a reference without a foreign key')
  refused({ unique: ['species'] }, /column species has no unique index/, 'a unique field without a unique index')
  t.doesNotThrow(() => new SqliteStore(db, [animals({})]), 'a resource naming only some of the columns')
})
