import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, InjectOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { Principal } from '../../auth/tokens.js'
import { INTERNAL_ADDRESS } from '../../lib/internal.js'
import { versionRoot } from '../../lib/links.js'
import { JobStore, type ClaimedJob, type JobOwner, type JobResult, type JobView, type StoredRequest } from '../../store/jobs.js'

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue
    /**
     * preHandler of /v1 (routes/v1/autohooks.ts): a collection write sent with
     * `Prefer: respond-async` is queued and answered 202 instead of being run.
     */
    respondAsync: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/**
 * The request headers besides the body that shape a write's answer, kept for its replay.
 * Not Idempotency-Key: it applies to the 202 (plugins/app/idempotency.ts runs first and records
 * it), so a retry gets the same job; the replay carrying it would be answered that 202 again.
 */
const REPLAYED_HEADERS = ['content-type', 'if-match']
/** Finished jobs are deleted after a week: their requests and answers hold records' data. */
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000

/**
 * Whether a Prefer header (RFC 7240) asks for respond-async: it holds comma-separated
 * preferences, each a case-insensitive name with an optional value and parameters, in which a
 * quoted string may hold commas.
 */
function prefersAsync (header: string | string[] | undefined): boolean {
  if (header === undefined) return false
  const preferences = [...[header].flat().join(',').matchAll(/(?:"(?:[^"\\]|\\.)*"|[^,"])+/g)]
  return preferences.some(([preference]) => preference.split(/[=;]/)[0]?.trim().toLowerCase() === 'respond-async')
}

const ownerOf = (principal: Principal): JobOwner =>
  ({ issuer: principal.issuer, clientId: principal.clientId, subject: principal.subject })

/**
 * The queue of background jobs and its worker, which runs them one at a time, oldest first, by
 * handing each request to `replay`. It starts once the app is ready, with the jobs an earlier
 * process left, and stops when the app closes, after the job in progress.
 */
export class JobQueue {
  #state: 'waiting' | 'started' | 'stopped' = 'waiting'
  #busy = false
  #drained: Promise<void> = Promise.resolve()

  constructor (
    readonly store: JobStore,
    /** Sends a job's request and returns the answer. */
    readonly replay: (job: ClaimedJob) => Promise<JobResult>,
    readonly log: FastifyBaseLogger
  ) {}

  enqueue (principal: Principal, request: StoredRequest): JobView {
    const job = this.store.enqueue(ownerOf(principal), [...principal.scopes].join(' '), request)
    this.wake()
    return job
  }

  find (id: string, principal: Principal): JobView | undefined {
    return this.store.find(id, ownerOf(principal))
  }

  start (): void {
    if (this.#state !== 'waiting') return
    this.#state = 'started'
    this.store.prune(new Date(Date.now() - RETENTION_MS))
    this.wake()
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
    await this.#drained
  }

  async #drain (): Promise<void> {
    try {
      while (this.#state === 'started') {
        const job = this.store.claimNext()
        if (job === undefined) return
        await this.#run(job)
      }
    } finally {
      this.#busy = false
    }
  }

  async #run (job: ClaimedJob): Promise<void> {
    let result: JobResult
    try {
      result = await this.replay(job)
    } catch (err) {
      // inject() refuses from the moment the app starts closing, which may come before the
      // preClose hook stops the worker: the request was not sent, the next start sends it.
      if ((err as FastifyError).code === 'FST_ERR_REOPENED_CLOSE_SERVER') {
        this.#state = 'stopped'
        this.store.requeue(job.id)
        this.log.info({ job: job.id }, 'job left queued: the app is closing')
        return
      }
      this.log.error({ err, job: job.id }, 'job failed')
      result = { status: 500, body: { error: 'Internal server error' } }
    }
    this.store.finish(job.id, result)
    this.log.info({ job: job.id, status: result.status }, 'job finished')
    this.store.prune(new Date(Date.now() - RETENTION_MS))
  }
}

/**
 * Background jobs. A collection write sent with `Prefer: respond-async` is checked as
 * usual (token, scope, body) and then, instead of being run, stored in SQLite and answered 202
 * with the job's Location. The worker replays it through the API itself with inject(), so the
 * job's result is exactly the answer a synchronous request would have got. The replay carries
 * an access token minted for the job's owner, with the scopes of the token that queued it.
 */
export default fp(async function jobs (fastify: FastifyInstance) {
  const store = new JobStore(fastify.db)
  const { tokens, store: accounts } = fastify.oauth
  const abandoned = store.requeueAbandoned()
  if (abandoned > 0) fastify.log.warn({ jobs: abandoned }, 'jobs left running by a previous process are queued again')

  /**
   * A job can outlive the token that queued it: one of our own clients runs it with the scopes
   * it (and its user) still has, so deleting a client or taking a scope away applies to its
   * queued jobs too. An external issuer's grants cannot be looked up: its token's scopes stand.
   */
  const grantedScope = ({ owner, scope }: ClaimedJob): string => {
    if (owner.issuer !== tokens.settings.issuer) return scope
    const allowed = new Set(accounts.client(owner.clientId)?.scope.split(' '))
    const user = /^user:(\d+)$/.exec(owner.subject)
    if (user !== null) {
      const userScopes = new Set(accounts.userById(Number(user[1]))?.scope.split(' '))
      for (const s of allowed) if (!userScopes.has(s)) allowed.delete(s)
    }
    return scope.split(' ').filter(s => allowed.has(s)).join(' ')
  }

  const replay = async (job: ClaimedJob): Promise<JobResult> => {
    const { token } = await tokens.issue({ subject: job.owner.subject, clientId: job.owner.clientId, scope: grantedScope(job) })
    const { method, url, headers, body } = job.request
    const response = await fastify.inject({
      method: method as InjectOptions['method'],
      url,
      // Not counted by the rate limit: the request was counted when it was queued.
      remoteAddress: INTERNAL_ADDRESS,
      headers: {
        ...headers,
        authorization: `Bearer ${token}`,
        // The request was received over HTTPS (plugins/app/https-only.ts let it in).
        ...(fastify.config.tls === 'proxy' ? { 'x-forwarded-proto': 'https' } : {})
      },
      ...(body === null ? {} : { payload: body })
    })
    return { status: response.statusCode, body: response.body === '' ? null : JSON.parse(response.body) }
  }

  const queue = new JobQueue(store, replay, fastify.log)
  fastify.decorate('jobs', queue)

  // A callback hook: most requests pass it at once, at no cost of a promise.
  fastify.decorate('respondAsync', function respondAsync (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const principal = request.principal
    if (!WRITES.has(request.method) || request.routeOptions.config.collection === undefined ||
      principal === null || !prefersAsync(request.headers.prefer)) return done()
    const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap(name => {
      const value = request.headers[name]
      return value === undefined ? [] : [[name, String(value)]]
    }))
    const job = queue.enqueue(principal, {
      method: request.method,
      url: request.url,
      headers,
      body: request.body === undefined ? null : JSON.stringify(request.body)
    })
    reply.code(202)
      .header('Location', `${versionRoot(request)}/jobs/${job.id}`)
      .header('Preference-Applied', 'respond-async')
      .send({ id: job.id, status: 'queued' })
  })

  fastify.addHook('onReady', async () => { if (fastify.runJobs) queue.start() })
  fastify.addHook('preClose', async () => { await queue.stop() })
}, { name: 'jobs', dependencies: ['sqlite', 'oauth'] })
