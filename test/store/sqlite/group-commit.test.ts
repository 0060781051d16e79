import { join } from 'node:path'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { RESOURCES } from '../../../schemas/index.ts'
import type { ResourceRecord } from '../../../model/resource.ts'
import type { Versioned, Write } from '../../../store/contract.ts'
import { Employees } from '../../../schemas/employee.ts'
import { GroupCommit, MAX_GROUP_MS } from '../../../store/sqlite/group-commit.ts'
import { SqliteCollectionStores } from '../../../store/sqlite/collections.ts'
import { openDatabase } from '../../../store/sqlite/database.ts'
import { build, call, create, openDatabaseFile, storageOf } from '../../helper.ts'

/** A real database file in WAL mode with synchronous=FULL, as the store opens it, and a queue on it. */
function setUp (t: Test): { db: Database.Database, queue: GroupCommit, rows: () => unknown[] } {
  const db = new Database(join(t.testdir(), 'group.db'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.pragma('foreign_keys = ON')
  db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE item (id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE,
      parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`)
  t.teardown(() => db.close())
  return {
    db,
    queue: new GroupCommit(db),
    rows: () => db.prepare('SELECT value FROM item ORDER BY id').pluck().all()
  }
}

const adding = (db: Database.Database, value: string, parent: number | null = null) =>
  () => db.prepare('INSERT INTO item (value, parent) VALUES (?, ?)').run(value, parent).lastInsertRowid

t.test('writes submitted in one turn share one transaction and settle in order after it', async t => {
  const { db, queue, rows } = setUp(t)
  const settled: string[] = []
  const writes = ['a', 'b', 'c'].map(v => queue.submit(adding(db, v)).then(id => { settled.push(v); return id }))
  t.same(rows(), [], 'nothing is written before the flush')
  t.same(await Promise.all(writes), [1, 2, 3])
  t.same(settled, ['a', 'b', 'c'])
  t.equal(queue.commits, 1)
  await queue.submit(adding(db, 'd'))
  t.equal(queue.commits, 2, 'a later turn commits on its own')
  t.same(rows(), ['a', 'b', 'c', 'd'])
})

t.test('a refused write is undone alone: the others of its group commit', async t => {
  const { db, queue, rows } = setUp(t)
  const effects: string[] = []
  const outcomes = await Promise.allSettled([
    queue.submit(onCommit => { adding(db, 'kept')(); onCommit(() => effects.push('kept')) }),
    queue.submit(onCommit => {
      adding(db, 'half')()
      onCommit(() => effects.push('refused'))
      adding(db, 'kept')() // UNIQUE: the whole write, 'half' included, is undone
    }),
    queue.submit(() => { throw new Error('refused before writing') }),
    queue.submit(onCommit => { adding(db, 'also kept')(); onCommit(() => effects.push('also kept')) })
  ])
  t.same(outcomes.map(o => o.status), ['fulfilled', 'rejected', 'rejected', 'fulfilled'])
  t.match((outcomes[1] as PromiseRejectedResult).reason, { code: 'SQLITE_CONSTRAINT_UNIQUE' })
  t.same(rows(), ['kept', 'also kept'])
  t.same(effects, ['kept', 'also kept'], 'effects run for committed writes only')
  t.equal(queue.commits, 1)
})

t.test('a write that loses the transaction fails its whole group, and nothing of it stays', async t => {
  const { db, queue, rows } = setUp(t)
  const outcomes = await Promise.allSettled([
    queue.submit(adding(db, 'first')),
    queue.submit(() => { db.exec('ROLLBACK'); throw new Error('the transaction is gone') }),
    queue.submit(adding(db, 'after'))
  ])
  t.same(outcomes.map(o => o.status), ['rejected', 'rejected', 'rejected'])
  t.same(rows(), [])
  t.equal(queue.commits, 0)
  t.equal(await queue.submit(adding(db, 'next')), 1, 'the queue goes on with the next group')
})

t.test('a COMMIT that fails refuses every write of the group and rolls it back', async t => {
  const { db, queue, rows } = setUp(t)
  // A deferred foreign key is checked at COMMIT: the group cannot commit.
  const outcomes = await Promise.allSettled([queue.submit(adding(db, 'fine')), queue.submit(adding(db, 'orphan', 42))])
  t.same(outcomes.map(o => o.status), ['rejected', 'rejected'])
  t.match((outcomes[0] as PromiseRejectedResult).reason, { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' })
  t.notOk(db.inTransaction)
  t.same(rows(), [])
  await queue.submit(adding(db, 'fine'))
  t.same(rows(), ['fine'])
})

t.test('a long queue is split into several transactions', async t => {
  const { db, queue, rows } = setUp(t)
  await Promise.all(Array.from({ length: 1200 }, (_, i) => queue.submit(adding(db, `v${i}`))))
  t.equal(rows().length, 1200)
  // More when the machine is so slow that a group's time runs out first (the next test).
  t.ok(queue.commits >= 3, 'at most 500 writes a transaction')
})

t.test('a group takes no more writes once it has held the database for its time: the event loop turns before the next', async t => {
  const { db, queue, rows } = setUp(t)
  const order: string[] = []
  /** A write as long as a group takes writes for, during which a request arrives (its work queued for the event loop). */
  const long = (value: string) => () => {
    if (value === 'a') setImmediate(() => order.push('a request received meanwhile'))
    for (const until = performance.now() + MAX_GROUP_MS; performance.now() < until;);
    order.push(value)
    return adding(db, value)()
  }
  t.same(await Promise.all([queue.submit(long('a')), queue.submit(long('b')), queue.submit(adding(db, 'c'))]), [1, 2, 3])
  t.same(order, ['a', 'a request received meanwhile', 'b'], 'the request is served between the two long writes')
  t.equal(queue.commits, 3, 'a transaction each: the short write after a long one waits for the next group')
  t.same(rows(), ['a', 'b', 'c'])
})

t.test('the store: writes of one turn share a commit, and a refused one does not undo the others', async t => {
  const db = openDatabase(t.testdir())
  t.teardown(() => db.close())
  const store = new SqliteCollectionStores(db, RESOURCES)
  const employees = store.collection(Employees)
  const write = (asked: Write) => store.write(asked, { records: 1000 })
  const create = (collection: string, inputs: ResourceRecord[]) => write({ collection, op: 'create', inputs, many: inputs.length > 1 })
  const [zoo] = await create('zoos', [{ name: 'Berlin Zoo', city: 'Berlin' }]) as Versioned[]
  const zooId = zoo?.record.id as number
  await create('employees', [{ name: 'Ann', role: 'keeper', email: 'taken@example.com', zoo_id: zooId }])
  const before = store.groupCommit.commits
  const outcomes = await Promise.allSettled([
    create('employees', [{ name: 'Bea', role: 'vet', email: 'bea@example.com' }]),
    create('employees', [{ name: 'Cy', role: 'vet', email: 'TAKEN@example.com' }]),
    write({ collection: 'zoos', op: 'update', id: zooId, values: { city: 'Berlin-Mitte' } }),
    write({ collection: 'zoos', op: 'delete', id: zooId }),
    create('zoos', [{ name: 'Tierpark', city: 'Berlin' }, { name: 'Hellabrunn', city: 'Munich' }])
  ])
  t.same(outcomes.map(o => o.status), ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled'])
  t.match((outcomes[1] as PromiseRejectedResult).reason, { kind: 'invalid', errors: [{ field: 'email', code: 'unique' }] })
  t.match((outcomes[3] as PromiseRejectedResult).reason, { kind: 'conflict' })
  t.equal(store.groupCommit.commits, before + 1, 'one transaction held all five')
  t.same(db.prepare('SELECT email FROM employees ORDER BY id').pluck().all(), ['taken@example.com', 'bea@example.com'])
  t.same(db.prepare('SELECT name, city FROM zoos ORDER BY id').all(), [
    { name: 'Berlin Zoo', city: 'Berlin-Mitte' }, { name: 'Tierpark', city: 'Berlin' }, { name: 'Hellabrunn', city: 'Munich' }
  ])
  const everyEmployee = { filters: [], sort: [{ field: 'id', direction: 'asc' as const }], limit: 10, offset: 0 }
  const total = (await employees.list(everyEmployee, { counting: 'exact' })).total
  t.equal(total, 2, 'the kept total counts committed writes only')
})

t.test('through the API: concurrent writes, one refused, the others answered and stored', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin' })
  await create(app, 'employees', { name: 'Ann', role: 'keeper', email: 'taken@example.com', zoo_id: zoo.id })
  const answers = await Promise.all([
    call(app, 'POST', '/v1/employees', { name: 'Bea', role: 'vet', email: 'bea@example.com' }),
    call(app, 'POST', '/v1/employees', { name: 'Cy', role: 'vet', email: 'TAKEN@example.com' }),
    call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Berlin-Mitte' }),
    call(app, 'POST', '/v1/animals', { name: 'Knut', species: 'Polar bear', animal_type_id: 3, zoo_id: 999 }),
    call(app, 'DELETE', `/v1/zoos/${zoo.id}`),
    call(app, 'POST', '/v1/zoos', [{ name: 'Tierpark', city: 'Berlin' }, { name: 'Hellabrunn', city: 'Munich' }])
  ])
  t.same(answers.map(a => a.statusCode), [201, 422, 201, 422, 409, 201])
  t.same(answers[1]?.json().errors, [
    { field: 'email', code: 'unique', message: 'email "TAKEN@example.com" is already used by another employee' }
  ])
  const db = openDatabaseFile(app)
  t.teardown(() => db.close())
  t.same(db.prepare('SELECT email FROM employees ORDER BY id').pluck().all(), ['taken@example.com', 'bea@example.com'])
  t.same(db.prepare('SELECT name, city FROM zoos ORDER BY id').all(), [
    { name: 'Berlin Zoo', city: 'Berlin-Mitte' }, { name: 'Tierpark', city: 'Berlin' }, { name: 'Hellabrunn', city: 'Munich' }
  ])
  t.equal(db.prepare('SELECT count(*) FROM animals').pluck().get(), 0)
  t.equal((await call(app, 'GET', '/v1/employees')).headers['x-total-count'], '2', 'the kept total counts the committed writes only')
})

t.test('a write refused after its statements ran leaves none of the search upkeep it had left for the end of the group', async t => {
  const app = await build(t)
  const kept = await create(app, 'zoos', { name: 'Gamma Zoo', city: 'Graz' })
  const feed = storageOf(app).collections.feed as unknown as { record: (...args: unknown[]) => void }
  const record = feed.record.bind(feed)
  t.teardown(() => { delete (feed as Partial<typeof feed>).record })
  // The feed refuses the rename's changes: the rename is undone alone, after its search upkeep was queued.
  feed.record = (rows, ...rest) => {
    if (JSON.stringify(rows).includes('Delta Zoo')) throw new Error('the feed refuses this write')
    record(rows, ...rest)
  }
  const [added, renamed] = await Promise.all([
    call(app, 'POST', '/v1/zoos', { name: 'Alpha Zoo', city: 'Graz' }),
    call(app, 'PATCH', `/v1/zoos/${kept.id}`, { name: 'Delta Zoo' })
  ])
  t.same([added.statusCode, renamed.statusCode], [201, 500])
  const names = async (q: string) => (await call(app, 'GET', `/v1/zoos?q=${q}`)).json().map((z: { name: string }) => z.name)
  t.same(await names('alpha'), ['Alpha Zoo'])
  t.same(await names('gamma'), ['Gamma Zoo'], 'the record keeps its words')
  t.same(await names('delta'), [], 'the refused write left no words behind')
})
