import { trace } from '@opentelemetry/api'
import type { FastifyBaseLogger, FastifyError } from 'fastify'
import { accountClaims, keptClaims } from '../auth/claims.ts'
import type { Principal } from '../auth/principal.ts'
import { HttpError } from '../http/errors.ts'
import type { ClaimedJob, JobOwner, JobResult, JobStore, JobView, StoredRequest } from '../store/storage.ts'

const tracer = trace.getTracer('zoo-api')

const DAY_MS = 24 * 60 * 60 * 1000
/**
 * Finished jobs are deleted after a while, their answers holding records' data: a week for those
 * that succeeded (the client may want the record they made), a day for those that failed.
 */
const SUCCEEDED_KEPT_MS = 7 * DAY_MS
const FAILED_KEPT_MS = DAY_MS
/**
 * Jobs one owner may have queued or running: each holds a whole request body until it runs, so
 * without a bound one client could fill the disk faster than the worker empties the queue.
 */
const MAX_WAITING_JOBS = 100

/** Who a job belongs to: the token's issuer, client and subject. Nobody else may see it. */
const ownerOf = (principal: Principal): JobOwner =>
  ({ issuer: principal.issuer, clientId: principal.clientId, subject: principal.subject })

/**
 * The queue of background jobs and its worker, which runs them one at a time, oldest first, by
 * handing each request to `replay`. It starts once the app is ready, with the jobs an earlier
 * process left, and stops when the app closes, after the job in progress. A job queued here wakes
 * it at once; with a storage shared by several instances it also looks every `pollInterval`
 * milliseconds for jobs queued elsewhere, or left by an instance that died.
 */
export class JobQueue {
  #state: 'waiting' | 'started' | 'stopped' = 'waiting'
  #busy = false
  #drained: Promise<void> = Promise.resolve()
  #poller: NodeJS.Timeout | undefined

  readonly store: JobStore
  /** Sends a job's request and returns the answer. */
  readonly replay: (job: ClaimedJob) => Promise<JobResult>
  readonly log: FastifyBaseLogger
  readonly pollInterval: number | undefined

  constructor (
    store: JobStore,
    replay: (job: ClaimedJob) => Promise<JobResult>,
    log: FastifyBaseLogger,
    pollInterval?: number
  ) {
    this.store = store
    this.replay = replay
    this.log = log
    this.pollInterval = pollInterval
  }

  async enqueue (principal: Principal, request: StoredRequest): Promise<JobView> {
    const owner = ownerOf(principal)
    // Counted, then queued: requests racing past the count can add a few more, which is harmless.
    if (await this.store.waiting(owner) >= MAX_WAITING_JOBS) {
      throw new HttpError(429, `${MAX_WAITING_JOBS} jobs of yours are waiting to run; wait for some to finish before queuing more`,
        {}, { 'Retry-After': '5' })
    }
    const job = await this.store.enqueue(owner, [...principal.scopes].join(' '), keptClaims(accountClaims(principal.claims)), request)
    this.wake()
    return job
  }

  async find (id: string, principal: Principal): Promise<JobView | undefined> {
    return this.store.find(id, ownerOf(principal))
  }

  /** Whether the worker runs queued jobs: started and not stopped. */
  get running (): boolean {
    return this.#state === 'started'
  }

  /** Starts the worker, with the jobs a previous process left behind queued again. */
  async start (): Promise<void> {
    if (this.#state !== 'waiting') return
    // Before the worker claims anything: a job it claimed would look abandoned too.
    await this.#requeueAbandoned()
    await this.#prune()
    if (this.#state !== 'waiting') return
    this.#state = 'started'
    if (this.pollInterval !== undefined) {
      this.#poller = setInterval(() => { this.#poll() }, this.pollInterval)
      this.#poller.unref()
    }
    this.wake()
  }

  async #requeueAbandoned (): Promise<void> {
    const abandoned = await this.store.requeueAbandoned()
    if (abandoned > 0) this.log.warn({ jobs: abandoned }, 'jobs left running by a process that is gone are queued again')
  }

  #poll (): void {
    this.#requeueAbandoned().then(() => this.wake(), (err: unknown) => this.log.error({ err }, 'the job queue cannot be read'))
  }

  /** Runs the queued jobs, unless the worker is already at it or not running. */
  wake (): void {
    if (this.#state !== 'started' || this.#busy) return
    this.#busy = true
    this.#drained = this.#drain()
  }

  /** Takes no new job; resolves once the one in progress has finished. */
  async stop (): Promise<void> {
    this.#state = 'stopped'
    clearInterval(this.#poller)
    await this.#drained
  }

  async #drain (): Promise<void> {
    try {
      while (this.#state === 'started') {
        const job = await this.store.claimNext()
        if (job === undefined) return
        await this.#run(job)
      }
    } finally {
      this.#busy = false
    }
  }

  /**
   * Runs `job` in a span of its own when traces are on (telemetry/tracing.ts), its replayed
   * request's span a child of it; with no tracer provider set, OpenTelemetry's API does nothing.
   */
  async #run (job: ClaimedJob): Promise<void> {
    const { method } = job.request
    await tracer.startActiveSpan(`job ${method}`, { attributes: { 'zoo.job.id': job.id, 'http.request.method': method } }, async span => {
      try {
        const status = await this.#runTraced(job)
        if (status !== undefined) span.setAttribute('http.response.status_code', status)
      } finally {
        span.end()
      }
    })
  }

  /** The job's answer's status; undefined when it was left queued for the next start. */
  async #runTraced (job: ClaimedJob): Promise<number | undefined> {
    let result: JobResult
    try {
      result = await this.replay(job)
    } catch (err) {
      // inject() refuses from the moment the app starts closing, which may come before the
      // preClose hook stops the worker: the request was not sent, the next start sends it.
      if ((err as FastifyError).code === 'FST_ERR_REOPENED_CLOSE_SERVER') {
        this.#state = 'stopped'
        await this.store.requeue(job.id)
        this.log.info({ job: job.id }, 'job left queued: the app is closing')
        return undefined
      }
      this.log.error({ err, job: job.id }, 'job failed')
      result = { status: 500, body: { error: 'Internal server error' } }
    }
    await this.store.finish(job.id, result)
    this.log.info({ job: job.id, status: result.status }, 'job finished')
    await this.#prune()
    return result.status
  }

  async #prune (): Promise<void> {
    await this.store.prune(new Date(Date.now() - SUCCEEDED_KEPT_MS), new Date(Date.now() - FAILED_KEPT_MS))
  }
}
