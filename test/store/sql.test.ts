import t from 'tap'
import { counted, identifier, join, list, numbered, raw, sql, Sql } from '../../store/sql.ts'

/*
 * The SQL builder (store/sql.ts): fragments keep their values apart from their text, compose in
 * any order, and are numbered only when rendered, in the order the placeholders stand.
 */

const QUESTION = (): string => '?'
const DOLLAR = (n: number): string => `$${n}`

t.test('a value becomes a placeholder, numbered in the order of the text when rendered', async t => {
  const statement = sql`SELECT * FROM zoos WHERE id = ${7} AND name = ${'Berlin'}`
  t.same(statement.render(DOLLAR), { sql: 'SELECT * FROM zoos WHERE id = $1 AND name = $2', params: [7, 'Berlin'] })
  t.same(statement.render(QUESTION), { sql: 'SELECT * FROM zoos WHERE id = ? AND name = ?', params: [7, 'Berlin'] })
})

t.test('fragments made in any order are numbered where they end up standing', async t => {
  // The condition is made before the limit and put after it in the text: its values come first all the same.
  const limit = sql`LIMIT ${20}`
  const conditions = [sql`city = ${'Paris'}`, sql`opened > ${1900}`]
  const statement = sql`SELECT * FROM zoos WHERE ${join(conditions, ' AND ')} ${limit} OFFSET ${40}`
  t.same(statement.render(DOLLAR), {
    sql: 'SELECT * FROM zoos WHERE city = $1 AND opened > $2 LIMIT $3 OFFSET $4',
    params: ['Paris', 1900, 20, 40]
  })
  const nested = sql`SELECT * FROM (${statement}) AS page WHERE id <> ${5}`
  t.same(nested.render(DOLLAR).params, ['Paris', 1900, 20, 40, 5])
  t.match(nested.render(DOLLAR).sql, /LIMIT \$3 OFFSET \$4\) AS page WHERE id <> \$5$/)
  t.same(statement.render(DOLLAR).params, ['Paris', 1900, 20, 40], 'a fragment taken into another is left as it was')
})

t.test('a fragment used twice gives its values twice', async t => {
  const words = sql`ARRAY[${'a'}, ${'b'}]`
  t.same(sql`f(${words}), g(${words})`.render(DOLLAR), { sql: 'f(ARRAY[$1, $2]), g(ARRAY[$3, $4])', params: ['a', 'b', 'a', 'b'] })
})

t.test('values are never written into the text, whatever they hold', async t => {
  const value = "x'; DROP TABLE zoos; --"
  t.same(sql`SELECT ${value}`.render(QUESTION), { sql: 'SELECT ?', params: [value] })
  t.same(sql`SELECT ${null}, ${[1, 2]}, ${undefined}`.render(DOLLAR), { sql: 'SELECT $1, $2, $3', params: [null, [1, 2], undefined] })
})

t.test('raw text, identifiers, joins and lists', async t => {
  t.same(sql`SELECT ${identifier('we"ird')} FROM ${raw('zoos')}`.render(DOLLAR), { sql: 'SELECT "we""ird" FROM zoos', params: [] })
  t.same(join([], ' AND ').render(DOLLAR), { sql: '', params: [] })
  t.same(join([sql`a = ${1}`], ' AND ').render(DOLLAR), { sql: 'a = $1', params: [1] })
  t.same(sql`id IN (${list([3, 1, 2])})`.render(QUESTION), { sql: 'id IN (?, ?, ?)', params: [3, 1, 2] })
  t.same(sql`id IN (${list([3, 1, 2])}) AND x = ${9}`.render(DOLLAR), { sql: 'id IN ($1, $2, $3) AND x = $4', params: [3, 1, 2, 9] })
})

t.test('a count is written into the text, and only a whole number from 0 up is', async t => {
  t.same(sql`SELECT * FROM zoos WHERE id > ${5} LIMIT ${counted(20)} OFFSET ${40}`.render(QUESTION),
    { sql: 'SELECT * FROM zoos WHERE id > ? LIMIT 20 OFFSET ?', params: [5, 40] })
  t.same(sql`LIMIT ${counted(0)}`.render(DOLLAR), { sql: 'LIMIT 0', params: [] })
  for (const refused of [-1, 1.5, Number.NaN, Infinity, 2 ** 53]) {
    t.throws(() => counted(refused), /whole number from 0 up/, String(refused))
  }
  t.throws(() => counted('1; DROP TABLE zoos' as unknown as number), /whole number from 0 up/)
})

t.test('SQL numbered by another module is told the number of its first placeholder where it stands', async t => {
  const asked: number[] = []
  const question = numbered(first => {
    asked.push(first)
    return { sql: `(SELECT $${first}::text || $${first + 1}::text)`, params: ['a', 'b'] }
  })
  const statement = sql`SELECT ${1}, ${question}, ${2}`
  t.same(statement.render(DOLLAR), { sql: 'SELECT $1, (SELECT $2::text || $3::text), $4', params: [1, 'a', 'b', 2] })
  t.same(sql`SELECT ${question}`.render(DOLLAR), { sql: 'SELECT (SELECT $1::text || $2::text)', params: ['a', 'b'] })
  t.same(asked, [2, 1])
})

t.test('a fragment has one text more than values', async t => {
  t.throws(() => new Sql(['a', 'b'], ['x', 'y']), /one text more/)
})
