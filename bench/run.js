// Collection-read benchmark: `npm run bench` (builds first, then runs this against dist/).
//
// Seeds a real SQLite file with 100,000 zoos through the API, then times list requests in-process
// (inject: no socket noise) and prints each case's median as a ratio of the baseline, the first
// page, measured in the same run. The claim under test (SPEC §4): following `next` cursors costs
// the same on every page, where a deep OFFSET grows with the depth.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApi } from '../dist/app.js'
import { loadConfig } from '../dist/config.js'

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200)
const COUNTRIES = ['DE', 'FR', 'AT', 'IT', null]

const dataDir = mkdtempSync(join(tmpdir(), 'zoo-bench-'))
const bootstrap = { id: 'bench', secret: 'bench-secret-0123456789' }
const app = buildApi(loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  RATE_LIMIT: '0',
  BOOTSTRAP_CLIENT_ID: bootstrap.id,
  BOOTSTRAP_CLIENT_SECRET: bootstrap.secret
}, []))
await app.ready()

// Every request carries a bearer token, as a client's would: its verification is part of the cost.
const tokenAnswer = await app.inject({
  method: 'POST',
  url: '/oauth/token',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${bootstrap.id}:${bootstrap.secret}`).toString('base64')}` },
  payload: 'grant_type=client_credentials'
})
const headers = { authorization: `Bearer ${tokenAnswer.json().access_token}` }

async function get (url) {
  const res = await app.inject({ method: 'GET', url, headers })
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  return res
}

const seedStart = process.hrtime.bigint()
for (let done = 0; done < RECORDS; done += 1000) {
  const batch = Array.from({ length: Math.min(1000, RECORDS - done) }, (_, i) => ({
    name: `zoo ${String(done + i).padStart(6, '0')}`,
    city: `city ${(done + i) % 97}`,
    country: COUNTRIES[(done + i) % COUNTRIES.length]
  }))
  const res = await app.inject({ method: 'POST', url: '/v1/zoos', payload: batch, headers })
  if (res.statusCode !== 201) throw new Error(res.body)
}
const seedMs = Number(process.hrtime.bigint() - seedStart) / 1e6

/** The `next` URL of a list answer. */
const nextOf = res => {
  const match = /<([^>]+)>; rel="next"/.exec(res.headers.link)
  const url = new URL(match[1])
  return `${url.pathname}${url.search}`
}

/** A cursor URL for the page that starts at `position`, found by walking with big pages. */
async function cursorAt (query, position) {
  let url = `/v1/zoos?limit=100&${query}`
  for (let seen = 100; seen < position; seen += 100) url = nextOf(await get(url))
  return url.replace('limit=100', 'limit=20')
}

async function median (url) {
  for (let i = 0; i < 10; i++) await get(url)
  const times = []
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint()
    await get(url)
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

const deep = RECORDS - 20
const cases = [
  ['first page (baseline)', '/v1/zoos?limit=20'],
  [`cursor page at ${deep}`, await cursorAt('', deep)],
  [`offset page at ${deep}`, `/v1/zoos?limit=20&offset=${deep}`],
  ['filtered + sorted first page', '/v1/zoos?limit=20&country=DE&sortby=name&order=desc'],
  [`filtered + sorted cursor page near ${Math.floor(deep / 5)}`, await cursorAt('country=DE&sortby=name&order=desc', Math.floor(deep / 5) - 100)],
  ['one record', `/v1/zoos/${Math.ceil(RECORDS / 2)}`]
]

const results = []
for (const [name, url] of cases) results.push([name, await median(url)])
const baseline = results[0][1]

console.log(`zoo-api bench: ${RECORDS} zoos seeded in ${(seedMs / 1000).toFixed(1)} s; median of ${ROUNDS} requests each (inject, in-process)`)
console.log('case'.padEnd(48), 'median ms'.padStart(10), 'x baseline'.padStart(11))
for (const [name, ms] of results) console.log(name.padEnd(48), ms.toFixed(3).padStart(10), (ms / baseline).toFixed(2).padStart(11))

await app.close()
rmSync(dataDir, { recursive: true, force: true })
