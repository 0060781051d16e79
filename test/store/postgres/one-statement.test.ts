import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { etagOf } from '../../../collections/conditional.ts'
import { defineResource } from '../../../model/resource.ts'
import { CollectionSql } from '../../../store/collection-sql.ts'
import type { PostgresCollectionStores } from '../../../store/postgres/collections.ts'
import { apiOf, bearerWith, build as buildApp, call, create, POSTGRES_PASS, query, snapshot, storageOf } from '../../helper.ts'

/*
 * On PostgreSQL a write of one record is one statement that writes the record and its change
 * (store/postgres/one-statement.ts), and asks the token's standing again where it was accepted
 * before. Where it was not, or where the write checks the record first (If-Match, a nested path),
 * it is two round trips: the standing with the read of the record, then the write. These tests hold it to what a transaction of its own
 * guarantees: another instance's write between the read and the write, and a write the
 * constraints refuse, are answered as that transaction would answer them.
 */

type Pool = { query: (...args: unknown[]) => Promise<unknown>, connect: (...args: unknown[]) => Promise<unknown> }

/**
 * The app's pool, its statements counted and, once, the first that writes in one statement
 * preceded by `between`. The job worker and the webhooks' deliverer are stopped first: their
 * polls, on clocks of their own, take connections of the pool (a read of the queue, a transaction
 * that claims a job) that no request made.
 */
async function watched (t: Test, app: FastifyInstance) {
  await apiOf(app).jobs.stop()
  await apiOf(app).webhooks.stop()
  const pool = storageOf(app).collections as unknown as { pool: Pool }
  const { query: run, connect } = pool.pool
  const seen = { queries: 0, transactions: 0, between: undefined as (() => Promise<unknown>) | undefined }
  // A statement of the pool takes a connection too, at once: only the others are transactions.
  let querying = false
  pool.pool.query = async (...args: unknown[]) => {
    const text = String((args[0] as { text?: string }).text ?? args[0])
    seen.queries++
    const between = seen.between
    if (between !== undefined && text.startsWith('WITH written AS')) {
      seen.between = undefined
      await between()
    }
    querying = true
    try {
      return run.apply(pool.pool, args)
    } finally {
      querying = false
    }
  }
  pool.pool.connect = (...args: unknown[]) => {
    if (!querying) seen.transactions++
    return connect.apply(pool.pool, args)
  }
  t.teardown(() => {
    delete (pool.pool as Partial<Pool>).query
    delete (pool.pool as Partial<Pool>).connect
  })
  return seen
}

/** The changes the feed holds of a record, oldest first. */
const changesOf = async (app: FastifyInstance, collection: string, id: number) =>
  (await query(app, 'SELECT event, record FROM changes WHERE collection = ? AND record_id = ? ORDER BY position', [collection, id]))
    .map(({ event, record }) => ({ event, record: record === null ? null : JSON.parse(String(record)) }))

t.test('a write of one record is one statement on a standing accepted before, else two; never a transaction', POSTGRES_PASS, async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin' })
  const animal = await create(app, 'animals', { name: 'Knut', species: 'polar bear', animal_type_id: 1, zoo_id: zoo.id })
  const fresh = { authorization: await bearerWith(app, 'zoos:read zoos:write animals:write') }
  const seen = await watched(t, app)
  const writes = [
    ['PUT', `/v1/zoos/${zoo.id}`, { name: 'Tierpark Berlin', city: 'Berlin', opened_on: '1955-07-02' }, {}, 201, 2,
      'a token\'s first write: the standing with the record, then the write'],
    ['POST', '/v1/zoos', { name: 'Hellabrunn', city: 'München', country: 'DE' }, {}, 201, 1,
      'a create on a standing accepted before: one statement, which asks it again'],
    ['PATCH', `/v1/zoos/${zoo.id}`, { city: 'Berlin-Friedrichsfelde' }, {}, 201, 1, 'an update, unread'],
    ['PATCH', `/v1/zoos/${zoo.id}`, { country: 'DE' }, { 'if-match': etagOf(3) }, 201, 2, 'an update with If-Match: read, then written'],
    ['DELETE', `/v1/zoos/${zoo.id}/animals/${animal.id}`, undefined, {}, 204, 2,
      'a nested delete: the record, then the write, its parent a condition of it'],
    ['DELETE', `/v1/zoos/${zoo.id}`, undefined, {}, 204, 1, 'a delete, unread']
  ] as const
  for (const [method, path, body, headers, status, statements, what] of writes) {
    seen.queries = 0
    const res = await call(app, method, path, body, { ...fresh, ...headers })
    t.same([res.statusCode, seen.queries, seen.transactions], [status, statements, 0], `${method}: ${what}`)
  }
  const created = (await call(app, 'GET', '/v1/zoos?name=Hellabrunn')).json()[0]
  t.same(await changesOf(app, 'zoos', created.id), [{ event: 'created', record: created }])
  t.same((await changesOf(app, 'zoos', zoo.id)).map(change => [change.event, change.record?.city, change.record?.country]), [
    ['created', 'Berlin', undefined], ['updated', 'Berlin', undefined], ['updated', 'Berlin-Friedrichsfelde', undefined],
    ['updated', 'Berlin-Friedrichsfelde', 'DE'], ['deleted', undefined, undefined]
  ])
  t.same((await changesOf(app, 'animals', animal.id)).map(change => change.event), ['created', 'deleted'])
  t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}`)).statusCode, 410, 'the tombstone')
})

t.test('an update unread makes the search words of the fields it sets and those the record keeps', POSTGRES_PASS, async t => {
  const app = await build(t)
  const seen = await watched(t, app)
  const zoo = await create(app, 'zoos', { name: 'Tierpark Friedrichsfelde', city: 'Berlin' })
  const found = async (q: string) => (await call(app, 'GET', `/v1/zoos?q=${encodeURIComponent(q)}`)).json().map((z: { id: number }) => z.id)
  seen.queries = 0
  t.equal((await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Zürich' })).statusCode, 201)
  t.equal(seen.queries, 1, 'unread')
  t.same([await found('friedrichs zur'), await found('berlin')], [[zoo.id], []], 'the name\'s words kept, the city\'s new')
  t.same(await query(app, 'SELECT search_words FROM zoos WHERE id = ?', [zoo.id]),
    [{ search_words: { name: 'tierpark friedrichsfelde', city: 'zurich' } }])

  // A record written before the words were kept by field (as migration 111 leaves them until start-up indexes them).
  await query(app, 'UPDATE zoos SET search_words = NULL WHERE id = ?', [zoo.id])
  seen.queries = 0
  t.equal((await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { name: 'Wildpark' })).statusCode, 201)
  t.same([seen.queries, seen.transactions], [1, 1], 'tried unread, which wrote nothing; then written by a transaction that reads it')
  t.same([await found('wildpark zurich'), await found('tierpark')], [[zoo.id], []], 'the words made of the record as it is')
  t.same(await query(app, 'SELECT search_words FROM zoos WHERE id = ?', [zoo.id]), [{ search_words: { name: 'wildpark', city: 'zurich' } }])
})

t.test('the words kept are the fields\' by name: a field made searched since, or moved, is found as it should be', POSTGRES_PASS,
  async t => {
    const app = await build(t)
    const seen = await watched(t, app)
    const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Zürich', country: 'CH' })
    // As a version whose zoos searched only the city, before the name, would have kept them.
    await query(app, 'UPDATE zoos SET search_words = \'{"city": "zurich"}\' WHERE id = ?', [zoo.id])
    const found = async (q: string) => (await call(app, 'GET', `/v1/zoos?q=${q}`)).json().map((z: { id: number }) => z.id)
    seen.queries = 0
    t.equal((await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Basel' })).statusCode, 201)
    t.same([seen.queries, seen.transactions], [1, 1], 'the name\'s words not kept: written by a transaction that reads it')
    t.same([await found('tierpark+basel'), await found('zurich')], [[zoo.id], []])
    seen.queries = seen.transactions = 0
    t.equal((await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { name: 'Wildpark' })).statusCode, 201)
    t.same([seen.queries, seen.transactions], [1, 0], 'then unread, the city\'s words kept under its own name')
    t.same([await found('wildpark+basel'), await found('tierpark')], [[zoo.id], []])
  })

t.test('another write between the read and the write is answered as a transaction of its own would', POSTGRES_PASS, async t => {
  const app = await build(t)
  const seen = await watched(t, app)
  const elsewhere = (sql: string, params: unknown[]) => { seen.between = () => query(app, sql, params) }

  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin' })
  // Another instance's write, which keeps the words by field as every write does.
  elsewhere('UPDATE zoos SET name = \'Wildpark\', search_words = jsonb_set(search_words, \'{name}\', \'"wildpark"\'), ' +
    'version = version + 1 WHERE id = ?', [zoo.id])
  const patched = await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Potsdam' })
  t.same([patched.statusCode, patched.json().name, patched.json().city, patched.headers.etag], [201, 'Wildpark', 'Potsdam', etagOf(3)],
    'written on the record as it is now')
  const found = await call(app, 'GET', '/v1/zoos?q=wildpark%20potsdam')
  t.same(found.json().map((z: { id: number }) => z.id), [zoo.id], 'its search words made of the name the other write set')

  const conditional = [['PATCH', { city: 'Berlin' }], ['PUT', { name: 'Tierpark', city: 'Berlin' }], ['DELETE', undefined]] as const
  const counted = async () =>
    Number((await query(app, 'SELECT sum(changes) AS n FROM collection_changes WHERE collection = ?', ['zoos']))[0]?.n)
  for (const [method, body] of conditional) {
    const etag = String((await call(app, 'GET', `/v1/zoos/${zoo.id}`)).headers.etag)
    elsewhere("UPDATE zoos SET city = 'Cottbus', version = version + 1 WHERE id = ?", [zoo.id])
    const before = await counted()
    const res = await call(app, method, `/v1/zoos/${zoo.id}`, body, { 'if-match': etag })
    t.same([res.statusCode, seen.between], [412, undefined], `${method} with If-Match of the version read, changed before the write`)
    t.equal(await counted(), before + 1, 'the other write counted, the write that found the record changed not')
  }
  const [other, animal] = [
    await create(app, 'zoos', { name: 'Zoo Leipzig', city: 'Leipzig' }),
    await create(app, 'animals', { name: 'Knut', species: 'polar bear', animal_type_id: 1, zoo_id: zoo.id })
  ]
  elsewhere('UPDATE animals SET zoo_id = ?, version = version + 1 WHERE id = ?', [other.id, animal.id])
  t.equal((await call(app, 'DELETE', `/v1/zoos/${zoo.id}/animals/${animal.id}`)).statusCode, 404, 'moved out of the zoo of the path')
  t.equal((await call(app, 'GET', `/v1/animals/${animal.id}`)).json().zoo_id, other.id, 'and not deleted')

  elsewhere('WITH gone AS (DELETE FROM animals WHERE id = ? RETURNING id) ' +
    "INSERT INTO tombstones (collection, id, deleted_at) SELECT 'animals', id, '2026-11-26T00:00:00.000Z' FROM gone", [animal.id])
  t.equal((await call(app, 'PATCH', `/v1/animals/${animal.id}`, { name: 'Knut II' })).statusCode, 410, 'deleted meanwhile')
  t.equal(seen.between, undefined, 'every other write came between a read and a write')
  t.same((await changesOf(app, 'zoos', zoo.id)).map(change => change.event), ['created', 'updated'], 'the feed has what was written')
  t.same((await changesOf(app, 'animals', animal.id)).map(change => change.event), ['created'])
})

t.test('what the constraints refuse is refused with the checks\' own answer, and nothing is written', POSTGRES_PASS, async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin' })
  await create(app, 'animals', { name: 'Knut', species: 'polar bear', animal_type_id: 1, zoo_id: zoo.id })
  const employee = await create(app, 'employees', { name: 'Ada', role: 'keeper', email: 'ada@zoo.test' })
  const other = await create(app, 'employees', { name: 'Grace', role: 'vet', email: 'grace@zoo.test' })
  const before = await snapshot(app)
  const refused = [
    ['POST', '/v1/animals', { name: 'Bao', species: 'panda', animal_type_id: 2, zoo_id: 999 }, 422,
      'Validation failed: zoo_id 999 names no existing record of zoos'],
    ['POST', '/v1/employees', { name: 'Bea', role: 'vet', email: 'ADA@zoo.test' }, 422,
      'Validation failed: email "ADA@zoo.test" is already used by another employee'],
    ['PATCH', `/v1/employees/${employee.id}`, { zoo_id: 998 }, 422, 'Validation failed: zoo_id 998 names no existing record of zoos'],
    ['PATCH', `/v1/employees/${other.id}`, { email: 'Ada@Zoo.test' }, 422,
      'Validation failed: email "Ada@Zoo.test" is already used by another employee'],
    ['DELETE', `/v1/zoos/${zoo.id}`, undefined, 409, `zoo ${zoo.id} still has animals; delete or move them first`]
  ] as const
  for (const [method, path, body, status, error] of refused) {
    const res = await call(app, method, path, body)
    t.same([res.statusCode, res.json().error], [status, error], `${method} ${path}`)
  }
  t.same(await snapshot(app), before, 'nothing written: no record, tombstone, change or counter')
})

t.test('a collection of many fields is written in one statement too, the feed keeping every field', POSTGRES_PASS, async t => {
  const app = await build(t)
  // More fields than a function of PostgreSQL takes arguments (100) as name and value pairs.
  const names = Array.from({ length: 60 }, (_, i) => `field_${i}`)
  const wide = defineResource({ name: 'wide', singular: 'wide', fields: Object.fromEntries(names.map(name => [name, Type.String()])) })
  const columns = names.map(name => `${name} text NOT NULL`).join(', ')
  await query(app, `CREATE TABLE wide (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, ${columns}, ` +
    'created_at text NOT NULL, updated_at text NOT NULL, version bigint NOT NULL DEFAULT 1, search tsvector, search_words jsonb)')
  const { feed, pool } = storageOf(app).collections as PostgresCollectionStores
  // Loaded here, in the PostgreSQL pass only: the SQLite pass's coverage counts what it loads.
  const [{ POSTGRES }, { OneStatementWrites }] = await Promise.all([
    import('../../../store/postgres/dialect.ts'), import('../../../store/postgres/one-statement.ts')
  ])
  const writes = new OneStatementWrites(new CollectionSql(wide, POSTGRES), feed)
  const input = Object.fromEntries(names.map(name => [name, `value of ${name}`]))
  const at = '2026-11-26T00:00:00.000Z'
  const { sql, params } = writes.created(input, at)
  const { rows: [written] } = await pool.query<{ id: string }>(sql, params)
  const id = Number(written?.id)
  const later = '2026-11-27T00:00:00.000Z'
  const update = writes.updated(id, { field_59: 'changed' }, later, {})
  await pool.query(update.sql, update.params)
  const record = { id, ...input, created_at: at, updated_at: at }
  t.same(await changesOf(app, 'wide', id), [
    { event: 'created', record }, { event: 'updated', record: { ...record, field_59: 'changed', updated_at: later } }
  ])
  const [words] = await query(app, 'SELECT search_words FROM wide WHERE id = ?', [id])
  const kept = names.map((name, i) => [name, i === 59 ? 'changed' : `value of ${name.replace('_', ' ')}`])
  t.same(words?.search_words, Object.fromEntries(kept),
    'the words of the field set, the others\' as kept')
})

/** The app, once it has answered a request: its storage is open. */
async function build (t: Test): Promise<FastifyInstance> {
  const app = await buildApp(t)
  await call(app, 'GET', '/v1/zoos')
  return app
}
