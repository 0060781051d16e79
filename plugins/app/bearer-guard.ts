import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { scopesFor } from '../../auth/scopes.ts'
import { IssuerUnavailable, TokenError, type Principal } from '../../auth/principal.ts'
import type { PendingStanding } from '../../auth/standing.ts'
import { HttpError, refusalOf } from '../../http/errors.ts'
import { DOCUMENTATION_PREFIX, originOf } from '../../http/links.ts'
import { tokenRefusals } from '../../http/observed.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest guard of /v1 (routes/v1/autohooks.ts): a valid bearer token with the route's scope. */
    requireToken: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
    /**
     * Throws the 403 of the guard unless the request's token has every scope `needed` (beyond the
     * route's own: an embedded collection's, a batch operation's).
     */
    requireScopes: (request: FastifyRequest, needed: readonly string[]) => void
  }
  interface FastifyRequest {
    principal: Principal | null
    /**
     * Whether the token still stands, when it is left to the request's first read of the
     * collections to ask (config.standingAlongside): that read answers it, or the guard does
     * before the answer leaves.
     */
    standing: PendingStanding | null
  }
  interface FastifyContextConfig {
    /** The collection whose read or write scope a route needs. */
    collection?: string
    /** A write that chooses its records by their values (a change of many): it needs the read scope too (auth/scopes.ts). */
    selects?: true
    /**
     * A route whose first work is a read of the collections, or a write's transaction: the
     * token's standing may be asked in the same statement or round trip (store/contract.ts's
     * Alongside). Whatever would write before it asks the standing first (request.standing.settle()).
     */
    standingAlongside?: true
  }
}

const REALM = 'Bearer realm="zoo-api"'

/**
 * The bearer-token guard (RFC 6750): 401 without a valid access token, 403 without the scope the
 * route needs. The token itself is verified by auth/tokens.ts.
 */
export default fp(async function bearerGuard (fastify) {
  const { tokens } = fastify.oauth
  fastify.decorateRequest('principal', null)
  fastify.decorateRequest('standing', null)
  /** The members of a 401 or 403 body that tell what is needed and where to get a token. */
  const documentation = (request: FastifyRequest, message: string) =>
    ({ message, documentation_url: `${originOf(request)}${fastify.config.apiPrefix}${DOCUMENTATION_PREFIX}#/oauth/issueToken` })

  const unauthenticated = (request: FastifyRequest, error: string, challenge: string): HttpError =>
    new HttpError(401, error, documentation(request, 'Requires authentication'), { 'WWW-Authenticate': challenge })

  /** Why a token was not accepted, as the answer to give; other errors pass unchanged. */
  const refusal = (request: FastifyRequest, err: unknown): unknown => {
    if (err instanceof IssuerUnavailable) {
      request.log.error({ err }, 'external issuer unavailable')
      return new HttpError(503, 'The access token cannot be checked now: the keys of its issuer are unavailable')
    }
    if (!(err instanceof TokenError)) return err
    if (tokenRefusals.hasSubscribers) tokenRefusals.publish({ reason: err.reason })
    // RFC 6750 §3: error_description is a quoted string of printable ASCII without " or \.
    return unauthenticated(request, `Invalid access token: ${err.message}`,
      `${REALM}, error="invalid_token", error_description="${err.message.replace(/[^\x20-\x7e]|["\\]/g, "'")}"`)
  }

  // The challenge names every scope the request needs (RFC 6750 §3), the message the first it lacks.
  const requireScopes = (request: FastifyRequest, needed: readonly string[]): void => {
    const lacking = needed.find(scope => request.principal?.scopes.has(scope) !== true)
    if (lacking !== undefined) {
      if (tokenRefusals.hasSubscribers) tokenRefusals.publish({ reason: 'insufficient_scope' })
      const all = needed.join(' ')
      throw new HttpError(403, `The access token lacks the scope ${lacking}`, documentation(request, `Requires the scope ${all}`),
        { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${all}"` })
    }
  }
  fastify.decorate('requireScopes', requireScopes)

  // A standing left to the route's first read and not asked by it (the route refused the request
  // before reading: a bad parameter, a parent that never was) is asked before the answer leaves;
  // a token that no longer stands gets its 401 instead of the route's answer.
  // A callback hook: nearly every request has nothing left to ask, and goes on without a promise.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const standing = request.standing
    if (standing === null || standing === undefined || standing.settled) return done(null, payload)
    standing.settle().then(() => done(null, payload), err => {
      let refused = refusalOf(err)
      if (refused === undefined) {
        request.log.error({ err }, 'request failed')
        refused = new HttpError(500, 'Internal server error', { request_id: String(request.id) })
      }
      reply.code(refused.statusCode).headers(refused.headers).type('application/json; charset=utf-8')
      done(null, JSON.stringify({ error: refused.message, ...refused.extra }))
    })
  })

  const authorize = (request: FastifyRequest, principal: Principal): void => {
    request.principal = principal
    const { collection, selects } = request.routeOptions.config
    if (collection !== undefined) requireScopes(request, scopesFor(collection, request.method, selects === true))
  }

  // A callback hook: a token verified before, on SQLite, is accepted without waiting for a
  // promise, which is what nearly every request carries.
  fastify.decorate('requireToken', function requireToken (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    const header = request.headers.authorization
    const bearer = header === undefined ? null : /^Bearer +([^ ]*) *$/i.exec(header)
    if (bearer === null) {
      if (tokenRefusals.hasSubscribers) tokenRefusals.publish({ reason: 'missing' })
      throw unauthenticated(request, 'A bearer access token is required', REALM)
    }
    const token = bearer[1] as string
    const alongside = request.routeOptions.config.standingAlongside === true
    // Whether the token stands: asked now, or left to the route's first read when it can be.
    const stands = (principal: Principal): Principal | Promise<Principal> => {
      request.standing = alongside ? tokens.pending(principal, err => refusal(request, err)) ?? null : null
      return request.standing === null ? tokens.stands(principal) : principal
    }
    let checked: Principal | Promise<Principal>
    try {
      const verified = tokens.verify(token)
      checked = verified instanceof Promise ? verified.then(stands) : stands(verified)
    } catch (err) {
      throw refusal(request, err)
    }
    if (!(checked instanceof Promise)) {
      authorize(request, checked)
      return done()
    }
    checked
      .then(principal => authorize(request, principal))
      .then(() => done(), err => done(refusal(request, err) as Error))
  })
}, { name: 'bearer-guard', dependencies: ['oauth'] })
