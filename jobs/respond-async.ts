import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { versionRoot } from '../http/links.ts'
import { preferencesOfJob, prefersAsync } from '../http/prefer.ts'
import type { JobQueue } from './queue.ts'

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/**
 * The request headers besides the body that shape a write's answer, kept for its replay, and
 * Prefer without respond-async (its max-affected, tx and return shape the write as they would
 * have at once). Not Idempotency-Key: it applies to the 202 (plugins/app/idempotency.ts runs first
 * and records it), so a retry gets the same job; the replay carrying it would be answered that 202
 * again.
 */
const REPLAYED_HEADERS = ['content-type', 'if-match']

/**
 * The preHandler that queues a collection write sent with `Prefer: respond-async` and answers
 * 202 with the job's Location. A preHandler runs after validation: a write refused for its token,
 * scope or body is refused at once, not queued to fail later. A callback hook: most requests pass
 * it at once, at no cost of a promise.
 */
export function respondAsync (queue: JobQueue) {
  return function respondAsync (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const principal = request.principal
    const { config } = request.routeOptions
    if (!WRITES.has(request.method) || (config.collection === undefined && config.write !== true) ||
      principal === null || !prefersAsync(request.headers.prefer)) return done()
    const prefer = preferencesOfJob(request.headers.prefer)
    const headers = Object.fromEntries([...REPLAYED_HEADERS.flatMap(name => {
      const value = request.headers[name]
      return value === undefined ? [] : [[name, String(value)]]
    }), ...prefer === undefined ? [] : [['prefer', prefer]]])
    // Queueing writes: a token that no longer stands queues nothing.
    Promise.resolve(request.standing?.settle()).then(() => queue.enqueue(principal, {
      method: request.method,
      url: request.url,
      headers,
      body: request.body === undefined ? null : JSON.stringify(request.body)
    })).then(job => {
      reply.code(202)
        .header('Location', `${versionRoot(request)}/jobs/${job.id}`)
        .header('Preference-Applied', 'respond-async')
        .send({ id: job.id, status: 'queued' })
    }, done)
  }
}
