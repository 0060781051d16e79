// Seeds the bench data into `dir`: zoo.db, a SQLite file migrated by the service's own
// openDatabase (bench/.service/, service.js) and filled directly with better-sqlite3, and db.json,
// the shipped collections' records for json-server, written by a worker thread meanwhile.
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { CITIES, COLLECTIONS, keepers, ROLES, SPECIES, zoosWithAnimals } from './records.js'
import { serviceModule } from './service.js'

const COLUMNS = {
  zoos: ['id', 'name', 'city', 'country', 'opened_on', 'created_at', 'updated_at'],
  animals: ['id', 'name', 'species', 'animal_type_id', 'zoo_id', 'born_on', 'created_at', 'updated_at'],
  employees: ['id', 'name', 'role', 'email', 'zoo_id', 'hired_on', 'created_at', 'updated_at'],
  keepers: ['id', 'name', 'zoo_id', 'phone', 'created_at', 'updated_at']
}
const RECORDS = { ...COLLECTIONS, keepers }
/** The zoo whose keepers the bound token of the access cases sees (its claim zoo_id). */
const BOUND_ZOO = 1

export async function seed (dir, rows) {
  const { RESOURCES } = await serviceModule('schemas/index.js')
  const { openDatabase } = await serviceModule('store/sqlite/database.js')
  const { openSqliteStorage } = await serviceModule('store/sqlite/storage.js')
  const json = new Worker(new URL('./records.js', import.meta.url), { workerData: { jsonFile: join(dir, 'db.json'), rows } })
  const jsonWritten = new Promise((resolve, reject) => {
    json.once('error', reject)
    json.once('exit', code => code === 0 ? resolve() : reject(new Error(`db.json writer stopped with code ${code}`)))
  })

  const db = openDatabase(dir)
  // Bulk load, in one transaction: no journal and no fsync (a crash loses only this temp file),
  // and the migrations' secondary indexes dropped during the inserts and made again afterwards
  // with their own SQL: CREATE INDEX sorts once, where inserting a million random keys into some
  // thirty B-trees takes minutes. The file ends with exactly the schema the migrations made, in
  // WAL mode as openDatabase leaves it.
  db.pragma('journal_mode = OFF')
  db.pragma('synchronous = OFF')
  db.pragma('foreign_keys = OFF')
  db.pragma('cache_size = -64000')
  const tables = Object.keys(COLUMNS)
  const placeholders = tables.map(() => '?').join(', ')
  const indexes = db.prepare(
    `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${placeholders})`
  ).all(...tables)
  const boundKeepers = []
  db.transaction(() => {
    for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`)
    for (const table of tables) {
      const columns = COLUMNS[table]
      const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}, version) VALUES (${columns.map(c => `@${c}`).join(', ')}, 1)`)
      for (const record of RECORDS[table](rows)) {
        insert.run(record)
        if (table === 'keepers' && record.zoo_id === BOUND_ZOO) boundKeepers.push(record.id)
      }
    }
    // SQLite's sorter is faster with a small cache (it merges sorted runs) and a helper thread.
    db.pragma('cache_size = -2000')
    db.pragma('threads = 1')
    for (const { sql } of indexes) db.exec(sql)
  })()
  db.pragma('journal_mode = WAL')
  db.close()
  // The records' search words, made as the service makes them for records it finds without any
  // (store/sqlite/collections.ts, indexSearchWords): opening the storage does it, here rather than
  // in each target's start-up.
  await openSqliteStorage(dir, { resources: RESOURCES }).close()
  await jsonWritten

  // What the cases need to know: one species (1/50 of the animals) and one role (1/10 of the
  // employees) for the filtered lists, the zoos that hold animals for the nested list, the keepers
  // a bound token sees for the access cases.
  return {
    rows, zoosWithAnimals: zoosWithAnimals(rows), species: SPECIES[0], role: ROLES[0], cities: CITIES, boundZoo: BOUND_ZOO, boundKeepers
  }
}
