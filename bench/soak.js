// `npm run soak -- [--duration S] [--connections C] [--rows N] [--tls proxy|on|self-signed] [--max-growth P]`
//
// A bounded soak of the service (dist/server.js, started as the bench starts it: bench/targets.js)
// over a database seeded as the bench seeds it (bench/seed.js): --duration seconds of mixed reads
// and writes at --connections concurrent connections, in one autocannon run. Each connection
// loops over the same cycle of requests (cycle() below): lists with filters and sorting, reads of
// one record, and writes: it creates a record, reads it, changes it, changes a seeded record, and
// deletes the record it created. A connection only ever deletes or changes a record that it
// created itself and has not deleted yet, so every answer should be a success (2xx or 3xx).
//
// Meanwhile the resident memory (VmRSS) of the service's process is sampled once a second, and its
// V8 heap read from the --trace-gc lines of its log (a diagnosis, not part of the verdict). Passing
// means: no error (no answer outside 2xx/3xx, no socket error or timeout), and memory that levels
// off: the mean RSS of the last quarter of the run at most --max-growth percent (10) above the
// mean of the second quarter (the first quarter is warm-up: JIT, caches, connection buffers).
// Exits 1 otherwise. Writes bench/results/<date>-soak-<rows>-<duration>s[-tls].json and an SVG
// plot of the memory over time beside it. See bench/README.md.
import { closeSync, fstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { casesFor, MIXED_READS } from './cases.js'
import { MODES, numberFlag } from './flags.js'
import { ms, percentile, table } from './report.js'
import { seed } from './seed.js'
import { prepareService } from './service.js'
import { authorize, certificate, killAll, memoryStatus, send, start, stop } from './targets.js'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const ROOT = join(HERE, '..')

const DEFAULTS = { duration: 120, connections: 100, rows: 10_000, tls: 'proxy', maxGrowth: 10 }
/** `self-signed` is another name for the bench's `on`: HTTPS with a certificate the soak makes. */
const TLS_MODES = { proxy: 'proxy', on: 'on', 'self-signed': 'on' }
const MiB = 2 ** 20

function options () {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      rows: { type: 'string' },
      tls: { type: 'string' },
      'max-growth': { type: 'string' }
    },
    strict: true
  })
  const number = (flag, key, min, integer) => numberFlag(values, flag, DEFAULTS[key], min, integer)
  const tls = values.tls ?? DEFAULTS.tls
  if (TLS_MODES[tls] === undefined) throw new Error(`--tls must be proxy, on or self-signed, got ${tls}`)
  return {
    // At least two memory samples in each quarter of the run.
    duration: number('duration', 'duration', 8, true),
    connections: number('connections', 'connections', 1, true),
    rows: number('rows', 'rows', 1000, true),
    tls,
    mode: TLS_MODES[tls],
    maxGrowth: number('max-growth', 'maxGrowth', 0, false)
  }
}

const int = n => Math.floor(Math.random() * n)
const pick = list => list[int(list.length)]
const json = body => JSON.stringify(body)

/**
 * The requests of one connection's cycle, in order. Each step makes its request from the
 * connection's context ({ created: { collection, id } } once its create has been answered), or
 * a read where the create failed (already an error). `kind` names the request in the report.
 */
function cycle (target, data) {
  const cases = casesFor(target, data)
  const { rows, zoosWithAnimals } = data
  const seeded = () => 1 + int(rows)
  // Reads: the bench's mixed reads, and a few more filters, sorts and pages.
  const reads = {
    ...Object.fromEntries(MIXED_READS.map(name => [name, cases[name]])),
    'list-in': () => {
      const cities = encodeURIComponent(`${pick(data.cities)},${pick(data.cities)}`)
      return { method: 'GET', path: `/v1/zoos?city_in=${cities}&sortby=opened_on,name&order=desc,asc&limit=50` }
    },
    'list-paged': () => ({
      method: 'GET',
      path: `/v1/employees?hired_on_gte=2000-01-01&sortby=name&page=${1 + int(20)}&per_page=25`
    }),
    'list-offset': () => ({
      method: 'GET',
      path: `/v1/animals?born_on_lt=2010-01-01&sortby=name,id&limit=20&offset=${20 * int(50)}`
    }),
    'get-animal': () => ({ method: 'GET', path: `/v1/animals/${seeded()}` }),
    'get-employee': () => ({ method: 'GET', path: `/v1/employees/${seeded()}` })
  }
  const readNames = Object.keys(reads)
  const read = () => {
    const kind = pick(readNames)
    return { kind, ...reads[kind]() }
  }

  let created = 0
  const creates = {
    zoos: () => cases['post-one'](),
    animals: () => ({
      method: 'POST',
      path: `/v1/zoos/${1 + int(zoosWithAnimals)}/animals`,
      body: json({ name: `soak animal ${int(1e9)}`, species: data.species, animal_type_id: 1 + int(20), born_on: '2020-05-01' })
    }),
    employees: () => ({
      method: 'POST',
      path: '/v1/employees',
      body: json({
        name: `soak employee ${int(1e9)}`,
        role: data.role,
        // Unique among employees: one per create of this run.
        email: `soak-${process.pid}-${++created}@zoo.test`,
        zoo_id: Math.random() < 0.2 ? null : seeded(),
        hired_on: '2021-03-01'
      })
    })
  }
  /** A field change each collection accepts. */
  const changes = {
    zoos: () => ({ city: pick(data.cities) }),
    animals: () => ({ name: `soak animal ${int(1e9)}` }),
    employees: () => ({ role: pick(['keeper', 'vet', 'guide']) })
  }
  /** A step on the record this connection created, or a read when it has none. */
  const onCreated = (kind, make) => context => {
    const mine = context.created
    return mine === undefined ? read() : { kind, ...make(mine) }
  }

  const steps = [
    { make: read },
    {
      make: context => {
        const collection = pick(Object.keys(creates))
        context.creating = collection
        return { kind: `create-${collection.slice(0, -1)}`, ...creates[collection]() }
      },
      answered: (status, body, context) => {
        if (status === 201) context.created = { collection: context.creating, id: JSON.parse(body).id }
      }
    },
    { make: read },
    { make: onCreated('get-created', ({ collection, id }) => ({ method: 'GET', path: `/v1/${collection}/${id}` })) },
    { make: read },
    {
      make: onCreated('patch-created', ({ collection, id }) => ({
        method: 'PATCH', path: `/v1/${collection}/${id}`, body: json(changes[collection]())
      }))
    },
    { make: read },
    {
      make: () => {
        const collection = pick(Object.keys(changes))
        return { kind: 'patch-seeded', method: 'PATCH', path: `/v1/${collection}/${seeded()}`, body: json(changes[collection]()) }
      }
    },
    { make: read },
    { make: read },
    {
      make: onCreated('delete-created', ({ collection, id }) => ({ method: 'DELETE', path: `/v1/${collection}/${id}` })),
      answered: (status, body, context) => {
        if (status === 204) context.created = undefined
      }
    },
    { make: read }
  ]
  return steps
}

/**
 * Three passes over the cycle, one request at a time, before the load: a request the service
 * refuses (a wrong path or body) shows at once, with its answer, instead of as a count of errors.
 */
async function rehearse (target, steps) {
  const context = {}
  const failures = []
  for (let round = 0; round < 3; round++) {
    for (const step of steps) {
      const r = step.make(context)
      const answer = await send(target, r.method, r.path, {
        body: r.body,
        headers: r.body === undefined ? {} : { 'content-type': 'application/json' }
      })
      if (answer.status >= 400) failures.push(`${r.kind}: ${r.method} ${r.path} answers ${answer.status}: ${answer.body.slice(0, 300)}`)
      step.answered?.(answer.status, answer.body, context)
    }
  }
  return failures
}

/**
 * The load: one autocannon run of `duration` seconds, each connection looping over `steps`.
 * Totals, and per kind of request: status counts and latencies.
 */
async function load (target, steps, { duration, connections }) {
  const kinds = {}
  const kindOf = name => (kinds[name] ??= { statuses: {}, latencies: [] })
  const statuses = {}
  const latencies = []
  let socketErrors = 0
  let timeouts = 0
  const errorSamples = new Set()
  // autocannon calls a request's onResponse, then emits 'response' (with the latency), for the same
  // answer in the same tick: `answered` carries the kind from the first to the second.
  let answered
  const requests = steps.map(step => ({
    setupRequest: (request, context) => {
      const r = step.make(context)
      context.kind = r.kind
      return {
        ...request,
        method: r.method,
        path: r.path,
        // A fresh object each time: autocannon adds Content-Length to the one it is given.
        headers: r.body === undefined ? { ...target.headers } : { ...target.headers, 'content-type': 'application/json' },
        body: r.body ?? Buffer.alloc(0)
      }
    },
    onResponse: (status, body, context) => {
      answered = context.kind
      const kind = kindOf(context.kind)
      kind.statuses[status] = (kind.statuses[status] ?? 0) + 1
      if ((status < 200 || status >= 400) && errorSamples.size < 5) errorSamples.add(`${context.kind} ${status}: ${body.slice(0, 200)}`)
      step.answered?.(status, body, context)
    }
  }))
  const started = performance.now()
  const instance = autocannon({
    url: `${target.https ? 'https' : 'http'}://127.0.0.1:${target.port}`,
    connections,
    duration,
    requests,
    tlsOptions: target.https ? { ca: target.ca } : undefined
  })
  instance.on('response', (client, status, bytes, time) => {
    statuses[status] = (statuses[status] ?? 0) + 1
    latencies.push(time)
    kindOf(answered ?? 'unknown').latencies.push(time)
    answered = undefined
  })
  instance.on('reqError', error => {
    socketErrors++
    if (/timed out/.test(error.message)) timeouts++
    if (errorSamples.size < 5) errorSamples.add(`socket: ${error.message}`)
  })
  await instance
  const seconds = (performance.now() - started) / 1000
  const failed = counts => Object.entries(counts).reduce((sum, [status, n]) => sum + (status < 200 || status >= 400 ? n : 0), 0)
  const figures = list => {
    list.sort((a, b) => a - b)
    return { p50: percentile(list, 0.5), p99: percentile(list, 0.99), max: list.at(-1) ?? null }
  }
  const answers = latencies.length
  const errors = failed(statuses) + socketErrors
  return {
    seconds,
    requests: answers + socketErrors,
    answers,
    errors,
    statuses,
    socketErrors,
    timeouts,
    errorSamples: [...errorSamples],
    okPerSecond: (answers - failed(statuses)) / seconds,
    latency: figures(latencies),
    kinds: Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => a.localeCompare(b)).map(([name, k]) => [name, {
      answers: k.latencies.length,
      errors: failed(k.statuses),
      statuses: k.statuses,
      ...figures(k.latencies)
    }]))
  }
}

/** One line of node's --trace-gc: the kind of collection, then the heap MiB used (and committed) before -> after. */
const GC_LINE = /ms: ((?:Minor )?Mark-(?:Compact|Sweep)|Scavenge)\b\D*?([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB/

/**
 * The service's V8 heap as the --trace-gc lines of its log tell it: the bytes still used after
 * the latest collection (`heap`) and after the latest full one (`heapAfterFull`: what the process
 * really keeps), and how many full collections (mark-compact) there were. Each call reads only
 * what the log gained since the one before.
 */
function gcLog (file) {
  let offset = 0
  let rest = ''
  const state = { heap: null, heapAfterFull: null, fullCollections: 0 }
  return () => {
    let fd
    try {
      fd = openSync(file, 'r')
    } catch {
      return { ...state }
    }
    try {
      const size = fstatSync(fd).size
      if (size > offset) {
        const chunk = Buffer.alloc(size - offset)
        readSync(fd, chunk, 0, chunk.length, offset)
        offset = size
        const lines = `${rest}${chunk.toString()}`.split('\n')
        rest = lines.pop()
        for (const line of lines) {
          const gc = GC_LINE.exec(line)
          if (gc === null) continue
          state.heap = Math.round(Number(gc[4]) * MiB)
          if (gc[1].startsWith('Mark-')) {
            state.heapAfterFull = state.heap
            state.fullCollections++
          }
        }
      }
    } finally {
      closeSync(fd)
    }
    return { ...state }
  }
}

const mean = list => list.reduce((sum, v) => sum + v, 0) / list.length

/**
 * First, max and last RSS, and the verdict: the mean of the last quarter of the run against the
 * mean of the second quarter. `samples`: { t: seconds since the load began, rss, anon, file, shmem: bytes }.
 */
function memoryVerdict (samples, duration, maxGrowth) {
  const rss = samples.map(s => s.rss)
  const within = (from, to) => samples.filter(({ t }) => t >= from * duration && t <= to * duration).map(s => s.rss)
  const second = within(0.25, 0.5)
  // The sample taken just after the load ended counts with the last quarter.
  const last = within(0.75, Infinity)
  const enough = second.length >= 2 && last.length >= 2
  const growth = enough ? (mean(last) - mean(second)) / mean(second) * 100 : null
  return {
    samples,
    firstBytes: rss[0] ?? null,
    maxBytes: rss.length === 0 ? null : Math.max(...rss),
    lastBytes: rss.at(-1) ?? null,
    secondQuarterMeanBytes: enough ? mean(second) : null,
    lastQuarterMeanBytes: enough ? mean(last) : null,
    growthPercent: growth,
    maxGrowthPercent: maxGrowth,
    levelsOff: growth !== null && growth <= maxGrowth,
    // Not part of the verdict: what V8 keeps after a full collection, before the load and at the
    // end, tells garbage not yet collected (RSS climbing between full collections) from a leak.
    heap: {
      afterFullBeforeBytes: samples[0]?.heapAfterFull ?? null,
      afterFullLastBytes: samples.at(-1)?.heapAfterFull ?? null,
      fullCollectionsDuringRun: samples.length === 0 ? 0 : samples.at(-1).fullCollections - samples[0].fullCollections
    }
  }
}

/** A change in percent, signed: `+2.4%`, `-0.3%`; `?` when unknown. */
const percent = v => v === null ? '?' : `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`
const escapeXml = s => s.replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])
const fixed = (v, digits = 1) => Number(v.toFixed(digits))

/** About `count` round steps (1, 2 or 5 times a power of ten) from 0 to at least `max`. */
function ticks (max, count = 5) {
  const raw = max / count
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map(m => m * power).find(s => s >= raw)
  const list = []
  for (let v = 0; v < max + step / 2; v += step) list.push(fixed(v, 6))
  if (list.at(-1) < max) list.push(fixed(list.at(-1) + step, 6))
  return list
}

/** RSS, RssAnon and heap (MiB) over the seconds of the run, with the two quarter means the verdict compares. */
function plot ({ samples, secondQuarterMeanBytes, lastQuarterMeanBytes, levelsOff, growthPercent }, duration, title) {
  const width = 800
  const height = 440
  const left = 70
  const right = 20
  const top = 80
  const bottom = 50
  const plotWidth = width - left - right
  const plotHeight = height - top - bottom
  const peak = Math.max(1, ...samples.map(s => s.rss / MiB))
  const xTicks = ticks(duration, 6)
  const yTicks = ticks(peak * 1.05, 5)
  // The last sample is taken just after the load ended, a little past `duration`.
  const xMax = Math.max(xTicks.at(-1), samples.at(-1)?.t ?? 0)
  const yMax = yTicks.at(-1)
  const x = t => fixed(left + t / xMax * plotWidth)
  const y = mib => fixed(top + plotHeight - mib / yMax * plotHeight)
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      'font-family="sans-serif" font-size="12">',
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="${width / 2}" y="42" text-anchor="middle">${escapeXml('resident memory (VmRSS) of the service; ' +
      `mean of the last quarter ${percent(growthPercent)} against the second: ${levelsOff ? 'levels off' : 'does NOT level off'}`)}</text>`
  ]
  for (const t of xTicks) {
    lines.push(`<line x1="${x(t)}" y1="${top}" x2="${x(t)}" y2="${top + plotHeight}" stroke="#eee"/>`,
      `<text x="${x(t)}" y="${top + plotHeight + 18}" text-anchor="middle">${t}</text>`)
  }
  for (const v of yTicks) {
    lines.push(`<line x1="${left}" y1="${y(v)}" x2="${left + plotWidth}" y2="${y(v)}" stroke="#eee"/>`,
      `<text x="${left - 8}" y="${y(v) + 4}" text-anchor="end">${v}</text>`)
  }
  lines.push(
    `<line x1="${left}" y1="${top + plotHeight}" x2="${left + plotWidth}" y2="${top + plotHeight}" stroke="black"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotHeight}" stroke="black"/>`,
    `<text x="${left + plotWidth / 2}" y="${height - 10}" text-anchor="middle">seconds</text>`,
    `<text x="18" y="${top + plotHeight / 2}" text-anchor="middle" transform="rotate(-90 18 ${top + plotHeight / 2})">MiB</text>`
  )
  const quarter = (bytes, from, to, label) => {
    if (bytes === null) return
    const mib = bytes / MiB
    lines.push(`<line x1="${x(from * duration)}" y1="${y(mib)}" x2="${x(to * duration)}" y2="${y(mib)}" ` +
      'stroke="#d62728" stroke-dasharray="6 4"/>',
    `<text x="${x((from + to) / 2 * duration)}" y="${y(mib) + 16}" text-anchor="middle" fill="#d62728">${label} ${mib.toFixed(1)}</text>`)
  }
  quarter(secondQuarterMeanBytes, 0.25, 0.5, 'Q2 mean')
  quarter(lastQuarterMeanBytes, 0.75, 1, 'Q4 mean')
  const line = (field, style) => {
    const points = samples.filter(s => s[field] !== null).map(s => `${x(s.t)},${y(s[field] / MiB)}`).join(' ')
    lines.push(`<polyline points="${points}" fill="none" ${style}/>`)
  }
  line('anon', 'stroke="#999" stroke-width="1.5"')
  line('heap', 'stroke="#2ca02c" stroke-width="1.5"')
  line('rss', 'stroke="#1f77b4" stroke-width="2"')
  // The legend in one row above the plot, where no line can cross it.
  let legendX = left
  const legend = (color, text) => {
    lines.push(`<line x1="${legendX}" y1="62" x2="${legendX + 24}" y2="62" stroke="${color}" stroke-width="2"/>`,
      `<text x="${legendX + 30}" y="66">${text}</text>`)
    legendX += 30 + text.length * 6.5 + 20
  }
  legend('#1f77b4', 'VmRSS')
  legend('#999', 'RssAnon (JS heap, native, SQLite cache)')
  legend('#2ca02c', 'V8 heap used after the latest collection')
  lines.push('</svg>')
  return `${lines.join('\n')}\n`
}

const mib = bytes => bytes === null ? '-' : `${(bytes / MiB).toFixed(1)} MiB`

async function main () {
  const opts = options()
  const command = `npm run soak${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`
  const began = performance.now()
  const tmp = mkdtempSync(join(tmpdir(), 'zoo-soak-'))
  process.on('exit', () => {
    killAll()
    rmSync(tmp, { recursive: true, force: true })
  })
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.log(`\n${signal}: stopping the service and removing ${tmp}`)
      process.exit(130)
    })
  }

  console.log(`zoo-api soak: ${opts.duration} s of mixed reads and writes, ${opts.connections} connections, ` +
    `${opts.rows} rows per collection; ${MODES[opts.mode]}`)
  // The service's own data directory: it is the only process that reads the seeded files.
  const dataDir = join(tmp, 'service')
  mkdirSync(dataDir)
  await prepareService()
  const data = await seed(dataDir, opts.rows)
  const tls = opts.mode === 'on' ? await certificate(tmp) : undefined
  // --trace-gc: after each collection, node writes the heap still in use to the service's log.
  const readyTimeout = 60_000 + opts.rows * 0.15
  const target = await start('service', { dataDir, tls, mode: opts.mode, readyTimeout, nodeArgs: ['--trace-gc'] })
  const gc = gcLog(target.logFile)
  let figures
  const samples = []
  try {
    await authorize(target)
    const steps = cycle(target, data)
    const failures = await rehearse(target, steps)
    if (failures.length > 0) throw new Error(`the cycle's requests fail before any load:\n${failures.join('\n')}`)

    // RSS once a second from the moment the load begins.
    const loadStarted = performance.now()
    const sample = () => {
      const status = memoryStatus(target)
      if (status?.rss != null) samples.push({ t: fixed((performance.now() - loadStarted) / 1000, 2), ...status, ...gc() })
    }
    sample()
    const sampler = setInterval(sample, 1000)
    try {
      figures = await load(target, steps, opts)
    } finally {
      clearInterval(sampler)
    }
    sample()
    if (target.exited !== null) {
      const log = readFileSync(target.logFile, 'utf8').split('\n').filter(line => !GC_LINE.test(line)).slice(-20).join('\n')
      throw new Error(`the service stopped during the soak (${target.exited}):\n${log}`)
    }
  } finally {
    await stop(target)
  }

  const memory = memoryVerdict(samples, opts.duration, opts.maxGrowth)
  const passed = figures.errors === 0 && memory.levelsOff
  const date = new Date()
  const run = {
    command,
    settings: { duration: opts.duration, connections: opts.connections, rows: opts.rows, tls: opts.mode, maxGrowthPercent: opts.maxGrowth },
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryBytes: totalmem(),
      platform: process.platform,
      date: date.toISOString()
    },
    passed,
    load: figures,
    memory,
    wallSeconds: (performance.now() - began) / 1000
  }
  const dir = join(HERE, 'results')
  mkdirSync(dir, { recursive: true })
  const base = join(dir, `${date.toISOString().slice(0, 10)}-soak-${opts.rows}-${opts.duration}s${opts.mode === 'on' ? '-tls' : ''}`)
  writeFileSync(`${base}.json`, `${JSON.stringify(run, null, 2)}\n`)
  writeFileSync(`${base}.svg`, plot(memory, opts.duration, command))

  console.log()
  console.log(table(['request', 'answers', 'errors', 'p50 ms', 'p99 ms'], Object.entries(figures.kinds).map(([name, k]) =>
    [name, String(k.answers), String(k.errors), ms(k.p50), ms(k.p99)])))
  console.log()
  console.log(`requests   ${figures.requests} in ${figures.seconds.toFixed(1)} s: ${figures.okPerSecond.toFixed(0)} successful a second`)
  console.log(`errors     ${figures.errors}${figures.errors === 0
    ? ''
    : ` (statuses ${json(figures.statuses)}, ${figures.socketErrors} socket errors of which ${figures.timeouts} timeouts)` +
      `\n           e.g. ${figures.errorSamples.join('\n           e.g. ')}`}`)
  console.log(`latency    p50 ${ms(figures.latency.p50)} ms, p99 ${ms(figures.latency.p99)} ms, max ${ms(figures.latency.max)} ms`)
  console.log(`memory     RSS first ${mib(memory.firstBytes)}, max ${mib(memory.maxBytes)}, last ${mib(memory.lastBytes)} ` +
    `(${samples.length} samples; RssAnon first ${mib(samples[0]?.anon ?? null)}, last ${mib(samples.at(-1)?.anon ?? null)})`)
  const { heap } = memory
  console.log(`heap       V8 heap kept after a full collection: ${mib(heap.afterFullBeforeBytes)} before the load, ` +
    `${heap.fullCollectionsDuringRun === 0
      ? 'no full collection during the run'
      : `${mib(heap.afterFullLastBytes)} after the last of ${heap.fullCollectionsDuringRun} during the run`}; ` +
    `used after the latest collection ${mib(samples.at(-1)?.heap ?? null)}`)
  console.log(`leveling   mean RSS of the second quarter ${mib(memory.secondQuarterMeanBytes)}, ` +
    `of the last ${mib(memory.lastQuarterMeanBytes)}: ` +
    `${percent(memory.growthPercent)} ` +
    `(limit +${opts.maxGrowth}%): ${memory.levelsOff ? 'levels off' : 'does NOT level off'}`)
  console.log(`results    ${relative(ROOT, `${base}.json`)}, plot ${relative(ROOT, `${base}.svg`)}`)
  const reasons = [
    ...(figures.errors > 0 ? [`${figures.errors} errors`] : []),
    ...(memory.levelsOff ? [] : ['memory does not level off'])
  ]
  console.log(passed ? 'PASS' : `FAIL: ${reasons.join(', ')}`)
  return passed
}

try {
  process.exit(await main() ? 0 : 1)
} catch (err) {
  console.error(`soak: ${err.stack ?? err.message}`)
  process.exit(1)
}
