import { copyFileSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { restoreBackup } from '../../backups/restore.ts'
import { migrationsOf } from '../../store/migrations.ts'
import { takeBackup } from '../../store/sqlite/backup.ts'
import { openDatabase } from '../../store/sqlite/database.ts'
import { dataDir } from '../helper.ts'

/*
 * A restore compares the schema of the file it is given (its tables, indexes, triggers and views)
 * with what the migrations the file records make: anything else would run in the service, a
 * trigger at every write. In-process, on files the program's own backup made.
 */

const MIGRATIONS = migrationsOf('sqlite')

/** A backup, taken as the program takes one, of a database made by `migrations`. */
async function backupOf (t: Test, migrations = MIGRATIONS): Promise<string> {
  const db = openDatabase(dataDir(t), migrations)
  try {
    const file = join(dataDir(t), 'zoo.db')
    await takeBackup(db, file)
    return file
  } finally {
    db.close()
  }
}

/** A copy of `backup` changed by `sql`, as someone who could write the backup would change it. */
function altered (t: Test, backup: string, sql: string): string {
  const file = join(dataDir(t), 'altered.db')
  copyFileSync(backup, file)
  const db = new Database(file)
  try {
    db.exec(sql)
  } finally {
    db.close()
  }
  return file
}

t.test('a restore refuses a backup whose schema its migrations do not make, naming what differs, and changes nothing', async t => {
  const backup = await backupOf(t)
  const longName = `audit_${'x'.repeat(500)}`
  const cases: [string, string, RegExp][] = [
    ['a trigger', "CREATE TRIGGER audit AFTER INSERT ON zoos BEGIN UPDATE zoos SET name = 'changed' WHERE id = new.id; END",
      /: its schema is not what the migrations it records make: trigger "audit" on "zoos" is not theirs$/],
    ['a view', 'CREATE VIEW every_secret AS SELECT * FROM oauth_clients', /: view "every_secret" is not theirs$/],
    ['an index', 'CREATE INDEX zoos_by_both ON zoos (city, name)', /: index "zoos_by_both" on "zoos" is not theirs$/],
    ['a table', 'CREATE TABLE notes (note TEXT)', /: table "notes" is not theirs$/],
    ['a missing index', 'DROP INDEX zoos_city', /: index "zoos_city" on "zoos" is missing$/],
    ['a changed table', 'ALTER TABLE zoos ADD COLUMN motto TEXT', /: table "zoos" is not as they make it$/],
    ['a trigger and a view', 'CREATE VIEW v AS SELECT 1; CREATE TRIGGER t AFTER DELETE ON zoos BEGIN SELECT 1; END',
      /: (view "v"|trigger "t" on "zoos") is not theirs, and 1 more difference$/]
  ]
  for (const [what, sql, message] of cases) {
    const target = dataDir(t)
    await t.rejects(restoreBackup(target, altered(t, backup, sql), MIGRATIONS), { message }, what)
    t.same(readdirSync(target).filter(name => name !== 'zoo.lock'), [], `${what}: nothing restored, nothing half-copied left`)
  }
  const target = dataDir(t)
  const trigger = `CREATE TRIGGER "${longName}\nsecond line" AFTER INSERT ON zoos BEGIN SELECT 1; END`
  const refused = await restoreBackup(target, altered(t, backup, trigger), MIGRATIONS).then(() => '', (err: Error) => err.message)
  t.match(refused, /: trigger "audit_x{54}\.\.\." on "zoos" is not theirs$/, 'a name of the file\'s is quoted and cut short')
  t.notOk(refused.includes('\n'), 'on one line')
  t.ok(refused.length < 300, `of ${refused.length} characters`)
  t.notOk(existsSync(join(target, 'zoo.db')))
})

t.test('a backup an older version took restores: its schema is what its own migrations make', async t => {
  const older = MIGRATIONS.filter(m => m.version <= 90)
  const target = dataDir(t)
  const restored = await restoreBackup(target, await backupOf(t, older), MIGRATIONS)
  t.equal(restored.restored, join(target, 'zoo.db'))
  const db = openDatabase(target)
  t.equal((db.prepare('SELECT count(*) AS n FROM schema_migrations').get() as { n: number }).n, MIGRATIONS.length,
    'and the service then applies the migrations it lacks')
  db.close()
})

t.test('the statistics SQLite keeps for its query planner (ANALYZE) are no difference', async t => {
  const target = dataDir(t)
  const analyzed = altered(t, await backupOf(t), 'ANALYZE')
  const db = new Database(analyzed, { readonly: true })
  t.ok(db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get(), 'ANALYZE made sqlite_stat1')
  db.close()
  t.match(await restoreBackup(target, analyzed, MIGRATIONS), { restored: join(target, 'zoo.db') })
})
