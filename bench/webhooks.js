// What webhooks cost a write, and how long a change takes to reach its receiver: the service's build
// (SQLite unless DATABASE_URL=... is given after the flags) takes `post-one` (POST /v1/zoos, 20
// connections) with no subscription and with one on each collection, in alternating rounds, the
// receiver on loopback answering at once; then creates at a fixed rate, each delivery's delay from
// the change's timestamp to its arrival. Not part of `npm test`.
//
//   node bench/webhooks.js [--duration 5] [--rounds 3] [--rate 1000] [--dist DIR] [NAME=VALUE ...]
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { answering, authorize, freePort, serviceEnv } from './targets.js'
import { hookReceiver, subscribeEach, unsubscribe } from './webhook-receiver.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    rate: { type: 'string', default: '1000' },
    dist: { type: 'string', default: 'dist' }
  }
})
const ZOO = JSON.stringify({ name: 'Zoo', city: 'Berlin' })

const dataDir = mkdtempSync(join(tmpdir(), 'zoo-webhooks-'))
const port = await freePort()
const service = spawn(process.execPath, [join(resolve(values.dist), 'server.js')], {
  env: {
    ...process.env,
    ...serviceEnv({ port, localPort: await freePort(), dataDir, mode: 'proxy' }),
    MAX_EVENT_LOOP_DELAY: '0',
    ...Object.fromEntries(positionals.map(pair => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))
  },
  stdio: ['ignore', 'ignore', 'inherit']
})

const receiver = await hookReceiver()

try {
  const target = { port, https: false, headers: { 'x-forwarded-proto': 'https' } }
  await answering(target)
  await authorize(target)
  const headers = { ...target.headers, 'content-type': 'application/json' }
  const load = options => new Promise((resolve, reject) => autocannon(
    { url: `http://127.0.0.1:${port}/v1/zoos`, method: 'POST', headers, body: ZOO, ...options },
    (error, result) => error ? reject(error) : resolve(result)))
  const subscribe = () => subscribeEach(target, receiver.url)
  // Warmed up both ways, so that the first round with subscriptions does not compile the deliverer's code.
  await load({ connections: 20, amount: 5000 })
  const warming = await subscribe()
  const warm = await load({ connections: 20, amount: 5000 })
  let expected = warm.requests.total
  await receiver.drained(expected)
  await unsubscribe(target, warming)
  const rows = []
  for (let round = 0; round < Number(values.rounds); round++) {
    const without = await load({ connections: 20, duration: Number(values.duration) })
    const ids = await subscribe()
    const withHooks = await load({ connections: 20, duration: Number(values.duration) })
    expected += withHooks.requests.total
    await receiver.drained(expected)
    await unsubscribe(target, ids)
    rows.push([without.requests.average, withHooks.requests.average])
    const ratio = (withHooks.requests.average / without.requests.average).toFixed(3)
    console.log(`round ${round + 1}: post-one ${Math.round(without.requests.average)} req/s without, ` +
      `${Math.round(withHooks.requests.average)} with a subscription on each collection (${ratio})`)
  }
  const ratios = rows.map(([a, b]) => b / a)
  const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length
  console.log(`post-one with ÷ without: ${ratios.map(r => r.toFixed(3)).join(', ')}; mean ${mean.toFixed(3)}`)

  const ids = await subscribe()
  receiver.delays.length = 0
  const paced = await load({ connections: 20, duration: 10, overallRate: Number(values.rate) })
  expected += paced.requests.total
  await receiver.drained(expected)
  await unsubscribe(target, ids)
  const sorted = [...receiver.delays].sort((a, b) => a - b)
  const at = q => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  console.log(`at ${Math.round(paced.requests.average)} creates a second: ${sorted.length} deliveries, delay from the change to its ` +
    `receiver p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)} ms`)
} finally {
  service.kill('SIGTERM')
  await once(service, 'exit')
  receiver.close()
  rmSync(dataDir, { recursive: true, force: true })
}
