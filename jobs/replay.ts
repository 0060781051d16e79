import { context, propagation } from '@opentelemetry/api'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { INTERNAL_ADDRESS } from '../http/internal.ts'
import { grantOf } from '../auth/grants.ts'
import type { ClaimedJob, JobResult } from '../store/storage.ts'

/**
 * The job's span as the `traceparent` (and `tracestate`) of its replay, which the request's span
 * then has for its parent (telemetry/tracing.ts); nothing when traces are off.
 */
function traceContext (): Record<string, string> {
  const carrier: Record<string, string> = {}
  propagation.inject(context.active(), carrier)
  return carrier
}

/**
 * Sends a job's request through the API itself with inject(), so that its result is exactly the
 * answer a synchronous request would have got. It carries an access token minted for the job's
 * owner, with the scopes it still has.
 */
export function replayer (fastify: FastifyInstance): (job: ClaimedJob) => Promise<JobResult> {
  const { tokens } = fastify.oauth
  const { accounts } = fastify.storage
  return async job => {
    const { token } = await tokens.issue({
      subject: job.owner.subject,
      clientId: job.owner.clientId,
      ...await grantOf(job, tokens, accounts)
    })
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
        ...(fastify.config.tls === 'proxy' ? { 'x-forwarded-proto': 'https' } : {}),
        ...traceContext()
      },
      ...(body === null ? {} : { payload: body })
    })
    return { status: response.statusCode, body: response.body === '' ? null : JSON.parse(response.body) }
  }
}
