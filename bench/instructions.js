// Instructions per request: the service's build under valgrind's callgrind, loaded with
// autocannon, counting only while a fixed number of requests is answered. A finer measure than
// requests a second on a shared two-core machine, for a change of a few per cent (what metrics
// and traces cost, docs/benchmarks.md). Not part of `npm test`; needs valgrind.
//
//   node bench/instructions.js --case get-one|list-zoos|post-one|patch-one [--warmup 30000] [--requests 3000]
//     [--dist DIR] [--keep DIR] [--webhooks] [NAME=VALUE ...]
//
// --webhooks subscribes a receiver on loopback to each collection's changes before the warm-up:
// the main thread's count then holds the deliveries' work too, made while the requests are answered.
//
// --keep DIR keeps the main thread's profile there, with V8's map of its compiled code and the
// count of requests, for bench/profile-diff.js.
// NAME=VALUE pairs are set in the service's environment (METRICS_PORT=..., OTEL_...=...).
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { answering, authorize, freePort, send, serviceEnv } from './targets.js'
import { hookReceiver, subscribeEach } from './webhook-receiver.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    case: { type: 'string', default: 'get-one' },
    warmup: { type: 'string', default: '30000' },
    requests: { type: 'string', default: '3000' },
    dist: { type: 'string', default: 'dist' },
    keep: { type: 'string' },
    webhooks: { type: 'boolean', default: false }
  }
})
const ZOO = JSON.stringify({ name: 'Zoo', city: 'Berlin' })
const CASES = {
  'get-one': { method: 'GET', path: '/v1/zoos/1' },
  'list-zoos': { method: 'GET', path: '/v1/zoos?sortby=name' },
  'post-one': { method: 'POST', path: '/v1/zoos', body: ZOO },
  'patch-one': { method: 'PATCH', path: '/v1/zoos/1', body: JSON.stringify({ city: 'Hamburg' }) }
}
const chosen = CASES[values.case]
if (chosen === undefined) throw new Error(`--case is one of ${Object.keys(CASES).join(', ')}`)

const dataDir = mkdtempSync(join(tmpdir(), 'zoo-instructions-'))
const port = await freePort()
const env = {
  ...process.env,
  ...serviceEnv({ port, localPort: await freePort(), dataDir, mode: 'proxy' }),
  MAX_EVENT_LOOP_DELAY: '0',
  // callgrind_control finds the process by the user and host names valgrind read from these.
  USER: process.env.USER ?? 'root',
  LOGNAME: process.env.LOGNAME ?? process.env.USER ?? 'root',
  ...Object.fromEntries(positionals.map(pair => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))
}
// Counted from the first `instrumentation on`, each thread apart: V8 compiles and collects on
// threads of their own, which a run's timing changes; the main thread's count is the request's.
// The young generation held at the size a loaded service grows it to (32 MiB a semi-space on
// 64-bit Node 24): V8 shrinks it when a process allocates few bytes a millisecond, as every
// process does under valgrind, and a run whose window fell after a shrink counted 25 times the
// scavenges of one that did not, 5% to 15% of a GET. With the young generation held, V8 without
// --perf-basic-prof (which also keeps compiled code where it was made) counted a GET 243,000
// instructions in every run, with it 215,000, in every run; why is not known yet (docs/benchmarks.md).
// The flag's map of compiled code is what names the JavaScript in a callgrind profile.
const service = spawn('valgrind', [
  '-q', '--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${dataDir}/callgrind.%p`,
  process.execPath, '--min-semi-space-size=32', '--max-semi-space-size=32', '--perf-basic-prof',
  join(resolve(values.dist), 'server.js')
], { env, stdio: ['ignore', 'ignore', 'inherit'] })
const control = command => execFileSync('callgrind_control', [command, String(service.pid)].flat(), { env, stdio: 'ignore' })
const receiver = values.webhooks ? await hookReceiver() : undefined

try {
  const target = { port, https: false, headers: { 'x-forwarded-proto': 'https' } }
  await answering(target)
  await authorize(target)
  const headers = { ...target.headers, 'content-type': 'application/json' }
  if (receiver !== undefined) await subscribeEach(target, receiver.url)
  const first = await send(target, 'POST', '/v1/zoos', { headers, body: ZOO })
  if (first.status !== 201) throw new Error(`the first zoo: ${first.status} ${first.body}`)
  const base = `http://127.0.0.1:${port}`
  const load = amount => new Promise((resolve, reject) => autocannon(
    { url: `${base}${chosen.path}`, method: chosen.method, headers, body: chosen.body, connections: 4, amount },
    (error, result) => error ? reject(error) : resolve(result)))
  // Until V8 has compiled what the requests run, the code they run rarely too (a trace kept at 1%):
  // a GET counted 216,400 instructions after 6,000 requests, 190,100 after 30,000, 188,700 after
  // 60,000 (docs/benchmarks.md); fewer than about 6,000 left a run 10% off the next.
  await load(Number(values.warmup))
  control(['-i', 'on'])
  const counted = await load(Number(values.requests))
  control(['-i', 'off'])
  control('-d')
  if (counted.non2xx + counted.errors > 0) throw new Error(`${counted.non2xx} answers not 2xx, ${counted.errors} errors`)
  const files = readdirSync(dataDir).filter(file => file.startsWith('callgrind.'))
  const totals = chosenFiles => chosenFiles
    .flatMap(file => readFileSync(join(dataDir, file), 'utf8').split('\n').filter(line => line.startsWith('totals:')))
    .reduce((sum, line) => sum + Number(line.split(/\s+/)[1]), 0)
  const perRequest = count => Math.round(count / counted['2xx']).toLocaleString('en')
  const mainThread = files.filter(file => file.endsWith('-01'))
  const main = perRequest(totals(mainThread))
  if (values.keep !== undefined) {
    mkdirSync(values.keep, { recursive: true })
    copyFileSync(join(dataDir, mainThread[0]), join(values.keep, 'callgrind.out'))
    copyFileSync(join(tmpdir(), `perf-${service.pid}.map`), join(values.keep, 'perf.map'))
    writeFileSync(join(values.keep, 'requests'), String(counted['2xx']))
  }
  const all = perRequest(totals(files))
  const delivered = receiver === undefined ? '' : `; ${receiver.received} deliveries received`
  console.log(`${values.case}: ${main} instructions a request on the main thread, ${all} on all (${counted['2xx']} requests${delivered})`)
} finally {
  receiver?.close()
  service.kill('SIGTERM')
  await new Promise(resolve => service.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(join(tmpdir(), `perf-${service.pid}.map`), { force: true })
}
