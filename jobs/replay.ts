import { context, propagation } from '@opentelemetry/api'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { INTERNAL_ADDRESS } from '../http/internal.ts'
import { claimsOf, type Claims } from '../auth/claims.ts'
import type { TokenService } from '../auth/tokens.ts'
import type { AccountStore, ClaimedJob, JobResult } from '../store/storage.ts'

/**
 * A job can outlive the token that queued it: one of our own clients runs it with the scopes
 * it (and its user) still has, in its current generation, and with the claims the account has
 * now (auth/claims.ts), so deleting a client, taking a scope away or changing claims applies to
 * its queued jobs too. An external issuer's grants cannot be looked up: its token's scopes and
 * claims stand, and the job runs as its subject for as long as that issuer is accepted.
 */
async function grantOf (
  { owner, scope, claims }: ClaimedJob,
  tokens: TokenService,
  accounts: AccountStore
): Promise<{ scope: string, clientGeneration: string, userGeneration: string, claims: Claims, subjectIssuer?: string }> {
  if (owner.issuer !== tokens.settings.issuer) {
    return { scope, clientGeneration: '', userGeneration: '', claims: claimsOf(claims), subjectIssuer: owner.issuer }
  }
  const client = await accounts.client(owner.clientId)
  const allowed = new Set(client?.scope.split(' '))
  const userId = /^user:(\d+)$/.exec(owner.subject)
  const user = userId === null ? undefined : await accounts.userById(Number(userId[1]))
  if (userId !== null) {
    const userScopes = new Set(user?.scope.split(' '))
    for (const s of allowed) if (!userScopes.has(s)) allowed.delete(s)
  }
  return {
    scope: scope.split(' ').filter(s => allowed.has(s)).join(' '),
    clientGeneration: client?.generation ?? '',
    userGeneration: user?.generation ?? '',
    claims: claimsOf((userId === null ? client?.claims : user?.claims) ?? '{}')
  }
}

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
