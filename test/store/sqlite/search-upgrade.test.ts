import Database from 'better-sqlite3'
import t from 'tap'
import { RESOURCES } from '../../../schemas/index.ts'
import { Zoos } from '../../../schemas/zoo.ts'
import type { ListQuery, Versioned } from '../../../store/contract.ts'
import { CollectionSql } from '../../../store/collection-sql.ts'
import { migrationsOf } from '../../../store/migrations.ts'
import { openDatabase } from '../../../store/sqlite/database.ts'
import { openSqliteStorage } from '../../../store/sqlite/storage.ts'

/*
 * A SQLite file made by the version whose search index kept no prefixes (migrations up to 070),
 * upgraded: 080 makes the search tables anew and empty, and opening the storage makes every
 * record's words again, in batches, before anything is served.
 */

const search = (words: string[]): ListQuery => ({
  filters: [{ field: 'q', op: 'search', value: words }],
  sort: [{ field: 'id', direction: 'asc' }],
  limit: 3,
  offset: 0
})

t.test('records of a file made before 080 are found by q after the upgrade, past the first batch', async t => {
  const dir = t.testdir()
  const before = openDatabase(dir, migrationsOf('sqlite').filter(m => m.version <= 70))
  const now = new Date().toISOString()
  const insert = before.prepare('INSERT INTO zoos (name, city, created_at, updated_at) VALUES (?, ?, ?, ?)')
  const words = before.prepare('INSERT INTO zoos_search (rowid, words) VALUES (?, ?)')
  before.transaction(() => {
    // More than one batch of 2,000, with their words as that version kept them.
    for (let i = 1; i <= 2500; i++) {
      const { lastInsertRowid } = insert.run(`Zoo ${i}`, i === 2500 ? 'Zürich' : 'Basel', now, now)
      words.run(lastInsertRowid, `zoo ${i} ${i === 2500 ? 'zurich' : 'basel'}`)
    }
  })()
  before.close()

  const storage = openSqliteStorage(dir, { resources: RESOURCES })
  t.teardown(() => storage.close())
  const zoos = storage.collections.collection(Zoos)
  const zurich = await zoos.list(search(['zur']), { counting: 'exact' })
  t.same(zurich.items.map(zoo => zoo.name), ['Zoo 2500'], 'the last record, in the second batch')
  t.equal((await zoos.list(search(['zoo']), { counting: 'exact' })).total, 2500, 'every record, each once')
  t.equal((await zoos.list(search(['ba', '1']), { counting: 'exact' })).total, 1111, 'Basel, numbers that begin with 1')

  const file = new Database(`${dir}/zoo.db`, { readonly: true })
  t.teardown(() => file.close())
  t.match(file.prepare("SELECT sql FROM sqlite_master WHERE name = 'zoos_search'").pluck().get(), /prefix = '1 2 3 4 5 6'/)
})

t.test('a process that writes while another makes the words at start-up waits for its batch, and its words stay', async t => {
  const dir = t.testdir()
  const first = openSqliteStorage(dir, { resources: RESOURCES })
  const [created] = await first.collections.write(
    { collection: 'zoos', op: 'create', inputs: [{ name: 'Tierpark', city: 'Berlin' }], many: false }, { records: 1000 }) as Versioned[]
  await first.close()
  const id = created?.record.id as number
  const other = new Database(`${dir}/zoo.db`)
  t.teardown(() => other.close())
  // As a version before 070 left it: without words.
  other.prepare('DELETE FROM zoos_search WHERE rowid = ?').run(id)
  other.pragma('busy_timeout = 0')
  // The other process renames it, as the service writes: the record and its words in one transaction.
  const rename = other.transaction(() => {
    other.prepare("UPDATE zoos SET name = 'Wildpark' WHERE id = ?").run(id)
    other.prepare('DELETE FROM zoos_search WHERE rowid = ?').run(id)
    other.prepare('INSERT INTO zoos_search (rowid, words) VALUES (?, ?)').run(id, 'wildpark berlin')
  })

  // Between the read of a batch and the write of its words, the other process tries to write.
  const { unindexed } = CollectionSql.prototype
  t.teardown(() => { CollectionSql.prototype.unindexed = unindexed })
  let tried: string | undefined
  CollectionSql.prototype.unindexed = function (...args) {
    const batch = unindexed.apply(this, args)
    return {
      ...batch,
      words: row => {
        if (tried === undefined) {
          try {
            rename.immediate()
            tried = 'written'
          } catch (err) {
            tried = (err as { code: string }).code
          }
        }
        return batch.words(row)
      }
    }
  }
  const storage = openSqliteStorage(dir, { resources: RESOURCES })
  t.teardown(() => storage.close())
  CollectionSql.prototype.unindexed = unindexed
  t.equal(tried, 'SQLITE_BUSY', 'the batch holds the file: the other process waits for it (here, with no timeout, gives up)')
  rename.immediate()
  const zoos = storage.collections.collection(Zoos)
  const found = async (word: string) => (await zoos.list(search([word]), { counting: 'exact' })).items.map(zoo => zoo.name)
  t.same([await found('wildpark'), await found('tierpark')], [['Wildpark'], []], 'the words of the name as it is')
})

/*
 * FTS5 rewrites a whole segment of the search index at once, in the write that tips it, once a
 * tenth of its rows are deleted (its `deletemerge`): at 100,000 zoos, a change of 5,000 took 1.5 s
 * instead of 0.2 every other time, whatever its size, holding the database and the process. With
 * it off, a segment's deleted rows go when its level is merged, a little at each write.
 */
t.test('the search tables never rewrite a segment at once for its deleted rows, in a new file as in one made before', async t => {
  const root = t.testdir({ before: {}, new: {} })
  openDatabase(`${root}/before`, migrationsOf('sqlite').filter(m => m.version <= 80)).close()
  for (const dir of [`${root}/before`, `${root}/new`]) {
    const storage = openSqliteStorage(dir, { resources: RESOURCES })
    t.teardown(() => storage.close())
    const file = new Database(`${dir}/zoo.db`, { readonly: true })
    t.teardown(() => file.close())
    for (const resource of RESOURCES.filter(r => r.search.length > 0)) {
      t.equal(file.prepare(`SELECT v FROM ${resource.name}_search_config WHERE k = 'deletemerge'`).pluck().get(), 0, resource.name)
    }
  }
})
