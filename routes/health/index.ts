import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PROBE } from '../../http/probes.ts'
import { HealthSchema } from '../../schemas/health.ts'
import { uncountedErrors } from '../../schemas/responses.ts'

/** Liveness: the process answers. Answered even while the server sheds load (plugins/app/overload.ts). */
const health: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get('/', {
    ...PROBE,
    config: { ...PROBE.config, pressureHandler: () => {} },
    schema: {
      operationId: 'getHealth',
      summary: 'Liveness: the process answers',
      description: 'Public, not rate-limited, not logged. For a supervisor that restarts a process that stopped answering.',
      tags: ['operations'],
      response: { 200: { ...HealthSchema, description: 'The process answers' }, ...uncountedErrors() }
    }
  }, async () => ({ status: 'ok' as const }))
}

export default health
