import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { JobQueue } from '../../jobs/queue.ts'
import { replayer } from '../../jobs/replay.ts'
import { respondAsync } from '../../jobs/respond-async.ts'

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

/** How often an instance sharing its database looks for jobs queued by the others, or left by one that died. */
const POLL_INTERVAL_MS = 1000

/**
 * Background jobs (jobs/). A collection write sent with `Prefer: respond-async` is checked as
 * usual (token, scope, body), then stored and answered 202; the worker replays it later through
 * the API itself. Jobs a previous process left running are queued again when the worker starts.
 */
export default fp(async function jobs (fastify: FastifyInstance) {
  const { storage } = fastify
  const queue = new JobQueue(storage.jobs, replayer(fastify), fastify.log, storage.shared ? POLL_INTERVAL_MS : undefined)
  fastify.decorate('jobs', queue)
  fastify.decorate('respondAsync', respondAsync(queue))
  fastify.addHook('onReady', async () => { if (fastify.runJobs) await queue.start() })
  fastify.addHook('preClose', async () => { await queue.stop() })
}, { name: 'jobs', dependencies: ['storage', 'oauth', 'bearer-guard'] })
