import { once } from 'node:events'
import { connect, type AddressInfo } from 'node:net'
import { PassThrough } from 'node:stream'
import parsePrometheusTextFormat, { type Family, type Sample } from 'parse-prometheus-text-format'
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import Fastify from 'fastify'
import { buildMetricsListener } from '../../listeners/metrics.ts'
import { countRequests, Metrics } from '../../telemetry/metrics.ts'
import { addClient, basic, bearer, build, call, create, ENGINE, tokenRequest } from '../helper.ts'
import { openStream } from '../sse.ts'
import { receiver } from '../webhooks/receiver.ts'

/*
 * The metrics listener, scraped over a real socket, its answer read by a Prometheus text-format
 * parser: each count moves as the requests that it counts are made.
 */

/** The metrics listener of `app` on a free loopback port, closed at teardown; scrapes and parses it. */
async function scraper (t: Test, app: FastifyInstance): Promise<() => Promise<Scraped>> {
  if (app.metrics === undefined) throw new Error('METRICS_PORT did not make the metrics')
  const listener = buildMetricsListener(app.config, app.metrics)
  t.teardown(() => listener.close())
  await listener.listen({ host: '127.0.0.1', port: 0 })
  const { port } = listener.server.address() as AddressInfo
  return async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/metrics`)
    t.equal(answer.status, 200)
    t.match(answer.headers.get('content-type'), /^text\/plain; version=0\.0\.4/)
    const text = await answer.text()
    const types = new Map(parsePrometheusTextFormat(text).map(family => [family.name, family.type]))
    // The parser folds a histogram's labelled series into one (its buckets keyed by `le` alone):
    // each histogram is read as the series it is written as, `_bucket`, `_sum` and `_count`.
    const series = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped'))
    return { types, series }
  }
}

interface Scraped {
  /** Each family's type, as the text declares it. */
  types: Map<string, Family['type']>
  series: Family[]
}

/** The sample of the series `name` whose labels include `labels`. */
function sample ({ series }: Scraped, name: string, labels: Record<string, string> = {}): Sample | undefined {
  return series.filter(f => f.name === name).flatMap(f => f.metrics)
    .find(m => Object.entries(labels).every(([label, value]) => m.labels?.[label] === value))
}

/** A counter's or gauge's value, a histogram's count; 0 when there is no such sample yet. */
function valueOf (scraped: Scraped, name: string, labels: Record<string, string> = {}): number {
  const histogram = scraped.types.get(name) === 'HISTOGRAM'
  return Number(sample(scraped, histogram ? `${name}_count` : name, labels)?.value ?? 0)
}

const DB_SYSTEM = ENGINE === 'sqlite' ? 'sqlite' : 'postgresql'

t.test('the counts of requests, statements, commits and refusals move as requests are made', async t => {
  const app = await build(t, { METRICS_PORT: '0' })
  const scrape = await scraper(t, app)
  const before = await scrape()

  for (let n = 0; n < 3; n++) t.equal((await call(app, 'GET', '/v1/zoos')).statusCode, 200)
  t.equal((await call(app, 'POST', '/v1/zoos', { name: 'Counted', city: 'Lyon' })).statusCode, 201)
  t.equal((await call(app, 'GET', '/v1/zoos/999999')).statusCode, 404)
  t.equal((await call(app, 'HEAD', '/v1/zoos/999999')).statusCode, 404)
  t.equal((await call(app, 'GET', '/v1/no-such-collection')).statusCode, 404)
  t.equal((await call(app, 'PUT', '/v1/zoos', { name: 'Refused', city: 'Lyon' })).statusCode, 405)
  t.equal((await app.inject('/v1/zoos')).statusCode, 401)
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization: 'Bearer not-a-token' })).statusCode, 401)
  const reader = await addClient(app, 'zoos:read')
  const readOnly = (await tokenRequest(app, { grant_type: 'client_credentials' }, basic(reader.client_id, reader.client_secret as string)))
    .json() as { access_token: string }
  const asReader = { authorization: `Bearer ${readOnly.access_token}` }
  t.equal((await call(app, 'POST', '/v1/zoos', { name: 'Refused', city: 'Lyon' }, asReader)).statusCode, 403)
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, asReader)).statusCode, 200)
  const after = await scrape()

  const moved = (name: string, labels: Record<string, string> = {}): number => valueOf(after, name, labels) - valueOf(before, name, labels)
  const duration = 'http_server_request_duration_seconds'
  t.equal(moved(duration, { http_request_method: 'GET', http_route: '/v1/zoos', http_response_status_code: '200' }), 4,
    'each list answered 200, by route template')
  t.equal(moved(duration, { http_request_method: 'POST', http_route: '/v1/zoos', http_response_status_code: '201' }), 1)
  t.equal(moved(duration, { http_request_method: 'GET', http_route: '/v1/zoos/:id', http_response_status_code: '404' }), 1,
    'a record read by the template of its route, not its path')
  t.equal(moved(duration, { http_request_method: 'HEAD', http_route: '/v1/zoos/:id', http_response_status_code: '404' }), 1,
    'HEAD by the template of the route Fastify made for it')
  t.equal(moved(duration, { http_request_method: 'GET', http_route: '', http_response_status_code: '404' }), 1,
    'a path no route serves, by no template')
  t.equal(moved(duration, { http_request_method: 'PUT', http_route: '/v1/zoos', http_response_status_code: '405' }), 1,
    'a method a path does not serve, by the template of the route that refused it')
  t.equal(moved(duration, { http_request_method: 'GET', http_route: '/v1/zoos', http_response_status_code: '401' }), 2)
  t.equal(after.types.get(duration), 'HISTOGRAM')
  const listed = { http_request_method: 'GET', http_route: '/v1/zoos', http_response_status_code: '200' }
  const buckets = after.series.filter(f => f.name === `${duration}_bucket`).flatMap(f => f.metrics)
    .filter(m => Object.entries(listed).every(([label, value]) => m.labels?.[label] === value))
  const counts = buckets.map(b => Number(b.value))
  t.same(counts, [...counts].sort((a, b) => a - b), 'its buckets cumulative')
  t.equal(buckets.at(-1)?.labels?.le, '+Inf')
  t.equal(counts.at(-1), valueOf(after, duration, listed), 'the last, +Inf, holds every request')
  t.ok(Number(sample(after, `${duration}_sum`, listed)?.value) > 0, 'and the sum of their durations')
  t.equal(moved('zoo_token_refusals_total', { reason: 'missing' }), 1, 'a request without a token')
  t.equal(moved('zoo_token_refusals_total', { reason: 'malformed' }), 1, 'a token that is none')
  t.equal(moved('zoo_token_refusals_total', { reason: 'insufficient_scope' }), 1, 'a token without the scope')
  t.ok(moved('db_client_operation_duration_seconds', { db_system_name: DB_SYSTEM, db_operation_name: 'SELECT' }) >= 4,
    'the reads\' statements timed')
  t.ok(moved('db_client_operation_duration_seconds', { db_system_name: DB_SYSTEM, db_operation_name: 'INSERT' }) >= 1,
    'the create\'s statements timed')
  t.equal(valueOf(after, 'http_server_active_requests', { http_request_method: 'GET' }), 0, 'nothing in flight once answered')
  t.equal(valueOf(after, 'zoo_change_streams_open'), 0)
  t.equal(valueOf(after, 'zoo_jobs_queued'), 0)
  t.ok(valueOf(after, 'process_resident_memory_bytes') > 0, 'and the process\'s own')
  if (ENGINE === 'sqlite') {
    t.ok(moved('zoo_sqlite_group_commit_writes') >= 1, 'the create was group-committed')
    t.notOk(sample(after, 'db_client_connection_count'), 'no pool on SQLite')
  } else {
    t.equal(valueOf(after, 'db_client_connection_max'), 10, 'the pool\'s size')
    t.equal(valueOf(after, 'db_client_connection_count', { db_client_connection_state: 'used' }), 0, 'no connection in use once answered')
    t.ok(valueOf(after, 'db_client_connection_count', { db_client_connection_state: 'idle' }) >= 1)
  }

  const queued = await call(app, 'POST', '/v1/zoos', { name: 'Later', city: 'Lyon' }, { prefer: 'respond-async' })
  t.equal(queued.statusCode, 202)
  t.ok(valueOf(await scrape(), 'zoo_jobs_queued') <= 1, 'a queued job counted until the worker takes it')
})

t.test('a request in flight is counted until it is answered', async t => {
  const app = await build(t, { METRICS_PORT: '0' })
  const scrape = await scraper(t, app)
  const authorization = await bearer(app)
  // A body still being sent: the request is in flight from its headers to its answer.
  const body = new PassThrough()
  const headers = { authorization, 'content-type': 'application/json' }
  const answer = app.inject({ method: 'POST', url: '/v1/zoos', headers, payload: body })
  body.write('{"name": "Slow", ')
  await new Promise(resolve => setTimeout(resolve, 50))
  t.equal(valueOf(await scrape(), 'http_server_active_requests', { http_request_method: 'POST' }), 1)
  body.end('"city": "Lyon"}')
  t.equal((await answer).statusCode, 201)
  t.equal(valueOf(await scrape(), 'http_server_active_requests', { http_request_method: 'POST' }), 0)
})

t.test('rate-limit refusals are counted', async t => {
  const app = await build(t, { METRICS_PORT: '0', RATE_LIMIT: '2' })
  const scrape = await scraper(t, app)
  const statuses = []
  for (let n = 0; n < 4; n++) statuses.push((await app.inject('/')).statusCode)
  t.same(statuses, [200, 200, 429, 429])
  t.equal(valueOf(await scrape(), 'zoo_rate_limit_refusals_total'), 2)
})

t.test('the metrics listener answers /metrics only; without METRICS_PORT there are no metrics', async t => {
  const app = await build(t, { METRICS_PORT: '0' })
  if (app.metrics === undefined) throw new Error('no metrics')
  const listener = buildMetricsListener(app.config, app.metrics)
  t.teardown(() => listener.close())
  const other = await listener.inject('/v1/zoos')
  t.equal(other.statusCode, 404)
  t.same(other.json(), { error: 'No such path: GET /v1/zoos; the metrics are at /metrics' })
  t.equal((await listener.inject({ method: 'HEAD', url: '/metrics' })).statusCode, 200)
  const plain = await build(t)
  t.equal(plain.metrics, undefined)
})

/** The metrics listener of an app built with `settings`, answering inject() only. */
async function metricsListener (t: Test, settings: Record<string, string>): Promise<FastifyInstance> {
  const app = await build(t, { METRICS_PORT: '0', ...settings })
  if (app.metrics === undefined) throw new Error('no metrics')
  const listener = buildMetricsListener(app.config, app.metrics)
  t.teardown(() => listener.close())
  return listener
}

const METRICS_TOKEN = 'metrics-t0ken-0123456789'

t.test('on loopback the metrics listener answers only requests addressed to a loopback name: no web page reads it', async t => {
  const listener = await metricsListener(t, {})
  for (const host of ['localhost:9464', '127.0.0.1:9464', '[::1]:9464', '127.0.0.1']) {
    t.equal((await listener.inject({ url: '/metrics', headers: { host } })).statusCode, 200, host)
  }
  for (const host of ['attacker.example:9464', 'localhost.attacker.example', '10.0.0.1:9464']) {
    const refused = await listener.inject({ url: '/metrics', headers: { host } })
    t.equal(refused.statusCode, 403, host)
    t.match(refused.json(), { error: /loopback name/ })
  }
  const fromPage = await listener.inject({ url: '/metrics', headers: { host: 'localhost:9464', origin: 'http://attacker.example' } })
  t.equal(fromPage.statusCode, 403, 'an Origin that is not loopback')
  t.equal((await listener.inject({ url: '/metrics', headers: { origin: 'http://localhost:3000' } })).statusCode, 200)
  t.equal((await listener.inject({ url: '/elsewhere', headers: { host: 'attacker.example' } })).statusCode, 403, 'whatever the path')
})

t.test('with METRICS_TOKEN a scrape needs it as a bearer token, as Prometheus sends it; off loopback any Host is served', async t => {
  for (const settings of [{}, { METRICS_HOST: '0.0.0.0' }] as Record<string, string>[]) {
    const listener = await metricsListener(t, { METRICS_TOKEN, ...settings })
    const host = settings.METRICS_HOST === undefined ? 'localhost:9464' : 'metrics.example:9464'
    const missing = await listener.inject({ url: '/metrics', headers: { host } })
    t.equal(missing.statusCode, 401, `${host}: no token`)
    t.match(missing.headers['www-authenticate'], /^Bearer realm="zoo-metrics"$/)
    t.same(missing.json(), { error: 'Authorization required: send Authorization: Bearer <METRICS_TOKEN>' })
    for (const authorization of [`Bearer ${METRICS_TOKEN}x`, `Basic ${METRICS_TOKEN}`, 'Bearer', METRICS_TOKEN]) {
      const wrong = await listener.inject({ url: '/metrics', headers: { host, authorization } })
      t.equal(wrong.statusCode, 401, `${host}: ${authorization}`)
      t.match(wrong.headers['www-authenticate'], /^Bearer realm="zoo-metrics", error="invalid_token"$/)
    }
    const scraped = await listener.inject({ url: '/metrics', headers: { host, authorization: `Bearer ${METRICS_TOKEN}` } })
    t.equal(scraped.statusCode, 200, `${host}: the token`)
    t.match(scraped.body, /^# HELP /m)
  }
  const loopback = await metricsListener(t, { METRICS_TOKEN })
  const authorization = `Bearer ${METRICS_TOKEN}`
  const rebound = await loopback.inject({ url: '/metrics', headers: { host: 'attacker.example', authorization } })
  t.equal(rebound.statusCode, 403, 'on loopback the Host is checked as well')
})

t.test('open change streams and the feed\'s lag are counted; a request its client abandons is no longer in flight', async t => {
  const app = await build(t, { METRICS_PORT: '0' })
  const scrape = await scraper(t, app)
  const authorization = await bearer(app)
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  const stream = await openStream(t, `${address}/v1/zoos/changes`, { authorization })
  t.equal(stream.status, 200)
  t.equal(valueOf(await scrape(), 'zoo_change_streams_open'), 1, 'a stream open')
  await create(app, 'zoos', { name: 'Streamed', city: 'Lyon' })
  await stream.until(() => stream.events.length > 0, 'the change')
  const streamed = await scrape()
  t.ok(valueOf(streamed, 'zoo_change_feed_lag_seconds') >= 1, 'its delivery timed')
  stream.close()

  // Headers that announce a body that never comes, then the connection dropped.
  const { port } = new URL(address)
  const socket = connect(Number(port), '127.0.0.1')
  await once(socket, 'connect')
  socket.write(`POST /v1/zoos HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\n` +
    'Content-Length: 100\r\n\r\n{"name":')
  const inFlight = async (): Promise<number> => valueOf(await scrape(), 'http_server_active_requests', { http_request_method: 'POST' })
  for (let tries = 0; await inFlight() !== 1; tries++) {
    if (tries > 100) throw new Error('the request never counted')
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  socket.destroy()
  for (let tries = 0; await inFlight() !== 0; tries++) {
    if (tries > 100) throw new Error('the abandoned request stayed in flight')
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  t.pass('abandoned, no longer in flight')
})

t.test('the histograms answer prom-client\'s registry as its own do: as JSON, and reset', async t => {
  const app = await build(t, { METRICS_PORT: '0' })
  await call(app, 'GET', '/v1/zoos')
  const registry = app.metrics?.registry
  if (registry === undefined) throw new Error('no metrics')
  const json = await registry.getMetricsAsJSON()
  const duration = json.find(metric => metric.name === 'http_server_request_duration_seconds') as unknown as
    { type: string, values: { metricName: string, value: number, labels: Record<string, string | number> }[] }
  t.equal(duration.type, 'histogram')
  const counted = duration.values
    .find(v => v.metricName === 'http_server_request_duration_seconds_count' && v.labels.http_route === '/v1/zoos')
  t.ok((counted?.value ?? 0) >= 1)
  registry.resetMetrics()
  t.notMatch(await registry.metrics(), /http_route="\/v1\/zoos"/, 'reset, the series are gone')
})

t.test('a request whose client leaves after sending it whole is no longer in flight once it ends', async t => {
  // A route that holds its answer until told: the client has gone by the time it answers.
  const metrics = new Metrics()
  t.teardown(() => { metrics.close() })
  const fastify = Fastify()
  countRequests(fastify, metrics)
  let release: () => void = () => {}
  const held = new Promise<void>(resolve => { release = resolve })
  let arrived: () => void = () => {}
  const reached = new Promise<void>(resolve => { arrived = resolve })
  fastify.post('/held', async () => { arrived(); await held; return { ok: true } })
  t.teardown(() => fastify.close())
  await fastify.listen({ host: '127.0.0.1', port: 0 })
  const socket = connect((fastify.server.address() as AddressInfo).port, '127.0.0.1')
  await once(socket, 'connect')
  socket.write('POST /held HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}')
  await reached
  const inFlight = async (): Promise<string | undefined> =>
    /^http_server_active_requests\{http_request_method="POST"\} (\d+)$/m.exec(await metrics.text())?.[1]
  t.equal(await inFlight(), '1')
  socket.destroy()
  await new Promise(resolve => setTimeout(resolve, 50))
  t.equal(metrics.inFlight.size, 1, 'kept until looked for: no listener of its own heard it leave')
  // Without a scrape, the abandoned are looked for every 4,096 arrivals: what they hold is bounded.
  for (let sent = 0; sent < 4096; sent++) await fastify.inject({ method: 'GET', url: '/elsewhere' })
  t.equal(metrics.inFlight.size, 0, 'counted out by the arrivals')
  release()
  await new Promise(resolve => setTimeout(resolve, 50))
  t.equal(await inFlight(), '0', 'counted out, neither answered nor aborted in Fastify\'s sense')
})

t.test('webhook deliveries are counted by outcome, and those waiting with the age of the oldest', async t => {
  const app = await build(t, { METRICS_PORT: '0', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRIES: '0.3', WEBHOOK_TIMEOUT: '2' })
  const scrape = await scraper(t, app)
  const hook = await receiver(t)
  let status = 500
  hook.answerWith(() => status)
  t.equal((await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['zoos'] })).statusCode, 201)
  await create(app, 'zoos', { name: 'Watched', city: 'Lyon' })
  // An attempt's outcome is counted once it is kept, after the receiver has answered: scraped until it is (at most 10 s).
  const scrapedOnce = async (kept: (scraped: Scraped) => boolean): Promise<Scraped> => {
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise(resolve => setTimeout(resolve, 20))) {
      const scraped = await scrape()
      if (kept(scraped)) return scraped
    }
    return await scrape()
  }
  const waiting = await scrapedOnce(scraped => valueOf(scraped, 'zoo_webhook_attempts_total', { outcome: 'retried' }) > 0)
  t.equal(valueOf(waiting, 'zoo_webhook_attempts_total', { outcome: 'retried' }), 1, 'a failed attempt to be tried again')
  t.equal(valueOf(waiting, 'zoo_webhook_deliveries_pending'), 1)
  t.ok(valueOf(waiting, 'zoo_webhook_oldest_pending_age_seconds') > 0, 'the waiting change\'s age')
  status = 200
  await hook.waitFor(1)
  const delivered = await scrapedOnce(scraped => valueOf(scraped, 'zoo_webhook_attempts_total', { outcome: 'succeeded' }) > 0)
  t.equal(valueOf(delivered, 'zoo_webhook_attempts_total', { outcome: 'succeeded' }), 1)
  t.equal(valueOf(delivered, 'zoo_webhook_deliveries_pending'), 0)
  t.equal(valueOf(delivered, 'zoo_webhook_oldest_pending_age_seconds'), 0)
})
