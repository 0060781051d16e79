import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { createClient } from '../../auth/accounts.js'
import { loadOrCreateSigningKey, type SigningKey } from '../../auth/keys.js'
import { SCOPES, scopeFor } from '../../auth/scopes.js'
import { AuthorizationServer } from '../../auth/server.js'
import { IssuerUnavailable, TokenError, TokenService, type Principal } from '../../auth/tokens.js'
import { HttpError } from '../../lib/errors.js'
import { originOf } from '../../lib/links.js'
import { OAuthStore } from '../../store/oauth.js'

declare module 'fastify' {
  interface FastifyInstance {
    oauth: { server: AuthorizationServer, tokens: TokenService, key: SigningKey, store: OAuthStore }
    /** onRequest guard of /v1 (routes/v1/autohooks.ts): a valid bearer token with the route's scope. */
    requireToken: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
  }
  interface FastifyRequest {
    principal: Principal | null
  }
  interface FastifyContextConfig {
    /** The collection whose read or write scope a route needs. */
    collection?: string
  }
}

const REALM = 'Bearer realm="zoo-api"'

/**
 * The built-in authorization server and the bearer-token guard. A fresh data directory
 * gets one bootstrap client with every scope; a generated secret is announced once, never logged.
 */
export default fp(async function oauth (fastify) {
  const config = fastify.config
  const store = new OAuthStore(fastify.db)
  const key = await loadOrCreateSigningKey(config.dataDir)
  const external = config.oauthIssuer === undefined
    ? undefined
    : { issuer: config.oauthIssuer, jwksUri: config.oauthJwksUri as string, audience: config.oauthAudience as string }
  const tokens = new TokenService(key, { issuer: config.publicUrl, audience: `${config.publicUrl}/v1`, ttl: config.accessTokenTtl, external }, store.revokedAccessTokens())
  const server = new AuthorizationServer(store, tokens, config.refreshTokenTtl)

  if (store.clients().length === 0) {
    const created = await createClient(store, {
      clientId: config.bootstrapClientId,
      secret: config.bootstrapClientSecret,
      name: 'bootstrap',
      scope: SCOPES.join(' ')
    })
    if (config.bootstrapClientSecret === undefined) {
      fastify.announce(`Bootstrap client created; its secret is shown only now: ${JSON.stringify({ client_id: created.client_id, client_secret: created.client_secret })}`)
    }
  }

  fastify.decorate('oauth', { server, tokens, key, store })
  fastify.decorateRequest('principal', null)

  /** The members of a 401 or 403 body that tell what is needed and where to get a token. */
  const documentation = (request: FastifyRequest, message: string) =>
    ({ message, documentation_url: `${originOf(request)}${config.apiPrefix}/.well-known/oauth-authorization-server` })

  const unauthenticated = (request: FastifyRequest, error: string, challenge: string): HttpError =>
    new HttpError(401, error, documentation(request, 'Requires authentication'), { 'WWW-Authenticate': challenge })

  /** Why a token was not accepted, as the answer to give; other errors pass unchanged. */
  const refusal = (request: FastifyRequest, err: unknown): unknown => {
    if (err instanceof IssuerUnavailable) {
      request.log.error({ err }, 'external issuer unavailable')
      return new HttpError(503, 'The access token cannot be checked now: the keys of its issuer are unavailable')
    }
    if (!(err instanceof TokenError)) return err
    // RFC 6750 §3: error_description is a quoted string of printable ASCII without " or \.
    return unauthenticated(request, `Invalid access token: ${err.message}`,
      `${REALM}, error="invalid_token", error_description="${err.message.replace(/[^\x20-\x7e]|["\\]/g, "'")}"`)
  }

  const authorize = (request: FastifyRequest, principal: Principal): void => {
    request.principal = principal
    const collection = request.routeOptions.config.collection
    const needed = collection === undefined ? undefined : scopeFor(collection, request.method)
    if (needed !== undefined && !principal.scopes.has(needed)) {
      throw new HttpError(403, `The access token lacks the scope ${needed}`, documentation(request, `Requires the scope ${needed}`),
        { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${needed}"` })
    }
  }

  // A callback hook: a token verified before is accepted without waiting for a promise, which is
  // what nearly every request carries.
  fastify.decorate('requireToken', function requireToken (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    const header = request.headers.authorization
    const bearer = header === undefined ? null : /^Bearer +([^ ]*) *$/i.exec(header)
    if (bearer === null) throw unauthenticated(request, 'A bearer access token is required', REALM)
    const token = bearer[1] as string
    let known: Principal | undefined
    try {
      known = tokens.cached(token)
    } catch (err) {
      throw refusal(request, err)
    }
    if (known !== undefined) {
      authorize(request, known)
      return done()
    }
    tokens.verify(token)
      .then(principal => authorize(request, principal))
      .then(() => done(), err => done(refusal(request, err) as Error))
  })
}, { name: 'oauth', dependencies: ['sqlite'] })
