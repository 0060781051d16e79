// `npm run bench -- [--rows N] [--duration S] [--connections C] [--tls proxy|on|both]
//                    [--targets service,A,S,B] [--cases get-one,list-zoos,...] [--warmup S]
//                    [--engine sqlite|postgres] [--instances N] [--database-url URL]`
//
// With --engine postgres the service keeps its records in PostgreSQL (a database of its own per
// run, copied from one seeded with the same records) and runs as --instances processes on it,
// the load split among them as a balancer would; the baselines stay as they are.
//
// Builds (npm script), seeds one SQLite file and one db.json with --rows records per collection,
// then loads each target, a separate process on 127.0.0.1, with autocannon, case by case: the
// service (dist/server.js) and three baselines (A: bare Fastify, S: hand-written Fastify +
// SQLite, B: json-server). Prints one table per TLS mode and writes the run to
// bench/results/<date>-<rows>.json. See bench/README.md.
import { closeSync, copyFileSync, fsyncSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { spawn } from 'node:child_process'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { BOUND_CASES, CASES, casesFor, SERVICE_ONLY, WRITE_POWER } from './cases.js'
import { MODES, numberFlag } from './flags.js'
import { describeErrors, ms, percentile, printTable } from './report.js'
import { seed } from './seed.js'
import { copyDatabase, dropDatabase, seedPostgres } from './seed-postgres.js'
import { prepareService } from './service.js'
import {
  POSTGRES_TARGETS, TARGETS, authorize, authorizeBound, certificate, freePort, killAll, residentMemory, send, start, stop, tail
} from './targets.js'
import { writePower } from './write-power.js'

const HERE = fileURLToPath(new URL('.', import.meta.url))

// 2 s measured after 1 s of warm-up per case: the whole default run (both TLS modes, four
// targets, twenty-one load cases of 3 s, the read-power and bound cases being the service's alone;
// and the four write-power cases, about 25 s, the service's alone) at
// --rows 1000000, build, seeding, start-ups and the slow targets' queues included, stays under
// ten minutes on two cores (bench/README.md).
const DEFAULTS = {
  rows: 100_000,
  duration: 2,
  warmup: 1,
  connections: 20,
  tls: 'both',
  engine: 'sqlite',
  instances: 1,
  // The server's maintenance database: the bench makes and drops its own databases beside it.
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres'
}
const SEED_DATABASE = 'zoo_bench_seed'
const RUN_DATABASE = 'zoo_bench_run'
// How long a target may take, after a case, to work off the requests still queued when the load
// stopped (the service's deep offset pages at a million rows take ~10 s), before the next case.
const SETTLE_SECONDS = 30

function options () {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      tls: { type: 'string' },
      targets: { type: 'string' },
      cases: { type: 'string' },
      engine: { type: 'string' },
      instances: { type: 'string' },
      'database-url': { type: 'string' },
      observed: { type: 'boolean' },
      'trace-ratio': { type: 'string' }
    },
    strict: true
  })
  const number = (name, min, integer) => numberFlag(values, name, DEFAULTS[name], min, integer)
  const list = (name, known) => {
    if (values[name] === undefined) return known
    const given = values[name].split(',').map(s => s.trim()).filter(s => s !== '')
    const unknown = given.filter(s => !known.includes(s))
    if (unknown.length > 0 || given.length === 0) {
      throw new Error(`--${name}: unknown ${unknown.join(', ') || '(empty)'}; known: ${known.join(',')}`)
    }
    // Always in the canonical order, whatever the order given.
    return known.filter(s => given.includes(s))
  }
  const tls = values.tls ?? DEFAULTS.tls
  if (!['proxy', 'on', 'both'].includes(tls)) throw new Error(`--tls must be proxy, on or both, got ${tls}`)
  const engine = values.engine ?? DEFAULTS.engine
  if (!['sqlite', 'postgres'].includes(engine)) throw new Error(`--engine must be sqlite or postgres, got ${engine}`)
  const instances = number('instances', 1, true)
  if (instances > 1 && engine === 'sqlite') throw new Error('--instances above 1 needs --engine postgres: instances share a database')
  // The baselines on PostgreSQL are measured with --engine postgres only: they need its seeded database.
  const known = engine === 'postgres' ? TARGETS : TARGETS.filter(name => !POSTGRES_TARGETS.includes(name))
  return {
    engine,
    instances,
    databaseUrl: values['database-url'] ?? DEFAULTS.databaseUrl,
    rows: number('rows', 1, true),
    duration: number('duration', 0.5, false),
    warmup: number('warmup', 0, false),
    connections: number('connections', 1, true),
    tls,
    modes: tls === 'both' ? ['proxy', 'on'] : [tls],
    targets: list('targets', known),
    cases: list('cases', CASES),
    observed: values.observed === true,
    traceRatio: values['trace-ratio'] === undefined ? undefined : traceRatio(values['trace-ratio'], values.observed === true)
  }
}

/** --trace-ratio: the share of requests traced, with --observed only; 0 leaves the traces off, the metrics alone on. */
function traceRatio (raw, observed) {
  const ratio = Number(raw)
  if (!observed || raw.trim() === '' || !(ratio >= 0 && ratio <= 1)) {
    throw new Error(`--trace-ratio needs --observed and a number from 0 to 1, got ${raw}`)
  }
  return ratio
}

/**
 * With --observed, the service runs with its metrics and traces on, as an operator would run it:
 * /metrics scraped every 5 s, as Prometheus does by default every 15, and every request traced
 * (the default sampler; --trace-ratio R traces that share of them, as OTEL_TRACES_SAMPLER_ARG
 * would) to a collector of its own process (collector.js) that discards what it receives.
 * `env()` is the service's settings for it; `stop()` says what was scraped and sent.
 */
async function observer (ratio) {
  const collector = spawn(process.execPath, [join(HERE, 'collector.js')], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines = createInterface({ input: collector.stdout })[Symbol.asyncIterator]()
  const collectorPort = Number((await lines.next()).value)
  const timers = []
  let scrapes = 0
  return {
    async env () {
      const metricsPort = await freePort()
      const scrape = () => fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(r => r.text()).then(() => { scrapes++ }, () => {})
      timers.push(setInterval(scrape, 5000))
      if (ratio === 0) return { METRICS_PORT: String(metricsPort) }
      const sampled = ratio === undefined
        ? {}
        : { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio) }
      return { METRICS_PORT: String(metricsPort), OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`, ...sampled }
    },
    async stop () {
      for (const timer of timers) clearInterval(timer)
      collector.kill('SIGTERM')
      const received = JSON.parse((await lines.next()).value)
      return { scrapes, ...received }
    }
  }
}

/** The cursor-deep page of a target, taken from its own answers, and checked against offset. */
async function deepCursor (target, rows) {
  // Walking `next` links from the first page would take rows/100 requests (10,000 at a million
  // rows, minutes of the time budget) and forging a cursor would test the bench, not the API.
  // Instead: one offset page just before the end, whose Link header carries the target's own
  // keyset cursor for the page after it (the service's `next` always carries a cursor; S's too).
  // That is exactly the cursor a walk would reach. The page it gives is checked against the
  // offset page at the same position.
  const sorted = '/v1/zoos?sortby=name&limit=20'
  const position = Math.max(0, rows - 20)
  const before = Math.max(0, position - 20)
  const answer = await send(target, 'GET', `${sorted}&offset=${before}`, { timeout: 120_000 })
  const next = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.link ?? '')
  if (answer.status !== 200 || next === null) {
    return { note: `no next link on ${sorted}&offset=${before}: ${answer.status} ${answer.body.slice(0, 200)}` }
  }
  const url = new URL(next[1], 'http://127.0.0.1')
  const path = `${url.pathname}${url.search}`
  const ids = async p => {
    const page = await send(target, 'GET', p, { timeout: 120_000 })
    return page.status === 200 ? JSON.parse(page.body).map(r => r.id).join(',') : `${page.status}`
  }
  const [byCursor, byOffset] = [await ids(path), await ids(`${sorted}&offset=${position}`)]
  return { path, note: byCursor === byOffset ? undefined : `cursor page (${byCursor}) differs from offset page (${byOffset})` }
}

/**
 * The bound list answers what its twin answers: the same records and total, none missing, so the
 * two cases compare the cost of the rule and nothing else.
 */
async function sameAsTwin (target, cases) {
  const answer = async make => {
    const { path, headers } = make()
    const { status, headers: got, body } = await send(target, 'GET', path, { headers })
    return { status, total: got['x-total-count'], body }
  }
  const [twin, bound] = [await answer(cases['list-keepers']), await answer(cases['list-bound'])]
  if (twin.status !== 200 || Number(twin.total) === 0 || JSON.stringify(twin) !== JSON.stringify(bound)) {
    const shown = answer => JSON.stringify(answer).slice(0, 200)
    throw new Error(`list-bound differs from list-keepers: ${shown(bound)} against ${shown(twin)}`)
  }
}

/** Success: the status the case expects (`make.expect`, a 304 revalidation), else any 2xx. */
const succeeded = (make, status) => make.expect === undefined ? status >= 200 && status < 300 : Number(status) === make.expect

/** The ETag of `path` as the target answers it now: what a client revalidating the page holds. */
async function etagOf (target, path) {
  const answer = await send(target, 'GET', path)
  if (answer.status !== 200 || answer.headers.etag === undefined) {
    throw new Error(`GET ${path}: ${answer.status} without an ETag: ${answer.body.slice(0, 200)}`)
  }
  return answer.headers.etag
}

/**
 * One case against one target: `warmup` seconds, then `duration` seconds measured, in one
 * autocannon run (no gap in which the target would drain its queue). Only answers that arrive in
 * the measured window count. Success means a 2xx status, or the one the case expects: req/s counts those only.
 */
async function load (target, next, { warmup, duration, connections }) {
  // Several instances of the service: the connections spread over them, as a balancer would.
  const ports = target.ports ?? [target.port]
  const headers = target.headers
  const setupRequest = request => {
    const r = next()
    return {
      ...request,
      method: r.method,
      path: r.path,
      // A fresh object each time: autocannon adds Content-Length to the one it is given.
      headers: { ...headers, ...r.headers, ...(r.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: r.body ?? Buffer.alloc(0)
    }
  }
  const latencies = []
  const statuses = {}
  let errors = 0
  let timeouts = 0
  const started = performance.now()
  const measureFrom = started + warmup * 1000
  const instances = ports.map((port, i) => autocannon({
    url: `${target.https ? 'https' : 'http'}://127.0.0.1:${port}`,
    connections: Math.floor(connections / ports.length) + (i < connections % ports.length ? 1 : 0),
    duration: warmup + duration,
    requests: [{ setupRequest }],
    // autocannon checks for the end of the run once per sample: 1 s by default, rounding the run up.
    sampleInt: 100,
    // Trust the bench's own self-signed certificate, as a client configured for it would.
    tlsOptions: target.https ? { ca: target.ca } : undefined
  }))
  for (const instance of instances) {
    instance.on('response', (client, status, bytes, time) => {
      if (performance.now() < measureFrom) return
      statuses[status] = (statuses[status] ?? 0) + 1
      latencies.push(time)
    })
    instance.on('reqError', error => {
      if (performance.now() < measureFrom) return
      errors++
      if (/timed out/.test(error.message)) timeouts++
    })
  }
  await Promise.all(instances)
  const seconds = (performance.now() - measureFrom) / 1000
  latencies.sort((a, b) => a - b)
  const answers = latencies.length
  const ok = Object.entries(statuses).reduce((sum, [status, n]) => sum + (succeeded(next, status) ? n : 0), 0)
  const failed = answers - ok + errors
  return {
    reqPerSec: ok / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? null,
    seconds,
    answers,
    ok,
    // Answers without the status the case expects: named for the 2xx of most cases, kept so in every result file.
    non2xx: answers - ok,
    statuses,
    expect: next.expect,
    errors,
    timeouts,
    // Most answers wrong: the figure says nothing about the case.
    failing: failed * 2 > answers + errors,
    // Not one answer in the measured window: slower than the window, or stuck.
    silent: answers + errors === 0
  }
}

/** Up to three requests of the case, until one fails: its request, status and body. */
async function diagnose (target, make) {
  let probe
  for (let i = 0; i < 3; i++) {
    const sample = make()
    probe = { request: `${sample.method} ${sample.path}` }
    try {
      const answer = await send(target, sample.method, sample.path, {
        body: sample.body,
        headers: { ...sample.headers, ...(sample.body === undefined ? {} : { 'content-type': 'application/json' }) },
        timeout: 15_000
      })
      probe.status = answer.status
      if (!succeeded(make, answer.status)) {
        probe.body = answer.body.slice(0, 300)
        break
      }
    } catch (err) {
      probe.error = err.message
      break
    }
  }
  return probe
}

/** Waits until the target answers again (its queue of this case's requests drained), at most `limit` ms. */
async function settle (target, limit) {
  const started = performance.now()
  for (;;) {
    const left = limit - (performance.now() - started)
    if (left <= 0) return null
    try {
      await send(target, 'GET', target.ready, { timeout: left })
      return (performance.now() - started) / 1000
    } catch {}
  }
}

/**
 * Copies a file and waits until the copy is on disk. Left to the kernel's writeback, the hundreds
 * of MiB of a large seed would be written while the target runs, and every fsync of its writes
 * would wait behind them: the first target after a copy would measure the disk, not itself.
 */
function copyOnDisk (from, to) {
  copyFileSync(from, to)
  onDisk(to)
}

function onDisk (file) {
  const fd = openSync(file, 'r')
  fsyncSync(fd)
  closeSync(fd)
}

async function runTarget (name, mode, ctx) {
  const { opts, seedDir, tls, data } = ctx
  const dataDir = join(ctx.tmp, `${mode}-${name}`)
  mkdirSync(dataDir)
  const onPostgres = (name === 'service' && opts.engine === 'postgres') || POSTGRES_TARGETS.includes(name)
  // Each target its own copy: writes of one never reach another.
  const file = onPostgres ? undefined : { service: 'zoo.db', S: 'zoo.db', B: 'db.json' }[name]
  if (file !== undefined) copyOnDisk(join(seedDir, file), join(dataDir, file))
  const runDatabase = `${RUN_DATABASE}_${name.toLowerCase()}`
  const databaseUrl = onPostgres ? await copyDatabase(opts.databaseUrl, SEED_DATABASE, runDatabase) : undefined
  const result = { cases: {} }
  let target
  try {
    const count = onPostgres ? opts.instances : 1
    const instances = []
    for (let instance = 0; instance < count; instance++) {
      const extraEnv = name === 'service' && ctx.observer !== undefined ? await ctx.observer.env() : {}
      instances.push(await start(name, { dataDir, tls, mode, readyTimeout: 60_000 + opts.rows * 0.15, databaseUrl, instance, extraEnv }))
    }
    // Behind one balancer every instance gets the Host the clients used, whatever its own port:
    // the same links, and the same list ETag (it covers the origin), from each.
    target = instances.length === 1
      ? instances[0]
      : { ...instances[0], ports: instances.map(i => i.port), instances, headers: { ...instances[0].headers, host: 'zoo.bench.test' } }
  } catch (err) {
    console.log(`  ${name}: could not start: ${err.message}`)
    result.failed = err.message
    rmSync(dataDir, { recursive: true, force: true })
    if (databaseUrl !== undefined) await dropDatabase(opts.databaseUrl, runDatabase)
    return result
  }
  result.startSeconds = target.startSeconds
  try {
    if (name === 'service') await authorize(target)
    if (name === 'service' && opts.cases.some(c => BOUND_CASES.includes(c))) {
      await authorizeBound(target, data.boundZoo)
      await sameAsTwin(target, casesFor(target, data))
    }
    if (['service', 'S', 'Spg'].includes(name) && opts.cases.includes('cursor-deep')) {
      const cursor = await deepCursor(target, opts.rows)
      target.cursorPath = cursor.path
      result.cursor = cursor
      if (cursor.note !== undefined) console.log(`  ${name}: cursor-deep: ${cursor.note}`)
    }
    const cases = casesFor(target, data)
    for (const caseName of opts.cases) {
      if (caseName in WRITE_POWER) {
        if (name !== 'service') {
          result.cases[caseName] = { na: SERVICE_ONLY }
          continue
        }
        try {
          result.cases[caseName] = { writePower: await writePower(target, caseName, opts) }
          console.log(`  ${name.padEnd(7)} ${caseName.padEnd(18)} ${JSON.stringify(result.cases[caseName].writePower, (k, v) =>
            typeof v === 'number' ? Number(v.toFixed(2)) : v)}`)
        } catch (err) {
          result.cases[caseName] = { failed: err.message }
          console.log(`  ${name}: ${caseName}: ${err.message}`)
        }
        continue
      }
      const make = cases[caseName]
      if (typeof make === 'string' || (caseName === 'cursor-deep' && target.cursorPath === undefined && name !== 'A')) {
        result.cases[caseName] = { na: typeof make === 'string' ? make : 'no cursor' }
        continue
      }
      const caseStarted = performance.now()
      if (caseName === 'list-304') {
        // From the running target: its tags hold what its own process stamps (SQLite's counters
        // start anew in each process), and the cases before may have written.
        try {
          target.listEtag = await etagOf(target, make().path)
        } catch (err) {
          result.cases[caseName] = { na: `no ETag to revalidate: ${err.message}` }
          console.log(`  ${name}: ${caseName}: ${err.message}`)
          continue
        }
      }
      const figures = await load(target, make, opts)
      // Errors: a few requests more, to show what the target answers (a wrong URL, a 500).
      if (figures.non2xx + figures.errors > 0) figures.probe = await diagnose(target, make)
      // Before the next case, the target works off what was still queued when the load stopped.
      if (caseName !== opts.cases.at(-1)) figures.settleSeconds = await settle(target, SETTLE_SECONDS * 1000)
      figures.wallSeconds = (performance.now() - caseStarted) / 1000
      result.cases[caseName] = figures
      const errorNote = figures.failing
        ? `  !! FAILING: ${describeErrors(figures)}`
        : figures.non2xx + figures.errors > 0 ? `  (errors: ${describeErrors(figures)})` : ''
      const silentNote = figures.silent ? '  (no answer within the measured window)' : ''
      const busyNote = figures.settleSeconds === null ? '  (still busy after the case)' : ''
      console.log(`  ${name.padEnd(7)} ${caseName.padEnd(18)} ${figures.reqPerSec.toFixed(1).padStart(9)} req/s  ` +
        `p50 ${ms(figures.p50)} ms  p99 ${ms(figures.p99)} ms${errorNote}${silentNote}${busyNote}`)
      if (target.exited !== null) {
        result.failed = `stopped during ${caseName} (${target.exited}):\n${tail(target.logFile)}`
        console.log(`  ${name}: ${result.failed}`)
        break
      }
    }
  } catch (err) {
    result.failed = err.message
    console.log(`  ${name}: ${err.message}`)
  } finally {
    const instances = target.instances ?? [target]
    result.rss = instances.map(residentMemory).reduce((sum, rss) => rss === null || sum === null ? null : sum + rss, 0)
    for (const instance of instances) await stop(instance)
    rmSync(dataDir, { recursive: true, force: true })
    if (databaseUrl !== undefined) await dropDatabase(opts.databaseUrl, runDatabase)
  }
  return result
}

async function main () {
  const opts = options()
  const began = performance.now()
  const tmp = mkdtempSync(join(tmpdir(), 'zoo-bench-'))
  const cleanup = () => {
    killAll()
    rmSync(tmp, { recursive: true, force: true })
  }
  process.on('exit', cleanup)
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.log(`\n${signal}: stopping the targets and removing ${tmp}`)
      process.exit(130)
    })
  }

  const engine = opts.engine === 'sqlite' ? 'SQLite' : `PostgreSQL, ${opts.instances} instance${opts.instances === 1 ? '' : 's'}`
  console.log(`zoo-api bench: ${opts.rows} rows per collection, ${opts.connections} connections, ` +
    `${opts.warmup} s warm-up + ${opts.duration} s per case; ` +
    `TLS ${opts.modes.join(' and ')}; targets ${opts.targets.join(', ')}; the service on ${engine}`)
  await prepareService()
  const seedDir = join(tmp, 'seed')
  const seedStarted = performance.now()
  const data = await seed(seedDir, opts.rows)
  for (const file of ['zoo.db', 'db.json']) onDisk(join(seedDir, file))
  const seedSeconds = (performance.now() - seedStarted) / 1000
  const seedInfo = {
    seconds: seedSeconds,
    zooDbBytes: statSync(join(seedDir, 'zoo.db')).size,
    dbJsonBytes: statSync(join(seedDir, 'db.json')).size
  }
  console.log(`seeded in ${seedSeconds.toFixed(1)} s: zoo.db ${(seedInfo.zooDbBytes / 2 ** 20).toFixed(0)} MiB, ` +
    `db.json ${(seedInfo.dbJsonBytes / 2 ** 20).toFixed(0)} MiB`)
  if (opts.engine === 'postgres') {
    const started = performance.now()
    await seedPostgres(opts.databaseUrl, SEED_DATABASE, join(seedDir, 'zoo.db'))
    seedInfo.postgresSeconds = (performance.now() - started) / 1000
    console.log(`copied into PostgreSQL in ${seedInfo.postgresSeconds.toFixed(1)} s`)
  }

  let tls
  if (opts.modes.includes('on')) {
    // One certificate for every HTTPS target, trusted by the bench's clients through `ca`.
    tls = await certificate(tmp)
  }

  const ctx = { opts, tmp, seedDir, tls, data, observer: opts.observed ? await observer(opts.traceRatio) : undefined }
  const modes = {}
  for (const mode of opts.modes) {
    console.log(`\n${MODES[mode]}`)
    const targets = {}
    for (const name of opts.targets) targets[name] = await runTarget(name, mode, ctx)
    modes[mode] = { targets }
    console.log()
    printTable(mode, MODES[mode], targets, opts)
  }

  if (opts.engine === 'postgres') await dropDatabase(opts.databaseUrl, SEED_DATABASE)
  const observed = await ctx.observer?.stop()
  if (observed !== undefined) {
    console.log(`observed: ${observed.scrapes} scrapes of /metrics, ${observed.exports} exports of spans (${observed.bytes} bytes)`)
  }
  const wallSeconds = (performance.now() - began) / 1000
  const date = new Date()
  const run = {
    settings: {
      rows: opts.rows,
      duration: opts.duration,
      warmup: opts.warmup,
      connections: opts.connections,
      tls: opts.tls,
      targets: opts.targets,
      cases: opts.cases,
      engine: opts.engine,
      instances: opts.instances,
      observed: opts.observed,
      traceRatio: opts.traceRatio ?? (opts.observed ? 1 : undefined)
    },
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryBytes: totalmem(),
      platform: process.platform,
      date: date.toISOString()
    },
    seed: seedInfo,
    ...(observed === undefined ? {} : { observed }),
    modes,
    wallSeconds
  }
  const dir = join(HERE, 'results')
  mkdirSync(dir, { recursive: true })
  const engineTag = opts.engine === 'sqlite' ? '' : `-postgres-${opts.instances}`
  const observedTag = opts.observed ? `-observed${opts.traceRatio === undefined ? '' : `-${opts.traceRatio}`}` : ''
  const file = join(dir, `${date.toISOString().slice(0, 10)}-${opts.rows}${engineTag}${observedTag}.json`)
  writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`)
  console.log(`\nwhole run ${wallSeconds.toFixed(0)} s; results in ${file}`)
}

try {
  await main()
  process.exit(0)
} catch (err) {
  console.error(`bench: ${err.stack ?? err.message}`)
  process.exit(1)
}
