import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { RESOURCES } from '../../schemas/index.ts'
import { planMigration, writeMigration } from '../../store/migration-plan.ts'
import { migrationsOf } from '../../store/migrations.ts'
import { buildServing, call, create, routeTree } from '../helper.ts'
import { Exhibits } from './fixture/exhibits.ts'

/*
 * A collection of a user's own, of every kind of field (model/kinds.ts): string, integer,
 * number, boolean, date, timestamp, enum and a reference, nested under the collection it
 * references. It comes from nothing but its schema file (fixture/exhibits.ts), its two route
 * files (fixture/routes) and the migration npm run migrations writes for it, here into a copy of
 * the shipped migrations; on SQLite, and on PostgreSQL in the second pass.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The repository's route files and the two of the extra collection, at their places in the URL tree. */
const routes = (t: Test): string => routeTree(t, Object.fromEntries(['v1/exhibits/index.ts', 'v1/zoos/_zoo_id/exhibits/index.ts']
  .map(path => [path, fileURLToPath(new URL(`./fixture/routes/${path}`, import.meta.url))])))

/** The shipped migrations and the one npm run migrations writes for the extra collection, in a folder of the test's. */
function migrationsWithExhibits (t: Test): { folder: string, name: string } {
  // Apart from the test's folder, which is the data directory of the app it builds.
  const folder = mkdtempSync(join(tmpdir(), 'zoo-migrations-'))
  t.teardown(() => rmSync(folder, { recursive: true, force: true }))
  cpSync(join(ROOT, 'migrations'), folder, { recursive: true })
  const planned = planMigration([...RESOURCES, Exhibits], folder)
  if (planned === undefined) throw new Error('npm run migrations found nothing to write for exhibits')
  writeMigration(folder, planned)
  return { folder, name: planned.name }
}

async function serve (t: Test): Promise<FastifyInstance> {
  const { folder } = migrationsWithExhibits(t)
  return buildServing(t, { resources: [...RESOURCES, Exhibits], migrations: folder, routes: routes(t) })
}

const berlinBody = { name: 'Berlin Zoo', city: 'Berlin' }
const exhibit = (fields: Record<string, unknown> = {}) => ({
  name: 'Polar hall',
  climate: 'arctic',
  indoor: true,
  capacity: 40,
  area: 1250.5,
  opened_on: '2001-05-12',
  inspected_at: '2026-11-20T09:30:00.000Z',
  ...fields
})

t.test('npm run migrations writes the table, its indexes and (on PostgreSQL) its trigger, numbered after the shipped ones', async t => {
  const { folder, name } = migrationsWithExhibits(t)
  t.match(name, /^\d{3}_exhibits\.sql$/)
  const last = Math.max(...migrationsOf('sqlite').map(m => m.version), ...migrationsOf('postgres').map(m => m.version))
  t.ok(Number(name.slice(0, 3)) > last, 'numbered after every shipped migration')
  const sqlite = readFileSync(join(folder, 'sqlite', name), 'utf8')
  t.match(sqlite, 'CREATE TABLE exhibits (\n  id INTEGER PRIMARY KEY AUTOINCREMENT,\n  name TEXT NOT NULL,\n' +
    '  zoo_id INTEGER REFERENCES zoos (id) ON DELETE RESTRICT,')
  t.match(sqlite, /indoor INTEGER NOT NULL,\n {2}capacity INTEGER NOT NULL,\n {2}area REAL,/)
  t.match(sqlite, 'CREATE INDEX exhibits_zoo_id_climate ON exhibits (zoo_id, climate);')
  const postgres = readFileSync(join(folder, 'postgres', name), 'utf8')
  t.match(postgres, 'climate text COLLATE "C" NOT NULL,\n  indoor boolean NOT NULL,\n  capacity bigint NOT NULL,\n  area double precision,')
  t.match(postgres, 'CREATE INDEX exhibits_area ON exhibits (area NULLS FIRST, id);')
  t.match(postgres, 'CREATE TRIGGER exhibits_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON exhibits')
  t.equal(planMigration([...RESOURCES, Exhibits], folder), undefined, 'and then nothing more')
})

t.test('create, read, replace, change and delete, each kind kept as sent', async t => {
  const app = await serve(t)
  const zoo = await create(app, 'zoos', berlinBody)
  const created = await call(app, 'POST', '/v1/exhibits', exhibit({ zoo_id: zoo.id }))
  t.equal(created.statusCode, 201, created.body)
  const record = created.json()
  t.match(record, { ...exhibit({ zoo_id: zoo.id }), id: Number })
  t.equal(typeof record.indoor, 'boolean', 'a boolean reads back as one')
  t.same((await call(app, 'GET', `/v1/exhibits/${record.id}`)).json(), record)

  const replaced = await call(app, 'PUT', `/v1/exhibits/${record.id}`, { ...exhibit({ indoor: false, area: 3 }), climate: 'desert' })
  t.equal(replaced.statusCode, 201)
  t.match(replaced.json(), { indoor: false, area: 3, climate: 'desert', zoo_id: null }, 'PUT: a field left out is null')
  const changed = await call(app, 'PATCH', `/v1/exhibits/${record.id}`, { area: 0.25, indoor: true })
  t.match(changed.json(), { area: 0.25, indoor: true, climate: 'desert' })

  for (const [field, value] of [['climate', 'jungle'], ['indoor', 'yes'], ['area', '12'], ['capacity', 1.5], ['zoo_id', 999999]] as const) {
    const refused = await call(app, 'POST', '/v1/exhibits', exhibit({ [field]: value }))
    t.equal(refused.statusCode, 422, `${field}: ${String(value)}`)
    t.match(refused.json().errors, [{ field }])
  }
  t.equal((await call(app, 'DELETE', `/v1/exhibits/${record.id}`)).statusCode, 204)
  t.equal((await call(app, 'GET', `/v1/exhibits/${record.id}`)).statusCode, 410)
})

t.test('filters on every kind, with what each kind takes', async t => {
  const app = await serve(t)
  const zoo = await create(app, 'zoos', berlinBody)
  const rows = [
    exhibit({ name: 'A', climate: 'arctic', indoor: true, capacity: 10, area: 100.5, opened_on: '1990-01-01', zoo_id: zoo.id }),
    exhibit({ name: 'B', climate: 'desert', indoor: false, capacity: 20, area: null, opened_on: null, inspected_at: null }),
    exhibit({
      name: 'C', climate: 'tropical', indoor: true, capacity: 30, area: 7, opened_on: '2020-06-30', inspected_at: '2026-01-01T00:00:00.000Z'
    })
  ]
  for (const row of rows) await create(app, 'exhibits', row)
  const names = async (query: string): Promise<unknown> => {
    const res = await call(app, 'GET', `/v1/exhibits?${query}`)
    t.equal(res.statusCode, 200, `${query}: ${res.body}`)
    t.equal(res.headers['x-total-count'], String(res.json().length))
    return res.json().map((r: { name: string }) => r.name)
  }
  const cases: [string, string[]][] = [
    ['indoor=true', ['A', 'C']], ['indoor=false', ['B']], ['indoor_ne=true', ['B']], ['indoor_in=false,true', ['A', 'B', 'C']],
    ['area_gte=7', ['A', 'C']], ['area_lt=100.5', ['C']], ['area=null', ['B']], ['area_in=7,100.5', ['A', 'C']],
    ['capacity_gt=10&capacity_lte=30', ['B', 'C']], ['capacity_in=10,30', ['A', 'C']],
    ['climate=desert', ['B']], ['climate_in=arctic,tropical', ['A', 'C']], ['climate_gt=arctic', ['B', 'C']],
    ['climate_ne=arctic', ['B', 'C']],
    ['opened_on_lt=2000-01-01', ['A']], ['opened_on=null', ['B']],
    ['inspected_at_lt=2026-06-01T00:00:00%2B02:00', ['C']], ['inspected_at_ne=null', ['A', 'C']],
    [`zoo_id=${zoo.id}`, ['A']], ['zoo_id=null', ['B', 'C']], ['name_in=A,C', ['A', 'C']]
  ]
  for (const [query, expected] of cases) t.same(await names(query), expected, query)
  for (const query of ['indoor_gt=true', 'indoor=yes', 'climate=jungle', 'climate_in=arctic,jungle', 'area=big', 'area_in=1,x']) {
    const res = await call(app, 'GET', `/v1/exhibits?${query}`)
    t.equal(res.statusCode, 400, query)
    t.match(res.json(), { error: /^Invalid query: / })
  }
})

t.test('sorts by every kind, and a walk by keyset cursor reads each record once, in order', async t => {
  const app = await serve(t)
  const zoo = await create(app, 'zoos', berlinBody)
  const climates = ['tropical', 'arctic', 'desert', 'temperate']
  for (let i = 0; i < 12; i++) {
    await create(app, 'exhibits', exhibit({
      name: `E${String(i).padStart(2, '0')}`,
      zoo_id: i % 3 === 0 ? null : zoo.id,
      climate: climates[i % 4],
      indoor: i % 2 === 0,
      capacity: (i * 7) % 5,
      area: i % 4 === 0 ? null : (i * 13) % 7 + 0.5,
      opened_on: i % 5 === 0 ? null : `20${String(10 + (i % 6)).padStart(2, '0')}-01-01`,
      inspected_at: new Date(Date.UTC(2026, 0, 1 + (i % 4))).toISOString()
    }))
  }
  const all = (await call(app, 'GET', '/v1/exhibits?limit=100')).json() as Record<string, unknown>[]
  for (const field of Exhibits.writable) {
    for (const order of ['asc', 'desc'] as const) {
      // As both engines order: null first ascending, last descending; text by code point; false before true; ties by id.
      const expected = [...all].sort((x, y) => {
        const [p, q] = [x[field], y[field]]
        const byValue = p === q ? 0 : p === null ? -1 : q === null ? 1 : (p as number | string) < (q as number | string) ? -1 : 1
        return (order === 'asc' ? byValue : -byValue) || ((x.id as number) - (y.id as number)) * (order === 'asc' ? 1 : -1)
      }).map(r => r.id)
      const walked: unknown[] = []
      let url: string | undefined = `/v1/exhibits?sortby=${field}&order=${order}&limit=5`
      while (url !== undefined) {
        const page = await call(app, 'GET', url)
        walked.push(...page.json().map((r: { id: number }) => r.id))
        const next = /<http:\/\/[^/]+([^>]+)>; rel="next"/.exec(String(page.headers.link))
        url = next?.[1]
      }
      t.same(walked, expected, `sortby=${field}&order=${order}`)
    }
  }
})

t.test('nested under the collection it references, and that collection\'s deletes refused while it is named', async t => {
  const app = await serve(t)
  const berlin = await create(app, 'zoos', berlinBody)
  const vienna = await create(app, 'zoos', { name: 'Schönbrunn', city: 'Vienna' })
  const nested = await call(app, 'POST', `/v1/zoos/${berlin.id}/exhibits`, exhibit())
  t.equal(nested.statusCode, 201)
  t.equal(nested.json().zoo_id, berlin.id, 'zoo_id from the path')
  await create(app, 'exhibits', exhibit({ zoo_id: vienna.id }))
  const listed = await call(app, 'GET', `/v1/zoos/${berlin.id}/exhibits?indoor=true&sortby=area`)
  t.same(listed.json(), [nested.json()])
  t.equal(listed.headers['x-total-count'], '1')
  t.equal((await call(app, 'GET', `/v1/zoos/${vienna.id}/exhibits/${nested.json().id}`)).statusCode, 404, 'not in that zoo')
  const refused = await call(app, 'DELETE', `/v1/zoos/${berlin.id}`)
  t.equal(refused.statusCode, 409)
  t.match(refused.json().error, /still has exhibits/)
  t.equal((await call(app, 'DELETE', `/v1/zoos/${berlin.id}/exhibits/${nested.json().id}`)).statusCode, 204)
  t.equal((await call(app, 'DELETE', `/v1/zoos/${berlin.id}`)).statusCode, 204)
})

t.test('X-Total-Count follows every write', async t => {
  const app = await serve(t)
  const total = async (query: string) => Number((await call(app, 'GET', `/v1/exhibits?${query}`)).headers['x-total-count'])
  t.equal(await total('indoor=true'), 0)
  const first = await create(app, 'exhibits', exhibit({ indoor: true }))
  await create(app, 'exhibits', exhibit({ indoor: false }))
  t.same([await total('indoor=true'), await total('indoor=false'), await total('climate=arctic')], [1, 1, 2])
  await call(app, 'PATCH', `/v1/exhibits/${first.id}`, { indoor: false, climate: 'desert' })
  t.same([await total('indoor=true'), await total('indoor=false'), await total('climate=arctic')], [0, 2, 1])
  await call(app, 'DELETE', `/v1/exhibits/${first.id}`)
  t.same([await total('indoor=false'), await total('climate_in=arctic,desert')], [1, 1])
})

t.test('the OpenAPI document and the root document know the collection, and its scopes are the bootstrap client\'s', async t => {
  const app = await serve(t)
  const document = (await app.inject({ method: 'GET', url: '/documentation/json' })).json()
  t.ok(document.paths['/v1/exhibits'] !== undefined && document.paths['/v1/zoos/{zoo_id}/exhibits/{id}'] !== undefined)
  t.same(document.paths['/v1/exhibits'].get.security, [{ clientCredentials: ['exhibits:read'] }, { password: ['exhibits:read'] }])
  t.match(document.components.schemas.Exhibit.properties, {
    indoor: { type: 'boolean' },
    area: { type: ['number', 'null'] },
    climate: { type: 'string', enum: ['arctic', 'desert', 'temperate', 'tropical'] },
    zoo_id: { type: ['integer', 'null'] }
  })
  const list = document.paths['/v1/exhibits'].get.parameters.map((p: { name: string }) => p.name)
  t.ok(['indoor', 'indoor_ne', 'indoor_in', 'area_gte', 'climate_in'].every(name => list.includes(name)))
  t.notOk(list.includes('indoor_gt'), 'a boolean has no range')
  t.ok(document.tags.some((tag: { name: string }) => tag.name === 'exhibits'))
  const root = (await app.inject({ method: 'GET', url: '/' })).json()
  t.ok(root.links.some((link: { href: string }) => link.href.endsWith('/v1/exhibits')))
  const token = await call(app, 'GET', '/v1/exhibits')
  t.equal(token.statusCode, 200, 'the bootstrap client holds exhibits:read')
})
