// The write-power cases (docs/writes.md, docs/change-feed.md), of the service alone: each measures
// the service against itself in the same run, one way of doing a thing against another.
//
// - batch-100: records created per second by batches of 100 creates (POST /v1/batch), one after
//   the other on one connection, against 100 single POSTs one after the other on one connection.
// - bulk-patch: the time of PATCH /v1/zoos?id_gte=..&id_lt=.. changing WRITE_MAX_RECORDS zoos (5,000,
//   the most one request may; a quarter of the rows when there are fewer than four times that),
//   three times, on three ranges.
// - hold: the largest writes one request may make, and two at once, with /health meanwhile (hold.js).
// - aggregate-hold: ten aggregates of every animal at once, with /health meanwhile (hold.js).
// - feed: 50 streams of /v1/zoos/changes open while zoos are created at 500 a second: the delay
//   from each write's 201 arriving to its event arriving at each stream; and the most writes a
//   second (post-one at full load) with the 50 streams open, against the same load without them.
// - webhooks: the most creates a second (post-one at full load) with a subscription on each
//   collection, its receiver on loopback answering at once, against the same load without them, in
//   four alternating rounds; then creates at 1,000 a second, each delivery's delay from its change's
//   timestamp to its arrival (webhook-receiver.js).
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import autocannon from 'autocannon'
import { client, expect } from './client.js'
import { aggregateHold, hold, LIMIT } from './hold.js'
import { percentile } from './report.js'
import { hookReceiver, subscribeEach, unsubscribe } from './webhook-receiver.js'

const BATCH = 100
/** The largest change of many records the service allows (WRITE_MAX_RECORDS). */
const BULK = LIMIT
const SUBSCRIBERS = 50
const WRITES_PER_SECOND = 500
const DELIVERIES_PER_SECOND = 1000
// A round's ratio moved from 0.80 to 1.06 within one run on the shared two-core machine (2 s of
// load each way): four rounds, where two left the mean a coin's toss either side of the target.
const WEBHOOK_ROUNDS = 4

let serial = 0
const zoo = () => ({ name: `bench write ${++serial} ${Math.random().toString(36).slice(2, 8)}`, city: 'Benchville' })

/** Records a second made by `write` (which makes `per` records) called one after the other for `seconds`, after as long a warm-up. */
async function recordsPerSecond (write, per, seconds) {
  for (const until = performance.now() + seconds * 500; performance.now() < until;) await write()
  let records = 0
  const started = performance.now()
  while (performance.now() - started < seconds * 1000) {
    await write()
    records += per
  }
  return records / ((performance.now() - started) / 1000)
}

async function batch100 (target, { duration }) {
  const http = client(target)
  try {
    const single = await recordsPerSecond(async () => { expect(await http.send('POST', '/v1/zoos', zoo()), 201, 'POST /v1/zoos') }, 1,
      duration)
    const batched = await recordsPerSecond(async () => {
      const operations = Array.from({ length: BATCH }, () => ({ method: 'POST', path: '/v1/zoos', body: zoo() }))
      expect(await http.send('POST', '/v1/batch', { operations }), 200, 'POST /v1/batch')
    }, BATCH, duration)
    return { single, batched, ratio: batched / single }
  } finally {
    http.close()
  }
}

async function bulkPatch (target, { rows }) {
  const http = client(target)
  const size = rows >= 4 * BULK ? BULK : Math.max(1, Math.floor(rows / 4))
  try {
    const times = []
    for (let round = 0; round < 3; round++) {
      const from = 1 + round * size
      const started = performance.now()
      const answer = expect(await http.send('PATCH', `/v1/zoos?id_gte=${from}&id_lt=${from + size}`, { city: `Bulk ${round}` }), 200,
        'PATCH /v1/zoos?id_gte=..&id_lt=..')
      times.push(performance.now() - started)
      const { affected } = JSON.parse(answer.body)
      if (affected !== size) throw new Error(`PATCH of ${size} zoos changed ${affected}`)
    }
    return { records: size, times, median: [...times].sort((a, b) => a - b)[1], max: Math.max(...times) }
  } finally {
    http.close()
  }
}

/** A stream of the zoos' changes, noting when each created zoo's event arrives, by its name. */
async function subscribe (target, arrivals) {
  const request = target.https ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: target.port,
      path: '/v1/zoos/changes',
      agent: false,
      ca: target.ca,
      headers: { ...target.headers, accept: 'text/event-stream' }
    }, res => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET /v1/zoos/changes: ${res.statusCode}`))
        res.resume()
        return
      }
      let events = 0
      res.setEncoding('utf8')
      res.on('data', text => {
        const now = performance.now()
        // Only the names are read: JSON.parse of 25,000 events a second would load the bench's own CPU.
        for (let at = text.indexOf('"name":"'); at !== -1; at = text.indexOf('"name":"', at + 8)) {
          const name = text.slice(at + 8, text.indexOf('"', at + 8))
          events++
          const seen = arrivals.get(name)
          if (seen === undefined) arrivals.set(name, [now])
          else seen.push(now)
        }
      })
      resolve({ close: () => req.destroy(), events: () => events })
    })
    req.on('error', reject)
    req.end()
  })
}

/**
 * The most writes a second at `connections`, with post-one's load for `seconds` (after a one-second
 * warm-up): `perSecond`, and `created`, every zoo it made, the warm-up's too.
 */
async function writeThroughput (target, { connections, duration }) {
  const started = performance.now()
  let ok = 0
  let created = 0
  const measureFrom = started + 1000
  const instance = autocannon({
    url: `${target.https ? 'https' : 'http'}://127.0.0.1:${target.port}`,
    connections,
    duration: 1 + duration,
    sampleInt: 100,
    tlsOptions: target.https ? { ca: target.ca } : undefined,
    requests: [{
      setupRequest: request => ({
        ...request,
        method: 'POST',
        path: '/v1/zoos',
        headers: { ...target.headers, 'content-type': 'application/json' },
        body: JSON.stringify(zoo())
      })
    }]
  })
  instance.on('response', (c, status) => {
    if (status !== 201) return
    created++
    if (performance.now() >= measureFrom) ok++
  })
  await instance
  return { perSecond: ok / ((performance.now() - measureFrom) / 1000), created }
}

async function feed (target, opts) {
  const { perSecond: without } = await writeThroughput(target, opts)
  const arrivals = new Map()
  const streams = []
  try {
    for (let i = 0; i < SUBSCRIBERS; i++) streams.push(await subscribe(target, arrivals))
    const { perSecond: withStreams } = await writeThroughput(target, opts)
    arrivals.clear()

    const { acknowledged, paced } = await pacedWrites(target, WRITES_PER_SECOND, opts.duration)
    // Every stream must have every event: wait for the last ones (at most 10 s).
    for (const until = performance.now() + 10_000; performance.now() < until;) {
      if ([...acknowledged.keys()].every(name => (arrivals.get(name)?.length ?? 0) >= SUBSCRIBERS)) break
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    const delays = []
    let missing = 0
    for (const [name, at] of acknowledged) {
      const seen = arrivals.get(name) ?? []
      missing += SUBSCRIBERS - seen.length
      for (const when of seen) delays.push(when - at)
    }
    delays.sort((a, b) => a - b)
    return {
      subscribers: SUBSCRIBERS,
      paced,
      writes: acknowledged.size,
      missing,
      p50: percentile(delays, 0.5),
      p99: percentile(delays, 0.99),
      max: delays.at(-1) ?? null,
      without,
      withStreams,
      ratio: withStreams / without
    }
  } finally {
    for (const stream of streams) stream.close()
  }
}

/** Zoos created at `perSecond` for `seconds` on up to 20 connections: each one's 201 noted (by its name) when it arrives. */
async function pacedWrites (target, perSecond, seconds) {
  const http = client(target, 20)
  try {
    const acknowledged = new Map()
    const pending = []
    const started = performance.now()
    for (let n = 0; performance.now() - started < seconds * 1000; n++) {
      const wait = started + n * 1000 / perSecond - performance.now()
      if (wait > 1) await new Promise(resolve => setTimeout(resolve, wait))
      const body = zoo()
      pending.push(http.send('POST', '/v1/zoos', body).then(answer => {
        expect(answer, 201, 'POST /v1/zoos')
        acknowledged.set(body.name, performance.now())
      }))
    }
    await Promise.all(pending)
    return { acknowledged, paced: acknowledged.size / ((performance.now() - started) / 1000) }
  } finally {
    http.close()
  }
}

async function webhooks (target, opts) {
  const receiver = await hookReceiver()
  try {
    // A round with the subscriptions first, not counted: the deliverer's code compiled before it is measured.
    const warming = await subscribeEach(target, receiver.url)
    let expected = receiver.received + (await writeThroughput(target, opts)).created
    await receiver.drained(expected)
    await unsubscribe(target, warming)
    const rounds = []
    for (let round = 0; round < WEBHOOK_ROUNDS; round++) {
      const { perSecond: without } = await writeThroughput(target, opts)
      const ids = await subscribeEach(target, receiver.url)
      const { perSecond: withHooks, created } = await writeThroughput(target, opts)
      // Every create made with the subscriptions is delivered before they go (deleting one drops what it still owes).
      expected += created
      await receiver.drained(expected)
      await unsubscribe(target, ids)
      rounds.push({ without, withHooks, ratio: withHooks / without })
    }
    const ids = await subscribeEach(target, receiver.url)
    receiver.delays.length = 0
    const { acknowledged, paced } = await pacedWrites(target, DELIVERIES_PER_SECOND, opts.duration)
    await receiver.drained(expected + acknowledged.size)
    await unsubscribe(target, ids)
    const delays = [...receiver.delays].sort((a, b) => a - b)
    const mean = values => values.reduce((a, b) => a + b, 0) / values.length
    return {
      subscriptions: ids.length,
      rounds,
      without: mean(rounds.map(r => r.without)),
      withHooks: mean(rounds.map(r => r.withHooks)),
      ratio: mean(rounds.map(r => r.ratio)),
      paced,
      deliveries: delays.length,
      p50: percentile(delays, 0.5),
      p99: percentile(delays, 0.99),
      max: delays.at(-1) ?? null
    }
  } finally {
    receiver.close()
  }
}

/** One write-power case against the service. */
export async function writePower (target, caseName, opts) {
  switch (caseName) {
    case 'batch-100': return batch100(target, opts)
    case 'bulk-patch': return bulkPatch(target, opts)
    case 'feed': return feed(target, opts)
    case 'webhooks': return webhooks(target, opts)
    case 'hold': return hold(target, opts)
    case 'aggregate-hold': return aggregateHold(target)
    default: throw new Error(`unknown write-power case ${caseName}`)
  }
}
