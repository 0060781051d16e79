// With --engine postgres: the seeded records, copied from the SQLite seed into a PostgreSQL
// database migrated by the service's own code (bench/.service/), made once per bench run; each run of the
// service gets a database of its own made from it (CREATE DATABASE ... TEMPLATE: a copy of the
// files, in seconds), so that the writes of one run never reach another.
import Database from 'better-sqlite3'
import pg from 'pg'
import { serviceModule } from './service.js'

const TABLES = ['zoos', 'animals', 'employees', 'keepers']
const BATCH = 1000

/** The URL of `database` on the server of `base`. */
export function databaseUrl (base, database) {
  const url = new URL(base)
  url.pathname = `/${database}`
  return url.toString()
}

async function onServer (base, work) {
  const client = new pg.Client({ connectionString: base })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Makes `name` anew from the records of the SQLite file `sqliteFile`. */
export async function seedPostgres (base, name, sqliteFile) {
  const { recordWords } = await serviceModule('model/search.js')
  const { RESOURCES } = await serviceModule('schemas/index.js')
  const { POSTGRES } = await serviceModule('store/postgres/dialect.js')
  const { join, raw, sql } = await serviceModule('store/sql.js')
  const { openPostgresStorage } = await serviceModule('store/postgres/storage.js')
  await onServer(base, async client => {
    await client.query(`DROP DATABASE IF EXISTS ${name}`)
    await client.query(`CREATE DATABASE ${name}`)
  })
  const url = databaseUrl(base, name)
  // Opening the storage migrates the database.
  await (await openPostgresStorage({ url, poolSize: 2, statementTimeout: 3_600_000 }, { resources: RESOURCES })).close()
  const source = new Database(sqliteFile, { readonly: true })
  const target = new pg.Client({ connectionString: url })
  await target.connect()
  try {
    // Indexes made once after the load, as the SQLite seed does: one sort each instead of a
    // million random inserts into twenty B-trees.
    const { rows: indexes } = await target.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
      AND tablename = ANY($1) AND indexdef NOT LIKE '%UNIQUE%' AND indexname NOT LIKE '%_pkey'`, [TABLES])
    for (const { indexname } of indexes) await target.query(`DROP INDEX ${indexname}`)
    for (const table of TABLES) {
      const columns = source.prepare(`SELECT * FROM ${table} LIMIT 1`).columns().map(c => c.name)
      // The search words made as the service makes them, written with the rows: the tables as a
      // database that has always kept them would hold them, without a second write of each row.
      const { search } = RESOURCES.find(resource => resource.name === table)
      const column = POSTGRES.searchIndex(table).column
      let batch = []
      const flush = async () => {
        if (batch.length === 0) return
        const values = batch.map(row => {
          const words = search.map((_, k) => sql`${row[columns.length + k]}`)
          return sql`(${join([...columns.map((_, j) => sql`${row[j]}`), ...column.values(search, words)], ', ')})`
        })
        const insert = sql`INSERT INTO ${raw(table)} (${raw([...columns, ...column.names].join(', '))}) VALUES ${join(values, ', ')}`
        const { sql: text, params } = insert.render(POSTGRES.placeholder)
        await target.query(text, params)
        batch = []
      }
      for (const row of source.prepare(`SELECT * FROM ${table} ORDER BY id`).raw().iterate()) {
        const record = Object.fromEntries(columns.map((name, i) => [name, row[i]]))
        batch.push([...row, ...search.map(field => recordWords([field], record).join(' '))])
        if (batch.length === BATCH) await flush()
      }
      await flush()
      await target.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), coalesce(max(id), 1)) FROM ${table}`)
    }
    for (const { indexdef } of indexes) await target.query(indexdef)
    await target.query('VACUUM ANALYZE')
  } finally {
    source.close()
    await target.end()
  }
}

/** A database of its own for one run of the service, made from `template`; dropped by `drop`. */
export async function copyDatabase (base, template, name) {
  await onServer(base, client => client.query(`DROP DATABASE IF EXISTS ${name}`))
  await onServer(base, client => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`))
  // The copy leaves its pages dirty in PostgreSQL's buffers (and the seed may still be writing
  // back): written out now, before the target starts, they are not flushed during its load.
  // (Targets still measure differently first and second: docs/benchmarks.md.)
  await onServer(base, client => client.query('CHECKPOINT'))
  return databaseUrl(base, name)
}

export async function dropDatabase (base, name) {
  await onServer(base, client => client.query(`DROP DATABASE IF EXISTS ${name}`))
}
