import { Type } from '@sinclair/typebox'
import t, { type Test } from 'tap'
import { defineResource, type ResourceSpec } from '../../../model/resource.ts'
import { Nullable } from '../../../model/values.ts'
import { RESOURCES } from '../../../schemas/index.ts'
import { SqliteCollectionStores } from '../../../store/sqlite/collections.ts'
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
  t.doesNotThrow(() => new SqliteCollectionStores(db, RESOURCES))
})

t.test('start-up refuses a table that disagrees with its resource, naming the difference', async t => {
  const db = migrated(t)
  const refused = (change: Partial<ResourceSpec>, message: RegExp, what: string) =>
    t.throws(() => new SqliteCollectionStores(db, [animals(change)]), { message }, what)
  refused({ name: 'giraffes' }, /table giraffes .*: the table does not exist/, 'a resource without a table')
  refused({ fields: { name: Type.String(), weight: Type.Integer() }, references: {} }, /it lacks column weight INTEGER NOT NULL$/,
    'a field without a column')
  refused({ fields: { name: Type.Integer() }, references: {} },
    /it lacks column name INTEGER NOT NULL \(it has column name TEXT NOT NULL\)$/, 'a field of another type')
  refused({ fields: { name: Type.Optional(Nullable(Type.String())) }, references: {} },
    /it lacks column name TEXT \(it has column name TEXT NOT NULL\)$/, 'a nullable field in a NOT NULL column')
  refused({ fields: { born_on: Type.String({ format: 'date' }) }, references: {} },
    /it lacks column born_on TEXT NOT NULL \(it has column born_on TEXT\)$/, 'a required field in a nullable column')
  refused({ references: { animal_type_id: 'zoos' } }, /it lacks foreign key animal_type_id REFERENCES zoos \(id\) ON DELETE RESTRICT$/,
    'a reference without a foreign key')
  refused({ unique: ['species'] }, /it lacks unique \(species COLLATE NOCASE\)$/, 'a unique field without a unique index')
  db.exec('DROP INDEX animals_zoo_id_species')
  refused({}, /it lacks index animals_zoo_id_species \(zoo_id, species\)$/, 'an index a nested list needs')
})

t.test('a resource naming only some of the columns is served', async t => {
  t.doesNotThrow(() => new SqliteCollectionStores(migrated(t), [animals({})]))
})
