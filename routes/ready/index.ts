import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from '@sinclair/typebox'
import { PROBE } from '../../http/probes.ts'
import { NotReadySchema, ReadySchema, type ReadinessChecksSchema } from '../../schemas/health.ts'
import { uncountedErrors } from '../../schemas/responses.ts'

/** Readiness: whether this instance should be sent requests. */
const ready: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get('/', {
    ...PROBE,
    schema: {
      operationId: 'getReady',
      summary: 'Readiness: the database answers, the migrations are applied, the job worker runs',
      description: 'Public, not rate-limited, not logged. For a load balancer: 503 takes the instance out of rotation, while it ' +
        'starts, stops, is overloaded or has lost its database.',
      tags: ['operations'],
      response: {
        200: { ...ReadySchema, description: 'Ready for requests' },
        ...uncountedErrors(),
        503: { ...NotReadySchema, description: 'Not ready: error says why, checks says which check failed' }
      }
    }
  }, async (_request, reply) => {
    const checks: Static<typeof ReadinessChecksSchema> = { database: 'ok', migrations: 'ok', jobs: 'ok' }
    try {
      const pending = await fastify.storage.pendingMigrations()
      if (pending.length > 0) checks.migrations = `not applied: ${pending.join(', ')}`
    } catch (err) {
      // The probe is public: the reason goes to the log only.
      fastify.log.warn({ err }, 'readiness: the database does not answer')
      checks.database = 'does not answer'
      checks.migrations = 'unknown'
    }
    if (!fastify.jobs.running) checks.jobs = 'the worker is not running'
    const failed = Object.entries(checks).filter(([, state]) => state !== 'ok')
    if (failed.length === 0) return { status: 'ready' as const, checks }
    return reply.code(503).send({ error: `Not ready: ${failed.map(([name, state]) => `${name} ${state}`).join('; ')}`, checks })
  })
}

export default ready
