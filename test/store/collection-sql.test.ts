import t from 'tap'
import { childrenOf } from '../../store/children-sql.ts'
import { CollectionSql } from '../../store/collection-sql.ts'
import type { Dialect } from '../../store/dialect.ts'
import { POSTGRES } from '../../store/postgres/dialect.ts'
import { SQLITE } from '../../store/sqlite/dialect.ts'
import { raw, type Sql } from '../../store/sql.ts'
import { Employees } from '../../schemas/employee.ts'
import { Zoos } from '../../schemas/zoo.ts'

/*
 * The SQL of a collection (store/collection-sql.ts) as each engine renders it: the same
 * statements, each engine's placeholders numbered in the order they stand, whatever order the
 * parts were made in.
 */

const render = (statement: Sql, dialect: Dialect) => statement.render(dialect.placeholder)

/** The numbers of a PostgreSQL statement's placeholders, in the order they stand. */
const numbers = (text: string): number[] => [...text.matchAll(/\$(\d+)/g)].map(match => Number(match[1]))

t.test('a list filter is a condition whose value is a parameter; a unique field compares without regard to ASCII case', async t => {
  const sqlite = new CollectionSql(Employees, SQLITE)
  const postgres = new CollectionSql(Employees, POSTGRES)
  const filters = [
    { field: 'email', op: 'eq' as const, value: 'Ann@Example.com' },
    { field: 'role', op: 'in' as const, value: ['keeper', 'vet'] },
    { field: 'zoo_id', op: 'ne' as const, value: 3 },
    { field: 'hired_on', op: 'eq' as const, value: null }
  ]
  t.same(render(sqlite.where(filters), SQLITE), {
    sql: ' WHERE "email" = ? AND "role" IN (?, ?) AND "zoo_id" IS NOT ? AND "hired_on" IS NULL',
    params: ['Ann@Example.com', 'keeper', 'vet', 3]
  })
  t.same(render(postgres.where(filters), POSTGRES), {
    sql: ' WHERE lower("email") = $1 AND "role" = ANY($2::text[]) AND "zoo_id" IS DISTINCT FROM $3 AND "hired_on" IS NULL',
    params: ['ann@example.com', ['keeper', 'vet'], 3]
  })
  t.same(render(sqlite.where([]), SQLITE), { sql: '', params: [] })
  t.same(render(postgres.count([{ field: 'q', op: 'search', value: ['ann', 'vet'] }]), POSTGRES), {
    sql: 'SELECT count(*) FROM "employees" WHERE search @@ $1::tsquery', params: ["'ann':* & 'vet':*"]
  })
})

t.test('a keyset position is a condition per range, the lead before the first key as in the ORDER BY', async t => {
  const zoos = new CollectionSql(Zoos, SQLITE)
  const sort = [{ field: 'name', direction: 'desc' as const }, { field: 'id', direction: 'desc' as const }]
  t.same(zoos.after(sort, ['B', 5], raw('+')).map(range => render(range, SQLITE)), [
    { sql: '(+"name" = ? AND "id" < ?)', params: ['B', 5] },
    { sql: '(+"name" < ?)', params: ['B'] }
  ])
  const employees = new CollectionSql(Employees, POSTGRES)
  const byHired = [{ field: 'hired_on', direction: 'desc' as const }, { field: 'email', direction: 'asc' as const }]
  t.same(employees.after(byHired, [null, 'Ann@X.org']).map(range => render(range, POSTGRES)), [
    { sql: '("hired_on" IS NULL AND lower("email") > $1)', params: ['ann@x.org'] }
  ], 'after a NULL in descending order, nothing of that key comes later')
})

t.test('every statement numbers its placeholders in the order they stand, one per value', async t => {
  const employees = new CollectionSql(Employees, POSTGRES)
  const zoos = new CollectionSql(Zoos, POSTGRES)
  const input = { name: 'Ann', role: 'vet', email: 'ann@x.org', zoo_id: 1, hired_on: null }
  const now = '2026-11-27T00:00:00.000Z'
  const search = employees.search
  if (search === undefined) throw new Error('employees have text fields')
  const statements: [string, Sql][] = [
    ['insert', employees.inserted(input, now).statement],
    ['insert on condition', employees.inserted(input, now, raw('true')).statement],
    ['update of a record read', employees.updated(7, { role: 'keeper' }, now, { current: { ...input, id: 7 }, version: 2 }).statement],
    ['update unread', employees.updated(7, { role: 'keeper', zoo_id: 2 }, now, { condition: raw('true') }).statement],
    ['update of many', employees.updatedEach([{ ...input, id: 7 }, { ...input, id: 8 }], { role: 'keeper' }, now)],
    ['update of many that sets no text', zoos.updatedEach([{ id: 1 }], { opened_on: '2000-01-01' }, now)],
    ['matching records', employees.matching([{ field: 'role', op: 'eq', value: 'vet' }, { field: 'email', op: 'gt', value: 'b' }], 11)],
    ['children', childrenOf(employees, 'zoo_id', [1, 2, 3], 5, [])],
    ['children within rules', childrenOf(employees, 'zoo_id', [1, 2], 5, [{ field: 'role', op: 'eq', value: 'vet' }])],
    ['a record within rules', employees.read(7, [{ field: '', op: 'any', value: [[{ field: 'zoo_id', op: 'in', value: [1, 2] }], []] }])],
    ['a record locked with its rules',
      employees.locked(7, { read: [{ field: 'role', op: 'ne', value: 'x' }], write: [], references: {}, fixed: [] })],
    ['an insert checked', employees.inserted(input, now, raw('true'), [{ field: 'zoo_id', op: 'eq', value: 1 }]).statement],
    ['an update of many checked',
      employees.updatedEach([{ ...input, id: 7 }], { role: 'keeper' }, now, [{ field: 'zoo_id', op: 'eq', value: 1 }])],
    ['tombstones', employees.buried([1, 2], now)],
    ['unique value taken', employees.taken('email', 'ann@x.org', 7)],
    ['unindexed', employees.unindexed(search, 100, 50).statement],
    ['indexing', employees.indexing(search, [1, 2], ['a\tb\tc', 'd\te\tf']) as Sql]
  ]
  for (const [what, statement] of statements) {
    const { sql, params } = render(statement, POSTGRES)
    t.same(numbers(sql), params.map((_, i) => i + 1), what)
  }
  const update = render(employees.updated(7, { role: 'keeper' }, now, { version: 2 }).statement, POSTGRES)
  t.match(update.sql, /^UPDATE "employees" SET "role" = \$1, updated_at = \$2, version = version \+ 1, /)
  t.match(update.sql, / WHERE id = \$\d+ AND search_words \?& ARRAY\['name', 'email'\]::text\[\] AND version = \$\d+ RETURNING /)
  t.same([update.params[0], update.params[1], update.params.at(-2), update.params.at(-1)], ['keeper', now, 7, 2])
})

t.test('a record is read by its id; a write holds what it reads where the engine locks rows', async t => {
  const sqlite = new CollectionSql(Zoos, SQLITE)
  const postgres = new CollectionSql(Zoos, POSTGRES)
  t.same(render(sqlite.read(4), SQLITE), {
    sql: 'SELECT "id", "name", "city", "country", "opened_on", "created_at", "updated_at", version FROM "zoos" WHERE id = ?', params: [4]
  })
  t.same(sqlite.versioned([4, 'Tierpark', 'Berlin', null, null, 'c', 'u', 3]), {
    record: { id: 4, name: 'Tierpark', city: 'Berlin', country: null, opened_on: null, created_at: 'c', updated_at: 'u' }, version: 3
  })
  t.same(render(sqlite.live(4, true), SQLITE), { sql: 'SELECT 1 FROM "zoos" WHERE id = ?', params: [4] })
  t.same(render(postgres.live(4, true), POSTGRES), { sql: 'SELECT 1 FROM "zoos" WHERE id = $1 FOR KEY SHARE', params: [4] })
  t.same(render(postgres.locked(4), POSTGRES).sql, `${render(postgres.read(4), POSTGRES).sql} FOR UPDATE`)
})
