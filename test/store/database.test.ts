import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { changesOf, rowOf, type Work } from '../../store/database.ts'
import { raw, sql } from '../../store/sql.ts'
import { SqlitePort } from '../../store/sqlite/database.ts'

t.test('a statement numbers its placeholders as each engine writes them, a part written in with its own values', async t => {
  const owner = sql`owner = ${'o'} AND key = ${'k'}`
  const statement = sql`SELECT ${raw('a, b')} FROM t WHERE ${owner} AND n < ${3}${raw(' FOR UPDATE')}`
  t.equal(statement.render(() => '?').sql, 'SELECT a, b FROM t WHERE owner = ? AND key = ? AND n < ? FOR UPDATE')
  t.equal(statement.render(n => `$${n}`).sql, 'SELECT a, b FROM t WHERE owner = $1 AND key = $2 AND n < $3 FOR UPDATE')
  t.same(statement.render(() => '?').params, ['o', 'k', 3])
  t.equal(sql`${owner}`.render(n => `$${n}`).sql, 'owner = $1 AND key = $2', 'a part alone')
  t.equal(sql`SELECT 1`.render(() => '?').sql, 'SELECT 1')
})

t.test("SQLite runs a transaction's work to its end at once, and undoes all of it when it throws", async t => {
  const db = new Database(join(t.testdir(), 'port.db'))
  t.teardown(() => db.close())
  db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE)')
  const port = new SqlitePort(db)
  function * adding (...values: string[]): Work<number> {
    let added = 0
    for (const value of values) added += yield * changesOf(sql`INSERT INTO item (value) VALUES (${value})`)
    return added
  }

  const added = port.transaction(adding('a', 'b'))
  t.notOk(db.inTransaction, 'committed before the promise is awaited: nothing else ran on the connection meanwhile')
  t.equal(await added, 2)
  await t.rejects(port.transaction(adding('c', 'a')), { code: 'SQLITE_CONSTRAINT_UNIQUE' })
  t.same(await port.rows(sql`SELECT value FROM item ORDER BY id`), [{ value: 'a' }, { value: 'b' }], 'c is undone with the refused a')
  t.same(await port.transaction(rowOf(sql`SELECT count(*) AS n FROM item`)), { n: 2 })
})
