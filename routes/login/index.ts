import type { OAuth2Namespace } from '@fastify/oauth2'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose'
import { keptClaims } from '../../auth/claims.ts'
import { knownScope, readScopesOf, scopesOf } from '../../auth/scopes.ts'
import { discover, freeUsername, split } from '../../auth/sign-in.ts'
import { EXTERNAL_ALGORITHMS } from '../../auth/tokens.ts'
import { noStore } from '../../http/cache-control.ts'
import { ConfigError } from '../../config/index.ts'
import { HttpError, notFoundHandler } from '../../http/errors.ts'
import { prefersPage, sendPage, signInPage } from '../../http/pages.ts'
import { ErrorSchema } from '../../schemas/common.ts'
import { errors } from '../../schemas/responses.ts'
import { TokenSchema } from '../../schemas/token.ts'
import type { AccountStore, User } from '../../store/storage.ts'

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String())
}, { additionalProperties: true, description: 'What the provider sends back (RFC 6749 §4.1.2); some add members of their own' })

/** The answer of a token endpoint that refused (@hapi/wreck's error, through simple-oauth2). */
interface ProviderRefusal {
  output?: { statusCode: number }
  data?: { isResponseError?: boolean, payload?: { error?: unknown } }
}

/**
 * Sign-in through an external OpenID provider, when LOGIN_PROVIDER is set:
 * `GET /login/<provider>` sends the browser to the provider (authorization code, PKCE S256, state
 * in a cookie), and the callback exchanges the code, verifies the ID token, finds or creates the
 * local user of that identity, and answers with API tokens issued to the public client
 * `login-<provider>`, which can refresh them without a secret.
 */
const login: FastifyPluginAsyncTypebox = async (fastify) => {
  const { config } = fastify
  const { loginProvider: provider, loginIssuer: issuer, loginClientId: clientId, loginClientSecret: clientSecret } = config
  fastify.get('/', {
    config: { page: true },
    // A page for people, not an operation: programs get what they got before there was one, a 404.
    schema: { hide: true, response: { 200: { content: { 'text/html': { schema: { type: 'string' } } } }, 404: ErrorSchema } }
  }, async (request, reply) =>
    prefersPage(request, reply) ? sendPage(request, reply, signInPage(request)) : notFoundHandler(request, reply))
  if (provider === undefined || issuer === undefined || clientId === undefined || clientSecret === undefined) return
  const scopes = scopesOf(fastify.collections.resources)
  /** What a user gets at the first sign-in: LOGIN_USER_SCOPE, each a scope of a collection served, or every read scope. */
  let userScope: string
  try {
    userScope = config.loginUserScope === undefined
      ? readScopesOf(fastify.collections.resources).join(' ')
      : knownScope(config.loginUserScope, scopes)
  } catch (err) {
    throw new ConfigError(`LOGIN_USER_SCOPE: ${(err as Error).message}`)
  }
  const metadata = await discover(issuer)
  const authorize = split(metadata.authorization_endpoint)
  const token = split(metadata.token_endpoint)
  // Loaded only with a provider configured: an instance without one is spared its start-up cost.
  const { default: oauth2 } = await import('@fastify/oauth2')
  await fastify.register(oauth2, {
    name: 'signIn',
    scope: ['openid', 'profile', 'email'],
    credentials: {
      client: { id: clientId, secret: clientSecret },
      auth: { authorizeHost: authorize.host, authorizePath: authorize.path, tokenHost: token.host, tokenPath: token.path }
    },
    callbackUri: `${config.publicUrl}/login/${provider}/callback`,
    pkce: 'S256',
    // A __Host- cookie can be set only by this host over HTTPS, so a sibling subdomain cannot
    // plant a state and verifier of its own (login CSRF). The API is served over HTTPS only.
    hostPrefixedCookies: true
  })
  const signIn = fastify.oauth2SignIn as OAuth2Namespace
  const providerKeys = createRemoteJWKSet(new URL(metadata.jwks_uri))
  const restart = `start again at ${config.apiPrefix}/login/${provider}`

  /** The code exchanged for the provider's tokens; the state and verifier cookies are cleared. */
  async function exchange (request: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
    try {
      const { token } = await signIn.getAccessTokenFromAuthorizationCodeFlow(request, reply)
      return token.id_token
    } catch (err) {
      // @fastify/oauth2's own message when the state is not the one its cookie holds.
      if ((err as Error).message === 'Invalid state') {
        throw new HttpError(403, `The sign-in state does not match the one this browser was given: ${restart}`)
      }
      const refusal = err as ProviderRefusal
      if (refusal.data?.isResponseError === true && Number(refusal.output?.statusCode) < 500) {
        const code = refusal.data.payload?.error
        throw new HttpError(403, `${provider} refused the authorization code${typeof code === 'string' ? ` (${code})` : ''}: ${restart}`)
      }
      request.log.error({ err }, 'sign-in: the provider\'s token endpoint failed')
      throw new HttpError(502, `${provider} could not be reached to finish the sign-in`)
    }
  }

  /** OpenID Connect Core §3.1.3.7: the ID token is the provider's word on who signed in. */
  async function identify (request: FastifyRequest, idToken: string | undefined): Promise<JWTPayload & { iss: string, sub: string }> {
    if (idToken === undefined) throw new HttpError(502, `${provider} sent no ID token: it must be an OpenID Connect provider`)
    try {
      const { payload } = await jwtVerify<{ iss: string, sub: string }>(idToken, providerKeys, {
        issuer, audience: clientId, algorithms: EXTERNAL_ALGORITHMS, requiredClaims: ['iss', 'sub', 'exp', 'iat']
      })
      return payload
    } catch (err) {
      request.log.error({ err }, 'sign-in: the ID token was refused')
      throw new HttpError(502, `${provider} sent an ID token that does not verify`)
    }
  }

  /**
   * The local user of an external identity, made at its first sign-in under a free name. Another
   * request (on this instance or another) may take the name, or make this identity's user, between
   * the look and the insert: the insert then fails, and the look is made again.
   */
  async function localUser (store: AccountStore, claims: JWTPayload & { iss: string, sub: string }): Promise<User> {
    for (let attempt = 1; ; attempt++) {
      const known = await store.externalUser(claims.iss, claims.sub)
      if (known !== undefined) return known
      try {
        return await store.createUser({
          username: await freeUsername(store, claims, `${provider}-${claims.sub}`),
          password_hash: null,
          scope: userScope,
          external_issuer: claims.iss,
          external_subject: claims.sub,
          claims: keptClaims({})
        })
      } catch (err) {
        if (attempt === 3) throw err
      }
    }
  }

  fastify.get(`/${provider}`, {
    schema: {
      operationId: 'startSignIn',
      summary: `Sign in through ${provider}: redirects to its authorization endpoint`,
      description: 'For a browser: authorization code flow with PKCE (S256) and state, kept in cookies until the callback.',
      tags: ['oauth'],
      response: {
        302: Type.Null({
          description: 'Location: the provider\'s authorization endpoint, with state and a PKCE S256 challenge; ' +
            'both are kept in cookies for the callback'
        }),
        ...errors()
      }
    }
  }, async (request, reply) => reply.redirect(await signIn.generateAuthorizationUri(request, reply)))

  fastify.get(`/${provider}/callback`, {
    schema: {
      operationId: 'finishSignIn',
      summary: `Where ${provider} sends the browser back: answers with API tokens for the signed-in user`,
      description: 'Exchanges the code, verifies the ID token, ' +
        'and finds or creates the local user of that identity (with LOGIN_USER_SCOPE at first sign-in).',
      tags: ['oauth'],
      querystring: CallbackQuery,
      response: { 200: { ...TokenSchema, description: 'The tokens of the signed-in user' }, ...errors(400, 403, 502) }
    }
  }, async (request, reply) => {
    const query = request.query
    if (query.error !== undefined) {
      const detail = query.error_description === undefined ? '' : `: ${query.error_description}`
      throw new HttpError(403, `${provider} refused the sign-in (${query.error}${detail}): ${restart}`)
    }
    if (query.code === undefined || query.state === undefined) {
      throw new HttpError(400, `The sign-in callback needs code and state: ${restart}`)
    }
    const claims = await identify(request, await exchange(request, reply))
    const { authorizationServer } = fastify.oauth
    const user = await localUser(fastify.storage.accounts, claims)
    const client = await authorizationServer.publicClient(`login-${provider}`, scopes.join(' '))
    return noStore(reply).send(await authorizationServer.issueForUser(client, user, undefined))
  })
}

export default login
