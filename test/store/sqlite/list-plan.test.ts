import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { Animals } from '../../../schemas/animal.ts'
import { Employees } from '../../../schemas/employee.ts'
import { Zoos } from '../../../schemas/zoo.ts'
import type { Resource } from '../../../model/resource.ts'
import { CollectionSql } from '../../../store/collection-sql.ts'
import { sql } from '../../../store/sql.ts'
import { SqliteCollectionStores } from '../../../store/sqlite/collections.ts'
import { SQLITE } from '../../../store/sqlite/dialect.ts'
import { ListQueries, readIndexes } from '../../../store/sqlite/list.ts'
import { openDatabase } from '../../../store/sqlite/database.ts'
import type { ListQuery } from '../../../store/contract.ts'

/** The migrated schema, empty: plans depend on the indexes and the counts the store passes, not on data. */
function setUp (t: Test): Database.Database {
  const db = openDatabase(t.testdir())
  t.teardown(() => db.close())
  return db
}

const queriesOf = (db: Database.Database, resource: Resource): ListQueries =>
  new ListQueries(new CollectionSql(resource, SQLITE), readIndexes(db, resource.name).indexes)

/** SQLite's plan of each statement, one line per statement. */
function plans (db: Database.Database, queries: ListQueries, query: ListQuery, matching: number, size: number): string[] {
  return queries.page(query, matching, size).map(page => {
    const { sql: text, params } = sql`${page} LIMIT ${query.limit} OFFSET ${query.offset}`.render(SQLITE.placeholder)
    const steps = db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]
    return steps.map(r => r.detail).join(' | ')
  })
}

const byName = { field: 'name', direction: 'desc' as const }
const lastId = { field: 'id', direction: 'desc' as const }
const german = { field: 'country', op: 'eq' as const, value: 'DE' }

t.test('many matches: the sort index is walked and the page read without sorting', async t => {
  const db = setUp(t)
  const zoos = queriesOf(db, Zoos)
  const [plan] = plans(db, zoos, { filters: [german], sort: [byName, lastId], limit: 21, offset: 0 }, 20_000, 100_000)
  t.equal(plan, 'SCAN zoos USING INDEX zoos_name')
})

t.test('few matches: the filter index fetches them and they are sorted', async t => {
  const db = setUp(t)
  const zoos = queriesOf(db, Zoos)
  const [plan] = plans(db, zoos, { filters: [german], sort: [byName, lastId], limit: 21, offset: 0 }, 50, 100_000)
  t.equal(plan, 'SEARCH zoos USING INDEX zoos_country (country=?) | USE TEMP B-TREE FOR ORDER BY')
})

t.test('a deep offset makes walking dearer than filtering first', async t => {
  const db = setUp(t)
  const zoos = queriesOf(db, Zoos)
  const query = { filters: [german], sort: [byName, lastId], limit: 21, offset: 19_000 }
  t.match(plans(db, zoos, query, 20_000, 100_000)[0], /^SEARCH zoos USING INDEX zoos_country/)
  t.equal(plans(db, zoos, { ...query, offset: 100 }, 20_000, 100_000)[0], 'SCAN zoos USING INDEX zoos_name')
})

t.test('a deep offset without filters walks the table: sorting every row would cost far more than skipping them', async t => {
  const db = setUp(t)
  const zoos = queriesOf(db, Zoos)
  const byId = [{ field: 'id', direction: 'asc' as const }]
  t.same(plans(db, zoos, { filters: [], sort: byId, limit: 21, offset: 99_980 }, 100_000, 100_000), ['SCAN zoos'])
  const byNameDeep: ListQuery = { filters: [], sort: [{ field: 'name', direction: 'asc' }, ...byId], limit: 21, offset: 99_980 }
  t.same(plans(db, zoos, byNameDeep, 100_000, 100_000), ['SCAN zoos USING INDEX zoos_name'])
})

t.test('no filter an index can serve: the sort index is walked unless scanning the table reads fewer rows', async t => {
  const db = setUp(t)
  const zoos = queriesOf(db, Zoos)
  const query = { filters: [{ ...german, op: 'ne' as const }], sort: [byName, lastId], limit: 21, offset: 0 }
  t.equal(plans(db, zoos, query, 80_000, 100_000)[0], 'SCAN zoos USING INDEX zoos_name')
  t.equal(plans(db, zoos, query, 10, 100_000)[0], 'SCAN zoos | USE TEMP B-TREE FOR ORDER BY')
})

t.test('the default sort walks the table itself', async t => {
  const db = setUp(t)
  const zoos = queriesOf(db, Zoos)
  const everyZoo: ListQuery = { filters: [], sort: [{ field: 'id', direction: 'asc' }], limit: 21, offset: 0 }
  t.equal(plans(db, zoos, everyZoo, 100_000, 100_000)[0], 'SCAN zoos')
  const created = { field: 'created_at', op: 'gte' as const, value: '2026-01-01T00:00:00.000Z' }
  const recentZoos: ListQuery = { filters: [created], sort: [{ field: 'id', direction: 'desc' }], limit: 21, offset: 0 }
  t.equal(plans(db, zoos, recentZoos, 90_000, 100_000)[0], 'SCAN zoos')
})

t.test('a search is tested on the walked index entry alone: with one match in a hundred the sort index is walked', async t => {
  const db = setUp(t)
  const zoos = queriesOf(db, Zoos)
  const berlin = { field: 'q', op: 'search' as const, value: ['berlin'] }
  const query: ListQuery = { filters: [berlin], sort: [byName, lastId], limit: 21, offset: 0 }
  const matchesListed = 'LIST SUBQUERY 1 | SCAN zoos_search VIRTUAL TABLE INDEX 0:M1'
  // Matched from the start: after it, SQLite may add a Bloom filter of the listed matches, as its version decides.
  t.match(plans(db, zoos, query, 1000, 100_000)[0], `SCAN zoos USING INDEX zoos_name | ${matchesListed}`)
  t.equal(plans(db, zoos, query, 50, 100_000)[0],
    `SEARCH zoos USING INTEGER PRIMARY KEY (rowid=?) | ${matchesListed} | USE TEMP B-TREE FOR ORDER BY`, 'few matches: fetched and sorted')
  const berlinOutsideGermany = { ...query, filters: [berlin, { ...german, op: 'ne' as const }] }
  t.match(plans(db, zoos, berlinOutsideGermany, 1000, 100_000)[0], /^SEARCH zoos USING INTEGER PRIMARY KEY/,
    'another filter needs each walked row: fetching the matches first reads fewer')
})

t.test('a nested collection walks the (zoo_id, field) index within the zoo, whatever the counts', async t => {
  const db = setUp(t)
  const inZoo = { field: 'zoo_id', op: 'eq' as const, value: 7 }
  const sortedFields = [[Animals, 'born_on'], [Animals, 'species'], [Employees, 'email'], [Employees, 'hired_on']] as const
  for (const [resource, field] of sortedFields) {
    const queries = queriesOf(db, resource)
    const [plan] = plans(db, queries, {
      filters: [inZoo],
      sort: [{ field, direction: 'asc' }, { field: 'id', direction: 'asc' }],
      limit: 21,
      offset: 0
    }, 1, 1_000_000)
    t.equal(plan, `SEARCH ${resource.name} USING INDEX ${resource.name}_zoo_id_${field} (zoo_id=?)`, `${resource.name} by ${field}`)
  }
  const newestInZoo: ListQuery = { filters: [inZoo], sort: [{ field: 'id', direction: 'desc' }], limit: 21, offset: 0 }
  const [byId] = plans(db, queriesOf(db, Animals), newestInZoo, 1, 1_000_000)
  t.equal(byId, 'SEARCH animals USING INDEX animals_zoo_id (zoo_id=?)', 'by id: the zoo_id index holds each zoo in id order')
})

t.test('a cursor page is a sequence of index ranges, never a scan from the start', async t => {
  const db = setUp(t)
  const zoos = queriesOf(db, Zoos)
  const query = { filters: [german], sort: [byName, lastId], limit: 21, offset: 0, after: ['zoo 5', 500] }
  t.same(plans(db, zoos, query, 20_000, 100_000), [
    'SEARCH zoos USING INDEX zoos_name (name=? AND rowid<?)',
    'SEARCH zoos USING INDEX zoos_name (name<?)'
  ])

  const byCountry = { field: 'country', direction: 'desc' as const }
  t.same(plans(db, zoos, { filters: [], sort: [byCountry, lastId], limit: 21, offset: 0, after: ['FR', 500] }, 100_000, 100_000), [
    'SEARCH zoos USING INDEX zoos_country (country=? AND rowid<?)',
    'SEARCH zoos USING INDEX zoos_country (country<?)',
    'SEARCH zoos USING INDEX zoos_country (country=?)'
  ], 'descending on a nullable key: smaller values, then the NULLs last')
  const ascendingFromNull: ListQuery = {
    filters: [],
    sort: [{ ...byCountry, direction: 'asc' }, { ...lastId, direction: 'asc' }],
    limit: 21,
    offset: 0,
    after: [null, 500]
  }
  t.same(plans(db, zoos, ascendingFromNull, 100_000, 100_000), [
    'SEARCH zoos USING INDEX zoos_country (country=? AND rowid>?)',
    'SEARCH zoos USING INDEX zoos_country (country>?)'
  ], 'ascending from a NULL: the rest of the NULLs, then every value')
  t.same(plans(db, zoos, { filters: [], sort: [byCountry, lastId], limit: 21, offset: 0, after: [null, 500] }, 100_000, 100_000), [
    'SEARCH zoos USING INDEX zoos_country (country=? AND rowid<?)'
  ], 'descending from a NULL: only the rest of the NULLs')
})

t.test('an offset with a cursor is a caller error', async t => {
  const db = setUp(t)
  t.throws(() => queriesOf(db, Zoos).page({ filters: [], sort: [lastId], limit: 21, offset: 5, after: [9] }, 10, 10), /no offset/)
})

t.test('a table without an index on a sortable column is refused at start-up', async t => {
  const db = setUp(t)
  db.exec('DROP INDEX zoos_city')
  t.throws(() => new SqliteCollectionStores(db, [Zoos]),
    { message: 'table zoos does not match the zoo resource: it lacks index zoos_city (city)' })
})

t.test('partial and expression indexes are not walked; collations come from the indexes', async t => {
  const db = setUp(t)
  db.exec("CREATE INDEX zoos_lower_name ON zoos (lower(name)); CREATE INDEX zoos_berlin ON zoos (name) WHERE city = 'Berlin'")
  const { indexes, collations } = readIndexes(db, 'zoos')
  t.notOk(indexes.some(i => i.name === 'zoos_lower_name' || i.name === 'zoos_berlin'))
  t.equal(collations.get('name'), 'BINARY')
  t.equal(readIndexes(db, 'employees').collations.get('email'), 'NOCASE')
})
