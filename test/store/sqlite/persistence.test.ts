import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { buildApi } from '../../../app.ts'
import { RESOURCES } from '../../../schemas/index.ts'
import { openDatabase } from '../../../store/sqlite/database.ts'
import { checkContract } from '../../contract.ts'
import { call, create, openDatabaseFile, testConfig } from '../../helper.ts'

t.test('a restart on the same database file keeps the data, the tombstones and the id sequence', async t => {
  const config = testConfig(t.testdir())
  const first = checkContract(t, buildApi(config))
  await first.ready()
  const zoo = await create(first, 'zoos', { name: 'Berlin Zoo', city: 'Berlin', country: 'DE' })
  const animal = await create(first, 'animals', { name: 'Knut', species: 'Polar bear', animal_type_id: 3, zoo_id: zoo.id })
  const doomed = await create(first, 'animals', { name: 'Gone', species: 'Dodo', animal_type_id: 9 })
  t.equal((await call(first, 'DELETE', `/v1/animals/${doomed.id}`)).statusCode, 204)
  await first.close()

  const second = checkContract(t, buildApi(config))
  t.teardown(() => second.close())
  await second.ready()
  t.same((await call(second, 'GET', `/v1/zoos/${zoo.id}`)).json(), zoo)
  t.same((await call(second, 'GET', `/v1/animals/${animal.id}`)).json(), animal)
  const tombstone = await call(second, 'GET', `/v1/animals/${doomed.id}`)
  t.equal(tombstone.statusCode, 410)
  t.same(tombstone.json(), { error: `animal ${doomed.id} was deleted` })
  const next = await create(second, 'animals', { name: 'New', species: 'Cat', animal_type_id: 1 })
  t.equal(next.id, doomed.id + 1, 'the deleted id is not handed out again')
})

const MIGRATIONS = readdirSync(new URL('../../../migrations/sqlite', import.meta.url))
  .filter(name => name.endsWith('.sql'))
  .sort()
  .map(name => ({ version: Number(name.split('_')[0]), name }))

t.test('migrations are applied once, and the database runs in WAL mode with foreign keys', async t => {
  const config = testConfig(t.testdir())
  for (let i = 0; i < 2; i++) {
    const app = checkContract(t, buildApi(config))
    await app.ready()
    const db = openDatabaseFile(app)
    t.same(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all(), MIGRATIONS)
    t.equal(db.pragma('journal_mode', { simple: true }), 'wal')
    db.close()
    await app.close()
  }
})

t.test('every column a filter or sort may name is indexed', async t => {
  const app = checkContract(t, buildApi(testConfig(t.testdir())))
  await app.ready()
  t.teardown(() => app.close())
  const db = openDatabaseFile(app)
  t.teardown(() => db.close())
  for (const resource of RESOURCES) {
    const indexes = db.prepare(`PRAGMA index_list("${resource.name}")`).all() as { name: string }[]
    const leading = new Set(indexes.map(i => (db.prepare(`PRAGMA index_info("${i.name}")`).all() as { name: string }[])[0]?.name))
    for (const column of resource.columns) {
      if (column.name === 'id') continue // the rowid itself
      t.ok(leading.has(column.name), `${resource.name}.${column.name} leads an index`)
    }
  }
})

t.test('the data directory is private: made 0700, the database files 0600, also when an earlier version left them readable', async t => {
  const dataDir = join(t.testdir(), 'data')
  const modes = () => Object.fromEntries(['', 'zoo.db', 'zoo.db-wal', 'zoo.db-shm']
    .map(name => [name || '.', statSync(join(dataDir, name)).mode & 0o777]))
  const run = async () => {
    const app = buildApi(testConfig(dataDir))
    await app.ready()
    await create(app, 'zoos', { name: 'Private Zoo', city: 'Bern', country: 'CH' })
    const seen = modes()
    await app.close()
    return seen
  }
  t.same(await run(), { '.': 0o700, 'zoo.db': 0o600, 'zoo.db-wal': 0o600, 'zoo.db-shm': 0o600 })
  for (const name of ['zoo.db', 'zoo.db-wal', 'zoo.db-shm']) if (existsSync(join(dataDir, name))) chmodSync(join(dataDir, name), 0o644)
  t.same(await run(), { '.': 0o700, 'zoo.db': 0o600, 'zoo.db-wal': 0o600, 'zoo.db-shm': 0o600 }, 'files left readable are made private')
})

t.test('a data directory made before is made private at every start; one others may write into, or another\'s, is refused', async t => {
  const dataDir = join(t.testdir(), 'data')
  mkdirSync(dataDir)
  chmodSync(dataDir, 0o755)
  openDatabase(dataDir).close()
  t.equal(statSync(dataDir).mode & 0o777, 0o700, 'a directory others may read is made private')
  chmodSync(dataDir, 0o777)
  t.throws(() => openDatabase(dataDir), {
    name: 'ConfigError',
    message: `DATA_DIR: ${dataDir} is open to other users (mode 777); it holds the database and the TLS key: chmod 700 ${dataDir}`
  })
  t.equal(statSync(dataDir).mode & 0o777, 0o777, 'left as it is: what others put there stays')
  chmodSync(dataDir, 0o700)
  chownSync(dataDir, 4242, 4242)
  t.throws(() => openDatabase(dataDir), {
    name: 'ConfigError',
    message: `DATA_DIR: ${dataDir} belongs to another user; it holds the database and the TLS key, so it must be this user's own`
  })
})
