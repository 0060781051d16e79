import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Type, type TSchema } from '@sinclair/typebox'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { defineResource, type Resource, type ResourceSpec } from '../../model/resource.ts'
import { Nullable } from '../../model/values.ts'
import { RESOURCES } from '../../schemas/index.ts'
import { Animals } from '../../schemas/animal.ts'
import { Zoos } from '../../schemas/zoo.ts'
import { planMigration, writeMigration } from '../../store/migration-plan.ts'
import { migrationsOf } from '../../store/migrations.ts'
import { tableFacts, wantedFacts } from '../../store/sqlite/schema.ts'

/*
 * npm run migrations (store/migration-plan.ts): the shipped migrations make exactly the tables
 * the resources describe, and a change of the resources becomes a new migration for both
 * engines, or is refused for one written by hand. PostgreSQL's side of the agreement is in
 * test/store/postgres/tables.test.ts.
 */

const SHIPPED = fileURLToPath(new URL('../../migrations', import.meta.url))

/** A copy of the shipped migrations, to write new ones into. */
function copy (t: Test): string {
  const folder = mkdtempSync(join(tmpdir(), 'zoo-migrations-'))
  t.teardown(() => rmSync(folder, { recursive: true, force: true }))
  cpSync(SHIPPED, folder, { recursive: true })
  return folder
}

/** The resources with one of them described again, changed by `change`. */
const changed = (resource: Resource, spec: Omit<ResourceSpec, 'name' | 'singular'>): Resource[] =>
  RESOURCES.map(r => r === resource ? defineResource({ name: r.name, singular: r.singular, ...spec }) : r)

t.test('the shipped migrations make exactly the tables the resources describe: npm run migrations has nothing to write', async t => {
  t.equal(planMigration(RESOURCES), undefined)
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  for (const migration of migrationsOf('sqlite')) db.exec(migration.sql)
  for (const resource of RESOURCES) t.same(tableFacts(db, resource.name).sort(), wantedFacts(resource).sort(), resource.name)
})

t.test('a new nullable field becomes a column with its indexes, on both engines, in a new file', async t => {
  const folder = copy(t)
  const resources = changed(Zoos, { fields: { ...fieldsOf(Zoos), motto: Type.Optional(Nullable(Type.String({ maxLength: 100 }))) } })
  const planned = planMigration(resources, folder)
  t.match(planned, {
    name: /^\d{3}_zoos\.sql$/,
    sqlite: /ALTER TABLE zoos ADD COLUMN motto TEXT;\nCREATE INDEX zoos_motto ON zoos \(motto\);\n$/,
    postgres: /ALTER TABLE zoos ADD COLUMN motto text COLLATE "C";\nCREATE INDEX zoos_motto ON zoos \(motto NULLS FIRST, id\);\n$/
  })
  writeMigration(folder, planned as NonNullable<typeof planned>)
  t.same(readdirSync(join(folder, 'postgres')).at(-1), planned?.name, 'after every shipped one')
  t.equal(planMigration(resources, folder), undefined, 'written once')
  t.throws(() => writeMigration(folder, planned as NonNullable<typeof planned>), { code: 'EEXIST' },
    'a written migration is never overwritten')
})

t.test('an index a resource asks for becomes its index on both engines, in a new file; a wrong one is refused', async t => {
  const folder = copy(t)
  const resources = changed(Zoos, { fields: fieldsOf(Zoos), indexes: [['country', 'opened_on', 'name']] })
  const planned = planMigration(resources, folder)
  t.match(planned, {
    name: /^\d{3}_zoos\.sql$/,
    sqlite: /\nCREATE INDEX zoos_country_opened_on_name ON zoos \(country, opened_on, name\);\n$/,
    postgres: /\nCREATE INDEX zoos_country_opened_on_name ON zoos \(country, opened_on NULLS FIRST, name NULLS FIRST, id\);\n$/
  })
  writeMigration(folder, planned as NonNullable<typeof planned>)
  t.equal(planMigration(resources, folder), undefined, 'written once')
  t.throws(() => planMigration(changed(Zoos, { fields: fieldsOf(Zoos) }), folder), /zoos has index zoos_country_opened_on_name/,
    'an index dropped from the resource is for an operator to drop')
  t.equal(planMigration(changed(Zoos, { fields: fieldsOf(Zoos), indexes: [['city']] })), undefined,
    'one that every collection has already is none more')
  t.throws(() => changed(Zoos, { fields: fieldsOf(Zoos), indexes: [['colour']] }), /indexes: \[colour\] must name fields of zoos/)
  t.throws(() => changed(Zoos, { fields: fieldsOf(Zoos), indexes: [['city', 'city']] }), /each once/)
})

t.test('what only an operator can decide is refused, each change named, for a migration written by hand', async t => {
  const { born_on: _bornOn, ...withoutBirth } = fieldsOf(Animals)
  const cases: [string, Resource[], RegExp][] = [
    ['a required field added to a table that has rows',
      changed(Zoos, { fields: { ...fieldsOf(Zoos), motto: Type.String() } }),
      /zoos\.motto: only a nullable, not unique column is added/],
    ['a field removed', changed(Animals, { fields: withoutBirth, references: { zoo_id: 'zoos' } }),
      /animals has column born_on TEXT, which its resource does not/],
    ['a type changed', changed(Zoos, { fields: { ...fieldsOf(Zoos), city: Type.Integer() } }), /zoos lacks column city INTEGER NOT NULL/],
    ['a field made nullable', changed(Zoos, { fields: { ...fieldsOf(Zoos), name: Type.Optional(Nullable(Type.String())) } }),
      /zoos lacks column name TEXT$/m],
    ['a reference added', changed(Animals, { fields: fieldsOf(Animals), references: { zoo_id: 'zoos', animal_type_id: 'zoos' } }),
      /animals lacks foreign key animal_type_id REFERENCES zoos/]
  ]
  for (const [what, resources, message] of cases) {
    t.throws(() => planMigration(resources), { message }, what)
    const byHand = new RegExp('^npm run migrations writes new collections, new nullable fields and the indexes resources ask for; ' +
      'these changes need a migration written by hand:')
    t.throws(() => planMigration(resources), { message: byHand })
  }
})

/** The fields of a shipped resource, as its schema file declares them. */
function fieldsOf (resource: Resource): ResourceSpec['fields'] {
  return Object.fromEntries(resource.writable.map(name => [name, resource.schemas.create.properties[name] as TSchema]))
}

t.test('two migrations of one engine with the same number are refused, both named', async t => {
  const folder = copy(t)
  cpSync(join(folder, 'sqlite', '080_search_prefixes.sql'), join(folder, 'sqlite', '080_keepers.sql'))
  t.throws(() => migrationsOf('sqlite', folder), {
    message: 'migrations/sqlite: 080_keepers.sql and 080_search_prefixes.sql have the same number; give the later one the next free number'
  })
  t.ok(migrationsOf('postgres', folder).length > 0, 'the other engine is not concerned')
})
