import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { JobQueue } from '../../jobs/queue.js'
import { replayer } from '../../jobs/replay.js'
import { respondAsync } from '../../jobs/respond-async.js'
import { JobStore } from '../../store/jobs.js'

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

/**
 * Background jobs (jobs/). A collection write sent with `Prefer: respond-async` is checked as
 * usual (token, scope, body), then stored and answered 202; the worker replays it later through
 * the API itself. Jobs a previous process left running are queued again.
 */
export default fp(async function jobs (fastify: FastifyInstance) {
  const store = new JobStore(fastify.db)
  const abandoned = store.requeueAbandoned()
  if (abandoned > 0) fastify.log.warn({ jobs: abandoned }, 'jobs left running by a previous process are queued again')
  const queue = new JobQueue(store, replayer(fastify), fastify.log)
  fastify.decorate('jobs', queue)
  fastify.decorate('respondAsync', respondAsync(queue))
  fastify.addHook('onReady', async () => { if (fastify.runJobs) queue.start() })
  fastify.addHook('preClose', async () => { await queue.stop() })
}, { name: 'jobs', dependencies: ['sqlite', 'oauth', 'bearer-guard'] })
