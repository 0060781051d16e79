import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import Database from 'better-sqlite3'
import t from 'tap'
import { loadConfig } from '../../config/index.ts'
import { takeBackup } from '../../store/sqlite/backup.ts'
import { openDatabase } from '../../store/sqlite/database.ts'
import { apiOf, build, create, dataDir } from '../helper.ts'

/** A scheduled backup's name. */
const NAME = /^zoo-\d{8}T\d{6}\.\d{3}Z\.db$/

const until = async (done: () => boolean, what: string): Promise<void> => {
  for (let waited = 0; !done(); waited += 50) {
    if (waited > 30_000) throw new Error(`never: ${what}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

const zoosIn = (file: string): string[] => {
  const db = new Database(file, { readonly: true })
  try {
    return (db.prepare('SELECT name FROM zoos ORDER BY id').all() as { name: string }[]).map(z => z.name)
  } finally {
    db.close()
  }
}

t.test('scheduled backups are taken while the service serves, and pruned to BACKUP_KEEP', async t => {
  const backups = join(dataDir(t), 'backups')
  mkdirSync(backups)
  // Not a backup of the schedule: never deleted.
  writeFileSync(join(backups, 'zoo-by-hand.db'), 'mine')
  const app = await build(t, { BACKUP_DIR: backups, BACKUP_INTERVAL: '1', BACKUP_KEEP: '2' })
  t.equal((await app.inject('/health')).statusCode, 200)
  const schedule = apiOf(app).backups
  if (schedule === undefined) throw new Error('no schedule')
  await until(() => schedule.lastSuccess !== undefined, 'the first backup, at start')
  const first = readdirSync(backups).filter(name => NAME.test(name))
  t.equal(first.length, 1, 'one backup at start-up')
  t.same(zoosIn(join(backups, first[0] as string)), [], 'of the database as it was')

  await create(app, 'zoos', { name: 'Taken after', city: 'Lyon' })
  const taken = schedule.lastSuccess
  await until(() => schedule.lastSuccess !== taken, 'a second backup')
  await until(() => readdirSync(backups).filter(name => NAME.test(name)).length >= 2, 'two kept')
  const afterWrite = readdirSync(backups).filter(name => NAME.test(name)).sort()
  t.same(zoosIn(join(backups, afterWrite.at(-1) as string)), ['Taken after'], 'the newest holds the write')

  // Two more: four taken in all, the two oldest deleted.
  for (let n = 0; n < 2; n++) {
    const last = schedule.lastSuccess
    await until(() => schedule.lastSuccess !== last, 'another backup')
  }
  const kept = readdirSync(backups).filter(name => NAME.test(name)).sort()
  t.equal(kept.length, 2, 'BACKUP_KEEP backups kept')
  t.notOk(kept.includes(first[0] as string), 'the oldest deleted')
  t.ok(kept.every(name => name > (first[0] as string)), 'names sort by time')
  t.ok(readdirSync(backups).includes('zoo-by-hand.db'), 'a file the schedule did not write stays')
  t.notOk(readdirSync(backups).some(name => name.includes('partial') || name.endsWith('-wal')),
    'nothing half-written, no log beside a copy')
  t.equal(schedule.failures, 0)
})

t.test('a failed backup is logged and counted, and the schedule goes on', async t => {
  const backups = join(dataDir(t), 'backups')
  const lines: string[] = []
  const log = new Writable({ write (chunk, _encoding, done) { lines.push(String(chunk)); done() } })
  const app = await build(t, { BACKUP_DIR: backups, BACKUP_INTERVAL: '1', BACKUP_KEEP: '3', LOG_LEVEL: 'info', METRICS_PORT: '0' }, log)
  t.equal((await app.inject('/health')).statusCode, 200)
  const schedule = apiOf(app).backups
  if (schedule === undefined) throw new Error('no schedule')
  await until(() => schedule.lastSuccess !== undefined, 'the first backup')
  // The directory replaced by a file: the next backup cannot be written.
  rmSync(backups, { recursive: true })
  writeFileSync(backups, 'in the way')
  await until(() => schedule.failures > 0, 'a failure')
  const failed = lines.map(line => JSON.parse(line) as { msg: string, level: number, dir?: string, err?: { message: string } })
    .find(line => line.msg === 'backup failed')
  t.match(failed, { level: 50, dir: backups, err: { message: /ENOTDIR/ } }, 'logged as an error naming the directory')
  rmSync(backups)
  mkdirSync(backups)
  const failures = schedule.failures
  const last = schedule.lastSuccess
  await until(() => schedule.lastSuccess !== last, 'a backup once the directory is back')
  t.ok(schedule.failures >= failures)
  t.ok(lines.some(line => line.includes('"msg":"backup taken"')))
  // A backup may end while the metrics are read: either of the two times is the truth.
  const seconds = (at: Date | undefined): number => (at?.getTime() ?? 0) / 1000
  const known = seconds(schedule.lastSuccess)
  const metrics = await app.metrics?.text() ?? ''
  t.equal(Number(/^zoo_backup_failures_total (\d+)$/m.exec(metrics)?.[1]), schedule.failures, 'the metrics count the failures')
  const lastSuccess = Number(/^zoo_backup_last_success_timestamp_seconds (\S+)$/m.exec(metrics)?.[1])
  t.ok([known, seconds(schedule.lastSuccess)].includes(lastSuccess), 'and say when the last backup succeeded')
})

t.test('scheduled backups are SQLite\'s: with DATABASE_URL, start-up says to use pg_dump', async t => {
  t.throws(() => loadConfig({ BACKUP_DIR: '/tmp/backups', DATABASE_URL: 'postgres://127.0.0.1/test' }, []),
    { message: 'BACKUP_DIR: scheduled backups copy the SQLite database; with DATABASE_URL back PostgreSQL up with pg_dump' })
})

t.test('a partial copy an interrupted backup left in BACKUP_DIR is deleted when the schedule starts', async t => {
  const backups = join(dataDir(t), 'backups')
  mkdirSync(backups)
  // An older version's, named by its process, and a folder the copy is made in now.
  const left = ['.zoo-20261128T010203.456Z.db.partial-4242', '.zoo-20261128T010203.456Z.db.partial-4242-journal']
  for (const name of left) writeFileSync(join(backups, name), 'a copy cut short')
  mkdirSync(join(backups, '.zoo-20261128T010203.456Z.db.partial-Xy12Zw'))
  writeFileSync(join(backups, '.zoo-20261128T010203.456Z.db.partial-Xy12Zw', 'zoo-20261128T010203.456Z.db'), 'a copy cut short')
  writeFileSync(join(backups, '.zoo-notes.partial'), 'not a copy of the schedule')
  const app = await build(t, { BACKUP_DIR: backups, BACKUP_INTERVAL: '3600', BACKUP_KEEP: '2' })
  t.equal((await app.inject('/health')).statusCode, 200)
  const schedule = apiOf(app).backups
  await until(() => schedule?.lastSuccess !== undefined, 'the first backup')
  const names = readdirSync(backups)
  t.notOk(names.some(name => name.includes('partial-4242')), 'the partial copy and its journal deleted')
  t.notOk(names.some(name => name.includes('partial-Xy12Zw')), 'and the folder of a copy with what it holds')
  t.ok(names.includes('.zoo-notes.partial'), 'a file of another name kept')
})

t.test('a BACKUP_DIR others may write into, or another user\'s, stops start-up naming it; one they may read is made private', async t => {
  const backups = join(dataDir(t), 'backups')
  mkdirSync(backups)
  chmodSync(backups, 0o777)
  const settings = { BACKUP_DIR: backups, BACKUP_INTERVAL: '3600' }
  await t.rejects(build(t, settings), {
    name: 'ConfigError',
    message: `BACKUP_DIR: ${backups} is open to other users (mode 777); a restore trusts the backups in it: chmod 700 ${backups}`
  })
  t.equal(statSync(backups).mode & 0o777, 0o777, 'left as it is')
  chmodSync(backups, 0o700)
  chownSync(backups, 4242, 4242)
  await t.rejects(build(t, settings), {
    name: 'ConfigError',
    message: `BACKUP_DIR: ${backups} belongs to another user; a restore trusts the backups in it, so it must be this user's own`
  })
  chownSync(backups, process.getuid?.() ?? 0, process.getgid?.() ?? 0)
  chmodSync(backups, 0o755)
  const app = await build(t, settings)
  t.equal(statSync(backups).mode & 0o777, 0o700, 'made private')
  t.equal((await app.inject('/health')).statusCode, 200)
  const schedule = apiOf(app).backups
  await until(() => schedule?.lastSuccess !== undefined, 'the first backup')
})

t.test('a backup is copied where no one else can reach it: files planted at the names its copy once had are left alone', async t => {
  const db = openDatabase(dataDir(t))
  t.teardown(() => db.close())
  const dir = dataDir(t)
  const planted = ['', '-journal', '-wal', '-shm'].map(suffix => {
    const victim = join(dir, `victim${suffix}`)
    writeFileSync(victim, 'not to be written')
    symlinkSync(victim, join(dir, `.zoo-backup.db.partial-${process.pid}${suffix}`))
    return victim
  })
  const taken = await takeBackup(db, join(dir, 'zoo-backup.db'))
  t.equal(taken.file, join(dir, 'zoo-backup.db'))
  for (const victim of planted) t.equal(readFileSync(victim, 'utf8'), 'not to be written', victim)
  t.same(readdirSync(dir).filter(name => !name.startsWith('victim') && !name.startsWith(`.zoo-backup.db.partial-${process.pid}`)),
    ['zoo-backup.db'], 'nothing else is left beside the copy')
})
