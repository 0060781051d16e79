import { once } from 'node:events'
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { basic, BOOTSTRAP } from '../helper.ts'
import { lineOf, makeTree, spawnTs } from '../local/helper.ts'

/*
 * `zoo-api backup` and `zoo-api restore` as an operator runs them: the program's own command line,
 * beside `npm start` running as a process of its own, over real sockets and real SQLite files.
 */

// Some twenty processes of the program, each started anew: 80 s alone, over three minutes beside
// the rest of the suite on two cores.
t.setTimeout(300_000)

interface Server { port: number, stop: () => Promise<unknown>, stderr: () => string }

/** `npm start` on `dataDir` behind a (pretend) TLS-terminating proxy; resolves once the API listens. */
async function start (t: Test, dataDir: string): Promise<Server> {
  const child = spawnTs('server.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    LOCAL_PORT: '0',
    DATA_DIR: dataDir,
    TLS: 'proxy',
    LOG_LEVEL: 'info',
    ALLOWED_DIRS: '',
    RATE_LIMIT: '0',
    BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id,
    BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret
  })
  t.teardown(() => { child.kill('SIGKILL') })
  let stderr = ''
  child.stderr.on('data', chunk => { stderr += String(chunk) })
  const exit = once(child, 'exit')
  const line = await lineOf(child.stdout, l => l.includes('"msg":"Server listening at ') && !l.includes('"name"'))
  child.stdout.resume()
  return { port: Number(/:(\d+)"}$/.exec(line)?.[1]), stop: async () => { child.kill('SIGTERM'); return exit }, stderr: () => stderr }
}

/** The program's command line (`node dist/server.js <argv>` in a clone); its exit code and output. */
async function run (env: Record<string, string>, argv: string[]): Promise<{ code: number | null, stdout: string, stderr: string }> {
  const child = spawnTs('server.ts', env, argv)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', chunk => { stdout += String(chunk) })
  child.stderr.on('data', chunk => { stderr += String(chunk) })
  const [code] = await once(child, 'exit') as [number | null]
  return { code, stdout, stderr }
}

async function tokenOf (port: number): Promise<string> {
  const answer = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
    method: 'POST',
    headers: {
      'x-forwarded-proto': 'https',
      authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret),
      'content-type': 'application/x-www-form-urlencoded'
    },
    body: 'grant_type=client_credentials'
  })
  return ((await answer.json()) as { access_token: string }).access_token
}

const api = (port: number, token: string) => async (method: string, path: string, body?: unknown): Promise<Response> =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      'x-forwarded-proto': 'https',
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

const integrity = (file: string): string => {
  const db = new Database(file, { readonly: true })
  try {
    return db.pragma('integrity_check', { simple: true }) as string
  } finally {
    db.close()
  }
}

t.test('a backup taken while clients write restores into a new data directory with every write acknowledged before it began', async t => {
  const live = makeTree(t, {})
  const server = await start(t, live)
  const call = api(server.port, await tokenOf(server.port))

  const acknowledged: number[] = []
  const writing = { on: true }
  const writers = Array.from({ length: 4 }, async (_, writer) => {
    for (let n = 0; writing.on; n++) {
      const created = await call('POST', '/v1/zoos', { name: `Zoo ${writer}-${n}`, city: 'Lyon' })
      if (created.status !== 201) throw new Error(`a write answered ${created.status}: ${await created.text()}`)
      acknowledged.push(((await created.json()) as { id: number }).id)
    }
  })
  while (acknowledged.length < 200) await new Promise(resolve => setTimeout(resolve, 20))

  const backup = join(makeTree(t, {}), 'zoo-backup.db')
  const before = [...acknowledged]
  const taken = await run({ DATA_DIR: live }, ['backup', '--to', backup])
  const during = acknowledged.length - before.length
  writing.on = false
  await Promise.all(writers)
  t.equal(taken.code, 0, taken.stderr)
  t.match(JSON.parse(taken.stdout), { file: backup, bytes: Number, migration: /^\d+_.+\.sql$/ })
  t.ok(during > 0, `clients kept writing while the backup ran (${during} writes acknowledged meanwhile)`)
  t.equal(integrity(backup), 'ok', 'the copy passes SQLite\'s integrity check')
  t.equal((readdirSync(join(backup, '..'))).join(), 'zoo-backup.db', 'and nothing else is left beside it')

  // Onto the running service's directory: refused, nothing changed.
  const filesBefore = readdirSync(live).sort()
  const count = async (): Promise<string | null> => (await call('GET', '/v1/zoos?limit=1')).headers.get('x-total-count')
  const total = await count()
  const refused = await run({ DATA_DIR: live }, ['restore', '--from', backup])
  t.equal(refused.code, 1)
  t.match(JSON.parse(refused.stderr), { error: /is in use by another zoo-api process/ })
  t.same(readdirSync(live).sort(), filesBefore, 'the running service\'s directory holds the same files')
  t.equal(await count(), total, 'and serves the same records')
  t.equal(String(total), String(acknowledged.length))

  // Into a new data directory, where the service then starts.
  const restoredDir = makeTree(t, {})
  const restored = await run({ DATA_DIR: restoredDir }, ['restore', '--from', backup])
  t.equal(restored.code, 0, restored.stderr)
  t.same(JSON.parse(restored.stdout), { restored: join(restoredDir, 'zoo.db'), from: backup, replaced: null })
  const second = await start(t, restoredDir)
  const read = api(second.port, await tokenOf(second.port))
  const missing: number[] = []
  for (const id of before) if ((await read('GET', `/v1/zoos/${id}`)).status !== 200) missing.push(id)
  t.same(missing, [], `each of the ${before.length} writes acknowledged before the backup began is there`)
  const restoredTotal = Number((await read('GET', '/v1/zoos?limit=1')).headers.get('x-total-count'))
  t.ok(restoredTotal >= before.length && restoredTotal <= acknowledged.length, `and no more than was written (${restoredTotal})`)
  const written = await read('POST', '/v1/zoos', { name: 'After the restore', city: 'Nantes' })
  t.equal(written.status, 201, 'the restored service takes writes')
  t.same(await second.stop(), [0, null])
  await server.stop()

  // Onto a directory with a database: the one replaced is kept beside it, its write-ahead log with it.
  const again = await run({ DATA_DIR: restoredDir }, ['restore', '--from', backup])
  t.equal(again.code, 0, again.stderr)
  const { replaced } = JSON.parse(again.stdout) as { replaced: string }
  t.match(replaced, new RegExp(`^${join(restoredDir, 'zoo.db')}\\.replaced-\\d{8}T\\d{6}\\.\\d{3}Z$`))
  const kept = new Database(replaced, { readonly: true })
  t.equal((kept.prepare("SELECT count(*) AS n FROM zoos WHERE name = 'After the restore'").get() as { n: number }).n, 1,
    'the replaced database still holds what was written after the backup')
  kept.close()
})

t.test('a restore refuses a file that is not a sound database of this program, and changes nothing', async t => {
  const dir = makeTree(t, { 'notes.txt': 'not a database' })
  const dataDir = makeTree(t, {})
  const made = await run({ DATA_DIR: dataDir }, ['client', 'create', '--scope', 'zoos:read', '--id', 'kept'])
  t.equal(made.code, 0, made.stderr)
  const backup = join(dir, 'zoo.db')
  t.equal((await run({ DATA_DIR: dataDir }, ['backup', '--to', backup])).code, 0)
  const newer = join(dir, 'newer.db')
  copyFileSync(backup, newer)
  const db = new Database(newer)
  db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, ?, ?)')
    .run('9999_from_the_future.sql', new Date().toISOString())
  db.close()
  const foreign = join(dir, 'foreign.db')
  new Database(foreign).exec('CREATE TABLE t (x)')
  const torn = join(dir, 'torn.db')
  writeFileSync(torn, readFileSync(backup).subarray(0, 8192))

  const original = readFileSync(join(dataDir, 'zoo.db'))
  for (const [file, error] of [
    [newer, /holds migration 9999_from_the_future\.sql, which this program does not have: a newer version of zoo-api made it/],
    [join(dir, 'notes.txt'), /is not a sound SQLite database/],
    [foreign, /is a SQLite database, but not the service's/],
    [torn, /(is not a sound SQLite database|fails SQLite's integrity check)/],
    [join(dir, 'absent.db'), /cannot be opened/]
  ] as const) {
    const refused = await run({ DATA_DIR: dataDir }, ['restore', '--from', file])
    t.equal(refused.code, 1, file)
    t.match(JSON.parse(refused.stderr), { error })
  }
  t.same(readdirSync(dataDir).filter(name => name.startsWith('zoo.db')).sort(), ['zoo.db'], 'no database was moved aside')
  t.ok(readFileSync(join(dataDir, 'zoo.db')).equals(original), 'the database is untouched')
  t.notOk(readdirSync(dataDir).some(name => name.includes('restoring')), 'and nothing half-copied is left')
})

t.test('the backup commands say what they need, and on PostgreSQL what to use instead', async t => {
  const dataDir = makeTree(t, {})
  const cases: [Record<string, string>, string[], number, RegExp][] = [
    [{}, ['backup'], 2, /backup needs --to FILE/],
    [{}, ['restore', '--to', 'x'], 2, /restore needs --from FILE/],
    [{}, ['backup', '--to', 'x', '--from', 'y'], 2, /backup takes no --from/],
    [{}, ['backup', '--to', 'x', '--force'], 2, /Unknown option '--force'/],
    [{}, ['backup', '--to', join(dataDir, 'copy.db')], 1, /holds no database \(zoo\.db\) to back up/],
    [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }, ['backup', '--to', 'x'], 1, /pg_dump --format=custom/],
    [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }, ['restore', '--from', 'x'], 1, /pg_restore/]
  ]
  for (const [env, argv, code, error] of cases) {
    const answer = await run({ DATA_DIR: dataDir, ...env }, argv)
    t.equal(answer.code, code, argv.join(' '))
    t.match(JSON.parse(answer.stderr.split('\n')[0] as string), { error }, argv.join(' '))
  }
  const help = await run({ DATA_DIR: dataDir }, ['backup', '--help'])
  t.equal(help.code, 0)
  t.match(help.stdout, /zoo-api restore --from FILE/)
  t.equal((await run({ DATA_DIR: dataDir }, ['client', 'list'])).code, 0)
  const existing = join(dataDir, 'existing.db')
  writeFileSync(existing, 'mine')
  const over = await run({ DATA_DIR: dataDir }, ['backup', '--to', existing])
  t.equal(over.code, 1)
  t.match(JSON.parse(over.stderr), { error: /exists: back up into a new file/ })
  t.equal(readFileSync(existing, 'utf8'), 'mine', 'a file is never overwritten')
})

t.test('a second service on the same SQLite data directory is refused until the first stops', async t => {
  const dataDir = makeTree(t, {})
  const first = await start(t, dataDir)
  const second = await run({ DATA_DIR: dataDir, PORT: '0', LOCAL_PORT: '0', TLS: 'proxy', ALLOWED_DIRS: '' }, [])
  t.equal(second.code, 2)
  t.match(second.stderr, /^zoo-api: DATA_DIR: .* is in use by another zoo-api process/)
  await first.stop()
  t.ok(existsSync(join(dataDir, 'zoo.lock')))
  const restarted = await start(t, dataDir)
  t.ok(restarted.port > 0, 'once it stopped, another starts')
})

t.test('a restore takes what the backup file\'s write-ahead log holds too', async t => {
  const dir = makeTree(t, {})
  const dataDir = makeTree(t, {})
  t.equal((await run({ DATA_DIR: dataDir }, ['client', 'list'])).code, 0)
  const backup = join(dir, 'zoo.db')
  t.equal((await run({ DATA_DIR: dataDir }, ['backup', '--to', backup])).code, 0)
  // A database whose last commits are still in its log: a service's, killed before a checkpoint.
  const writer = new Database(backup)
  writer.pragma('journal_mode = WAL')
  writer.pragma('wal_autocheckpoint = 0')
  writer.prepare('INSERT INTO zoos (name, city, created_at, updated_at) VALUES (?, ?, ?, ?)')
    .run('In the log only', 'Lyon', '2026-11-28T09:30:12Z', '2026-11-28T09:30:12Z')
  t.ok(existsSync(`${backup}-wal`), 'the commit is in the log')
  const restoredDir = makeTree(t, {})
  const restored = await run({ DATA_DIR: restoredDir }, ['restore', '--from', backup])
  writer.close()
  t.equal(restored.code, 0, restored.stderr)
  const db = new Database(join(restoredDir, 'zoo.db'), { readonly: true })
  t.same(db.prepare('SELECT name FROM zoos').all(), [{ name: 'In the log only' }], 'the commit is in the restored database')
  db.close()
  t.equal(integrity(join(restoredDir, 'zoo.db')), 'ok')
})

t.test('a restore into a data directory that does not exist yet makes it', async t => {
  const dataDir = makeTree(t, {})
  t.equal((await run({ DATA_DIR: dataDir }, ['client', 'list'])).code, 0)
  const backup = join(makeTree(t, {}), 'zoo.db')
  t.equal((await run({ DATA_DIR: dataDir }, ['backup', '--to', backup])).code, 0)
  const fresh = join(makeTree(t, {}), 'new', 'data')
  const restored = await run({ DATA_DIR: fresh }, ['restore', '--from', backup])
  t.equal(restored.code, 0, restored.stderr)
  t.equal(integrity(join(fresh, 'zoo.db')), 'ok')
  t.equal(statSync(fresh).mode & 0o777, 0o700, 'made private, as the service makes it')
})
