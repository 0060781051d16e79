import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { compareAsciiCaseInsensitive } from '../../../model/kinds.ts'
import { compareCodePoints } from '../../../model/text.ts'
import { build, call, create } from '../../helper.ts'

const TRICKY = [
  '', 'a', 'A', 'b', 'B', 'ab', 'aB', 'Ab', 'a b', 'a-b', 'é', 'É', 'e', 'ß', 'ss', 'z', 'Z', '~', '\u007f', '\u0080',
  '\u00ff', '\u0100', '\ud7ff', '\ue000', '\uf8ff', '\ufffd', '\uffff', '😀', '\u{10000}', '\u{10ffff}',
  '日本', '日', 'a😀', 'a\ue000', '10', '9', '1'
]

t.test('text compares in memory as SQLite orders it, BINARY and NOCASE', async t => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  db.exec('CREATE TABLE words (binary TEXT, nocase TEXT COLLATE NOCASE)')
  const insert = db.prepare('INSERT INTO words VALUES (?, ?)')
  for (const word of TRICKY) insert.run(word, word)
  const sqlite = (column: string) => db.prepare(`SELECT ${column} FROM words ORDER BY ${column}, rowid`).pluck().all()
  const stable = (compare: (a: string, b: string) => number) =>
    TRICKY.map((word, i) => ({ word, i })).sort((x, y) => compare(x.word, y.word) || x.i - y.i).map(x => x.word)
  t.same(stable(compareCodePoints), sqlite('binary'))
  t.same(stable(compareAsciiCaseInsensitive), sqlite('nocase'))
  for (const a of TRICKY) {
    for (const b of TRICKY) {
      const equal = db.prepare('SELECT ? = ? COLLATE NOCASE').pluck().get(a, b) === 1
      if (equal !== (compareAsciiCaseInsensitive(a, b) === 0)) t.fail(`NOCASE equality of ${JSON.stringify(a)} and ${JSON.stringify(b)}`)
    }
  }
})

t.test('a write by another connection to the database file is counted', async t => {
  const app = await build(t)
  await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin', country: 'DE' })
  const read = async () => {
    const res = await call(app, 'GET', '/v1/zoos?country=DE')
    return { total: res.headers['x-total-count'], names: res.json().map((z: { name: string }) => z.name) }
  }
  t.same(await read(), { total: '1', names: ['Berlin Zoo'] })
  const other = new Database(join(app.config.dataDir, 'zoo.db'))
  t.teardown(() => other.close())
  const now = new Date().toISOString()
  other.prepare('INSERT INTO zoos (name, city, country, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
    .run('Tierpark', 'Berlin', 'DE', now, now)
  t.same(await read(), { total: '2', names: ['Berlin Zoo', 'Tierpark'] })
})
