import type { Channel } from 'node:diagnostics_channel'
import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client'
import type { BackupSchedule } from '../backups/schedule.ts'
import { liveDeliveries } from '../collections/feed.ts'
import { webhookAttempts } from '../webhooks/deliverer.ts'
import { rateLimitRefusals, tokenRefusals } from '../http/observed.ts'
import { groupCommits, operationOf, statementTimes, type StatementTime } from '../store/observed.ts'
import { FastHistogram } from './histogram.ts'
import type { Storage } from '../store/storage.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The template of the route that answered, once its answer is sent; undefined where no route did. */
    answeredRoute: string | undefined
    /**
     * Its place among the requests in flight (InFlight), -1 once answered or abandoned. The
     * request's, not the reply's: a decoration of every reply slowed Fastify's reply code.
     */
    inFlightSlot: number
  }
}

/**
 * Counts the requests of `fastify`, from a hook that should run before any other: each one's
 * duration by route template, method and status once answered, and those in flight. Callback
 * hooks: they cost no promise on every request. Each route tells its template as its answer is
 * sent, refusals and errors included (every answer passes its onSend hooks): reading
 * `request.routeOptions`, which Fastify makes anew at each read, cost a GET 2,000 instructions.
 */
export function countRequests (fastify: FastifyInstance, metrics: Metrics): void {
  fastify.decorateRequest('answeredRoute', undefined)
  fastify.decorateRequest('inFlightSlot', -1)
  fastify.addHook('onRoute', route => {
    const template = route.url
    const answered: onSendHookHandler = (request, _reply, payload, done) => {
      request.answeredRoute = template
      done(null, payload)
    }
    route.onSend = route.onSend === undefined ? [answered] : [route.onSend, answered].flat()
  })
  fastify.addHook('onRequest', (_request, reply, done) => {
    metrics.inFlight.add(reply)
    done()
  })
  fastify.addHook('onResponse', (request, reply, done) => {
    if (metrics.inFlight.remove(reply)) {
      metrics.answered(request.method, request.answeredRoute, reply.statusCode, reply.elapsedTime / 1000)
    }
    done()
  })
}

/** Requests that arrive between two looks for the abandoned ones, at most (InFlight). */
const ARRIVALS_BETWEEN_SWEEPS = 4096

/**
 * The requests in flight, each in a slot it knows: it leaves in a few steps, with no hashing and
 * no listener of its own. A client that leaves before its answer ends the request without
 * onResponse (and without onRequestAbort, once it had sent the whole request); such a request's
 * answer stream is closed, and it is counted out when found so: at each scrape, before the count
 * is read, and every ARRIVALS_BETWEEN_SWEEPS arrivals, which bounds what abandoned requests hold.
 * A listener on each answer's `close` cost a one-record read 1,650 instructions (docs/benchmarks.md).
 */
export class InFlight {
  readonly #replies: FastifyReply[] = []
  #arrivals = 0

  add (reply: FastifyReply): void {
    reply.request.inFlightSlot = this.#replies.length
    this.#replies.push(reply)
    if (++this.#arrivals === ARRIVALS_BETWEEN_SWEEPS) this.sweep()
  }

  /** The requests in flight, those abandoned since the last sweep among them. */
  get size (): number {
    return this.#replies.length
  }

  /** Whether `reply` was in flight: false once answered or abandoned. */
  remove (reply: FastifyReply): boolean {
    const request = reply.request
    const slot = request.inFlightSlot
    if (slot < 0) return false
    request.inFlightSlot = -1
    const last = this.#replies.pop() as FastifyReply
    if (last !== reply) {
      this.#replies[slot] = last
      last.request.inFlightSlot = slot
    }
    return true
  }

  /** Counts out the requests whose answer stream closed unanswered. */
  sweep (): void {
    this.#arrivals = 0
    for (let slot = this.#replies.length - 1; slot >= 0; slot--) {
      const reply = this.#replies[slot] as FastifyReply
      // HTTP/1's answer says it closed; HTTP/2's emits `finish` as its stream closes, which runs onResponse.
      if (reply.raw.destroyed) this.remove(reply)
    }
  }

  /** The requests in flight by method, the abandoned ones counted out first. */
  byMethod (): Map<string, number> {
    this.sweep()
    const counts = new Map<string, number>()
    for (const reply of this.#replies) counts.set(reply.request.method, (counts.get(reply.request.method) ?? 0) + 1)
    return counts
  }
}

/** What the metrics read when scraped, rather than count as it happens. */
export interface MetricSources {
  storage: Storage
  openStreams: () => number
  backups: () => BackupSchedule | undefined
}

/** OpenTelemetry's advice for HTTP server durations, in seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]
/** OpenTelemetry's advice for database operations, with the sub-millisecond steps where SQLite answers. */
const STATEMENT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]
/** Statements' observers kept by text: texts are few, but a list's vary with its filters. */
const OPERATIONS_KEPT = 1000

type Observe = (value: number) => void

/**
 * The service's metrics, in the Prometheus text format (`/metrics` on the listener of
 * listeners/metrics.ts), with prom-client. Names follow OpenTelemetry's semantic conventions where
 * they have one (`http_server_request_duration_seconds` is `http.server.request.duration`), the
 * service's own begin with `zoo_`. Made only when METRICS_PORT is set; the store and the guards
 * publish on diagnostics channels (store/observed.ts, http/observed.ts), which cost nothing until
 * `subscribe`.
 */
export class Metrics {
  readonly registry = new Registry()
  readonly #requestDuration: FastHistogram<'http_request_method' | 'http_route' | 'http_response_status_code'>
  readonly #statementDuration: FastHistogram<'db_system_name' | 'db_operation_name'>
  readonly #groupCommit: Histogram
  readonly #feedLag: Histogram
  readonly #tokenRefusals: Counter<'reason'>
  readonly #rateLimited: Counter
  readonly #webhookAttempts: Counter<'outcome'>
  /** The observers of each label set, kept: a request finds its own by one lookup. */
  readonly #durations = new Map<string | undefined, Map<string, Map<number, Observe>>>()
  /** The requests in flight: kept here, counted when scraped (prom-client's gauge, too, hashes its labels at each change). */
  readonly inFlight = new InFlight()
  /** The methods the gauge of requests in flight has reported: each stays, at 0 when none is in flight. */
  readonly #methodsInFlight = new Set<string>()
  /** By engine, then by the statement's text: the same text object each time, whose hash V8 keeps. */
  readonly #statementObservers = new Map<string, Map<string, Observe>>()
  readonly #unsubscribe: (() => void)[] = []

  constructor () {
    const registry = this.registry
    collectDefaultMetrics({ register: registry })
    this.#requestDuration = new FastHistogram('http_server_request_duration_seconds',
      'Duration of HTTP server requests, by method, route template and status',
      ['http_request_method', 'http_route', 'http_response_status_code'], REQUEST_BUCKETS)
    registry.registerMetric(this.#requestDuration as unknown as Metric)
    const inFlight = (): Map<string, number> => this.#inFlightByMethod()
    registry.registerMetric(new Gauge({
      name: 'http_server_active_requests',
      help: 'HTTP server requests being answered',
      labelNames: ['http_request_method'],
      registers: [],
      collect () {
        for (const [method, count] of inFlight()) this.set({ http_request_method: method }, count)
      }
    }))
    this.#statementDuration = new FastHistogram('db_client_operation_duration_seconds',
      'Duration of database statements, by engine and operation (the statement\'s first word)',
      ['db_system_name', 'db_operation_name'], STATEMENT_BUCKETS)
    registry.registerMetric(this.#statementDuration as unknown as Metric)
    this.#groupCommit = new Histogram({
      name: 'zoo_sqlite_group_commit_writes',
      help: 'Writes committed together in one SQLite transaction',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
      registers: [registry]
    })
    this.#feedLag = new Histogram({
      name: 'zoo_change_feed_lag_seconds',
      help: 'Time from a change being made to its delivery to the open change streams',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry]
    })
    this.#tokenRefusals = new Counter({
      name: 'zoo_token_refusals_total',
      help: 'Requests refused for their access token (401) or its scope (403), by reason',
      labelNames: ['reason'],
      registers: [registry]
    })
    this.#rateLimited = new Counter({
      name: 'zoo_rate_limit_refusals_total',
      help: 'Requests refused by the rate limit (429)',
      registers: [registry]
    })
    this.#webhookAttempts = new Counter({
      name: 'zoo_webhook_attempts_total',
      help: 'Attempts to deliver a change to a webhook by outcome: succeeded, retried (to be tried again), failed (given up), ' +
        'skipped (outside what the subscription\'s account may read)',
      labelNames: ['outcome'],
      registers: [registry]
    })
  }

  /** Starts counting what the store, the guards and the feed publish. */
  subscribe (): void {
    this.#listen(statementTimes, message => { this.#statementEnded(message as StatementTime) })
    this.#listen(groupCommits, message => { this.#groupCommit.observe((message as { writes: number }).writes) })
    this.#listen(liveDeliveries, message => {
      this.#feedLag.observe(Math.max(0, Date.now() - Date.parse((message as { at: string }).at)) / 1000)
    })
    this.#listen(tokenRefusals, message => { this.#tokenRefusals.inc({ reason: (message as { reason: string }).reason }) })
    this.#listen(rateLimitRefusals, () => { this.#rateLimited.inc() })
    this.#listen(webhookAttempts, message => { this.#webhookAttempts.inc({ outcome: (message as { outcome: string }).outcome }) })
  }

  /** The gauges read when scraped. */
  watch ({ storage, openStreams, backups }: MetricSources): void {
    // Registered below, as each is made: `registers: []` keeps prom-client's global registry out of it.
    const registers: Registry[] = []
    const watched: (Gauge | Counter)[] = [
      new Gauge({
        name: 'zoo_change_streams_open',
        help: 'Change streams open on this instance',
        registers,
        collect () { this.set(openStreams()) }
      }),
      new Gauge({
        name: 'zoo_jobs_queued',
        help: 'Background jobs waiting in the queue (of every instance, on a shared database)',
        registers,
        async collect () { this.set(await storage.jobs.queued()) }
      }),
      new Gauge({
        name: 'zoo_webhook_deliveries_pending',
        help: 'Webhook deliveries waiting to be sent or sent again (of every instance, on a shared database)',
        registers,
        async collect () { this.set((await storage.webhooks.waiting()).pending) }
      }),
      new Gauge({
        name: 'zoo_webhook_oldest_pending_age_seconds',
        help: 'How long ago the change of the oldest webhook delivery still pending was made; 0 when none is',
        registers,
        async collect () {
          const { oldest } = await storage.webhooks.waiting()
          this.set(oldest === null ? 0 : Math.max(0, Date.now() - Date.parse(oldest)) / 1000)
        }
      })
    ]
    const backup = backups()
    if (backup !== undefined) {
      watched.push(new Gauge({
        name: 'zoo_backup_last_success_timestamp_seconds',
        help: 'When the last scheduled backup that succeeded ended (Unix time); 0 before the first',
        registers,
        collect () { this.set((backup.lastSuccess?.getTime() ?? 0) / 1000) }
      }), new Counter({
        name: 'zoo_backup_failures_total',
        help: 'Scheduled backups that failed since the service started',
        registers,
        // The schedule counts; the counter says what it counted.
        collect () {
          this.reset()
          this.inc(backup.failures)
        }
      }))
    }
    const { connections } = storage
    if (connections !== undefined) {
      watched.push(new Gauge({
        name: 'db_client_connection_count',
        help: 'PostgreSQL connections of the pool, by state',
        labelNames: ['db_client_connection_state'],
        registers,
        collect () {
          const use = connections()
          this.set({ db_client_connection_state: 'used' }, use.used)
          this.set({ db_client_connection_state: 'idle' }, use.idle)
        }
      }), new Gauge({
        name: 'db_client_connection_max',
        help: 'Connections the PostgreSQL pool may open',
        registers,
        collect () { this.set(connections().max) }
      }), new Gauge({
        name: 'db_client_connection_pending_requests',
        help: 'Requests waiting for a PostgreSQL connection of the pool',
        registers,
        collect () { this.set(connections().pending) }
      }))
    }
    for (const metric of watched) this.registry.registerMetric(metric)
  }

  /**
   * A request was answered: `route` is its template, `undefined` where no route served it.
   * Its observer is found by the route's template, the method and the status in turn, never by a
   * key made anew for each request, which would be hashed anew.
   */
  answered (method: string, route: string | undefined, status: number, seconds: number): void {
    let byMethod = this.#durations.get(route)
    if (byMethod === undefined) this.#durations.set(route, byMethod = new Map())
    let byStatus = byMethod.get(method)
    if (byStatus === undefined) byMethod.set(method, byStatus = new Map())
    let observe = byStatus.get(status)
    if (observe === undefined) byStatus.set(status, observe = this.#requestDuration.child(method, route ?? '', String(status)))
    observe(seconds)
  }

  /** The Prometheus text of every metric. */
  async text (): Promise<string> {
    return this.registry.metrics()
  }

  close (): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe()
    this.registry.clear()
  }

  /** The requests in flight by method: 0 for a method reported before or answered before, and none in flight now. */
  #inFlightByMethod (): Map<string, number> {
    const counts = this.inFlight.byMethod()
    for (const method of counts.keys()) this.#methodsInFlight.add(method)
    for (const byMethod of this.#durations.values()) {
      for (const method of byMethod.keys()) this.#methodsInFlight.add(method)
    }
    for (const method of this.#methodsInFlight) if (!counts.has(method)) counts.set(method, 0)
    return counts
  }

  #listen (channel: Channel, fn: (message: unknown) => void): void {
    channel.subscribe(fn)
    this.#unsubscribe.push(() => { channel.unsubscribe(fn) })
  }

  #statementEnded ({ system, text, seconds }: StatementTime): void {
    let byText = this.#statementObservers.get(system)
    if (byText === undefined) this.#statementObservers.set(system, byText = new Map())
    let observe = byText.get(text)
    if (observe === undefined) {
      if (byText.size >= OPERATIONS_KEPT) byText.clear()
      byText.set(text, observe = this.#statementDuration.child(system, operationOf(text)))
    }
    observe(seconds)
  }
}
