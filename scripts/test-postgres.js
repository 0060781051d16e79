// npm test's second pass: the suites that depend on the storage engine, again on PostgreSQL
// (ZOO_TEST_ENGINE=postgres, test/helper.ts), plus the test of two instances sharing it. Run
// when the database of ZOO_TEST_DATABASE_URL answers; with ZOO_REQUIRE_POSTGRES=1 (.ci/run) a
// database that does not answer fails the run instead of skipping the pass.
//
// Coverage: this pass runs a part of the suite, so on its own it covers less than the thresholds
// of .taprc. tap clears .tap/coverage when a run starts; the first pass's files are kept aside
// and put back, and `tap report` checks the thresholds against both passes together.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

const url = process.env.ZOO_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const SUITES = [
  'test/access', 'test/routes', 'test/auth', 'test/jobs', 'test/listeners', 'test/collections', 'test/store/postgres',
  'test/store/crash.test.ts', 'test/fuzz/access.test.ts', 'test/fuzz/aggregate.test.ts',
  'test/scale-out.test.ts', 'test/telemetry/metrics.test.ts', 'test/telemetry/tracing.test.ts', 'test/webhooks'
]
/**
 * Files of those folders that this pass leaves to the first: what they assert is decided before
 * or outside the store (in the process, in the HTTP and TLS layers), so it is the same on either
 * engine, and the first pass has run it. Every other test file of the folders runs again here.
 */
const SAME_ON_EVERY_ENGINE = [
  // No store at all: hashing, and the description of a resource.
  'test/auth/secrets.test.ts',
  'test/collections/resource.test.ts',
  // Opens SQLite storage itself (openSqliteStorage): it ran on SQLite in this pass too.
  'test/jobs/queue.test.ts',
  // Failed attempts are counted and locked in the process (auth/attempts.ts), hashing is limited there.
  'test/auth/token-guessing.test.ts',
  // The listeners: body, header and time limits, a refused body's lingering close (its server
  // process ran on SQLite in this pass too), all answered before a route handler runs.
  'test/listeners/limits.test.ts',
  'test/listeners/lingering-close.test.ts',
  // CORS, the root documents and their links, the pages for browsers, the 415/405/401 answers and
  // validation messages: decided before a route handler reads or writes anything.
  'test/routes/cors.test.ts',
  'test/routes/root.test.ts',
  'test/routes/pages.test.ts',
  'test/routes/first-minutes.test.ts'
]

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
try {
  await client.connect()
  await client.end()
} catch (err) {
  const said = `PostgreSQL at ${url} does not answer (${err.message})`
  if (process.env.ZOO_REQUIRE_POSTGRES === '1') {
    console.error(`${said}: the PostgreSQL pass cannot run`)
    process.exit(1)
  }
  console.log(`${said}: the PostgreSQL pass is skipped; start PostgreSQL to run it`)
  process.exit(0)
}
const COVERAGE = '.tap/coverage'
const firstPass = mkdtempSync(join(tmpdir(), 'zoo-coverage-'))
if (existsSync(COVERAGE)) cpSync(COVERAGE, firstPass, { recursive: true })
const env = { ...process.env, ZOO_TEST_ENGINE: 'postgres' }
const tap = (...args) => spawnSync('tap', args, { stdio: 'inherit', shell: true, env }).status ?? 1
// The test files of the suites: tap given a folder runs every .ts file in it, helper modules too.
const files = SUITES
  .flatMap(suite => suite.endsWith('.test.ts') ? [suite] : readdirSync(suite, { recursive: true }).map(file => `${suite}/${file}`))
  .filter(file => file.endsWith('.test.ts') && !SAME_ON_EVERY_ENGINE.includes(file))
  .sort()
// No thresholds for this pass alone: the report below checks them over both. Further arguments
// (npm run test:postgres -- --jobs=1) go to tap.
const tests = tap(...files, '--coverage-report=none', '--statements=0', '--branches=0', '--functions=0', '--lines=0',
  ...process.argv.slice(2))
cpSync(firstPass, COVERAGE, { recursive: true })
rmSync(firstPass, { recursive: true, force: true })
if (tests !== 0) process.exit(tests)
console.log('Coverage of both passes together:')
process.exit(tap('report', 'text-summary'))
