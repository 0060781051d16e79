import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { HttpError } from '../../../http/errors.ts'
import { allowOnly } from '../../../http/method-not-allowed.ts'
import { BEARER, errors, GUARDED, JobRef, withHeaders } from '../../../schemas/responses.ts'

/**
 * How every job id is written (randomUUID, store/jobs.ts): any
 * other names no job, and is not sent to the database, which may refuse it (PostgreSQL, a null byte).
 */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * A background job: any valid token may ask, no scope needed, but only for its own
 * jobs; another client's job answers exactly as an id that never existed.
 */
const jobs: FastifyPluginAsyncTypebox = async function jobs (fastify) {
  allowOnly(fastify, '/:id', ['GET'])
  fastify.get('/:id', {
    schema: {
      operationId: 'getJob',
      summary: 'Read a background job: its state and, once finished, the answer its request got',
      description: 'Only the client that queued the job sees it; for any other it is 404. ' +
        'Retry-After suggests when to ask again while the job is queued or running.',
      tags: ['jobs'],
      security: BEARER,
      // Any string: an id of another shape is answered like an unknown one.
      params: Type.Object({ id: Type.String({ description: 'Job identifier, from the Location of the 202 answer' }) }),
      querystring: Type.Object({}, { additionalProperties: false }),
      response: { 200: withHeaders({ ...JobRef, description: 'The job' }, 'Retry-After'), ...errors(...GUARDED, 400, 404) }
    }
  }, async (request, reply) => {
    const { id } = request.params
    // The bearer guard of /v1 ran first: every request here has a principal.
    const job = request.principal === null || !JOB_ID.test(id) ? undefined : await fastify.jobs.find(id, request.principal)
    if (job === undefined) throw new HttpError(404, `No job ${id}: a job is visible only to the client that queued it`)
    // Not finished: worth asking again shortly.
    if (job.finished_at === null) reply.header('Retry-After', '1')
    return job
  })
}

export default jobs
