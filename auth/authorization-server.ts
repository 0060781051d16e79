import { randomUUID } from 'node:crypto'
import type { AccountStore, Client, RefreshToken, User } from '../store/storage.ts'
import { FailedAttempts } from './attempts.ts'
import { claimsOf, keptClaims } from './claims.ts'
import { digest, hashSecret, HashingBusy, keptSecret, randomToken, verifySecret } from './secrets.ts'
import { knownScope, parseScope } from './scopes.ts'
import type { TokenService } from './tokens.ts'

/** The challenge of a client whose HTTP Basic credentials failed (RFC 7617). */
export const BASIC_CHALLENGE = 'Basic realm="zoo-api", charset="UTF-8"'

/** An RFC 6749 error answer: `error` is the RFC code, `error_description` says why. */
export class OAuthError extends Error {
  override name = 'OAuthError'
  readonly statusCode: number
  readonly code: string
  readonly headers: Record<string, string>

  constructor (
    statusCode: number,
    code: string,
    description: string,
    headers: Record<string, string> = {}
  ) {
    super(description)
    this.statusCode = statusCode
    this.code = code
    this.headers = headers
  }
}

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  scope: string
  refresh_token?: string
}

export interface ClientCredentials {
  /** The client's address, whose failed attempts are counted (auth/attempts.ts). */
  address: string
  /** The Authorization header, if any. */
  authorization: string | undefined
  client_id?: string | undefined
  client_secret?: string | undefined
}

export type TokenRequest = ClientCredentials & {
  grant_type?: string
  scope?: string
  username?: string
  password?: string
  refresh_token?: string
}

// Verifying against these when the client or user does not exist costs the same time as a real
// check, so timing does not tell which user names exist, nor which client ids beyond those whose
// secret was chosen (scrypt) rather than generated (a digest).
const DECOY_PASSWORD = hashSecret(randomToken())
const DECOY_CLIENT_SECRET = keptSecret(randomToken(), 'generated')

const invalidGrant = (why: string): OAuthError => new OAuthError(401, 'invalid_grant', why)

/** No client id or user name holds U+0000 (the CLI refuses it, PostgreSQL's text cannot): one that does names nobody. */
const storable = (name: string): boolean => !name.includes('\u0000')

/**
 * The built-in authorization server: client authentication, the client_credentials,
 * password and refresh_token grants with rotation and reuse detection, and revocation (RFC 7009).
 */
export class AuthorizationServer {
  readonly #failures = new FailedAttempts()

  readonly store: AccountStore
  readonly tokens: TokenService
  /** Refresh-token lifetime in seconds. */
  readonly refreshTtl: number
  /** The scopes there are: those of the collections served (auth/scopes.ts). */
  readonly scopes: readonly string[]

  constructor (
    store: AccountStore,
    tokens: TokenService,
    refreshTtl: number,
    scopes: readonly string[]
  ) {
    this.store = store
    this.tokens = tokens
    this.refreshTtl = refreshTtl
    this.scopes = scopes
  }

  /**
   * Whether `secret` matches, counted as an attempt of each of `keys`: refused unchecked (429)
   * while one of them is locked by earlier failures, and 503 when too many are being hashed.
   */
  async #attempt (keys: readonly string[], secret: string, stored: string): Promise<boolean> {
    const wait = this.#failures.lockedFor(keys)
    if (wait > 0) {
      throw new OAuthError(429, 'invalid_request', `too many failed attempts; retry in ${wait} s`, { 'Retry-After': String(wait) })
    }
    let valid: boolean
    try {
      valid = await verifySecret(secret, stored)
    } catch (err) {
      if (!(err instanceof HashingBusy)) throw err
      throw new OAuthError(503, 'temporarily_unavailable', `${err.message}; retry in 1 s`, { 'Retry-After': '1' })
    }
    if (valid) this.#failures.succeeded(keys.filter(key => !key.startsWith('address:')))
    else this.#failures.failed(keys)
    return valid
  }

  /** RFC 6749 §2.3.1: HTTP Basic or client_id/client_secret in the body, not both. */
  async authenticateClient (credentials: ClientCredentials): Promise<Client> {
    const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(credentials.authorization ?? '')
    let id: string | undefined
    let secret: string | undefined
    if (basic !== null) {
      if (credentials.client_secret !== undefined) {
        throw new OAuthError(400, 'invalid_request', 'authenticate the client by HTTP Basic or by client_secret, not both')
      }
      const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      try {
        id = decodeURIComponent(decoded.slice(0, colon === -1 ? undefined : colon))
        secret = colon === -1 ? undefined : decodeURIComponent(decoded.slice(colon + 1))
      } catch {
        id = undefined
      }
    } else {
      id = credentials.client_id
      secret = credentials.client_secret
    }
    const challenge: Record<string, string> = basic !== null ? { 'WWW-Authenticate': BASIC_CHALLENGE } : {}
    if (id === undefined || secret === undefined) {
      throw new OAuthError(401, 'invalid_client', 'client authentication is required: HTTP Basic or client_id and client_secret', challenge)
    }
    const client = storable(id) ? await this.store.client(id) : undefined
    const valid = await this.#attempt([`address:${credentials.address}`, `client:${id}`], secret,
      client?.secret_hash ?? await DECOY_CLIENT_SECRET)
    if (client === undefined || !valid) throw new OAuthError(401, 'invalid_client', 'unknown client or wrong client secret', challenge)
    return client
  }

  /** RFC 6749 §2.1: a public client names itself and has no secret; it may only refresh and revoke. */
  async #publicClient (credentials: ClientCredentials): Promise<Client | undefined> {
    if (
      credentials.authorization !== undefined ||
      credentials.client_secret !== undefined ||
      credentials.client_id === undefined
    ) return undefined
    const client = storable(credentials.client_id) ? await this.store.client(credentials.client_id) : undefined
    return client?.secret_hash === null ? client : undefined
  }

  async token (request: TokenRequest): Promise<TokenResponse> {
    if (request.grant_type === undefined) throw new OAuthError(400, 'invalid_request', 'grant_type is required')
    if (!['client_credentials', 'password', 'refresh_token'].includes(request.grant_type)) {
      throw new OAuthError(
        400,
        'unsupported_grant_type',
        `grant_type must be client_credentials, password or refresh_token, got "${request.grant_type}"`
      )
    }
    const publicClient = await this.#publicClient(request)
    if (publicClient !== undefined && request.grant_type !== 'refresh_token') {
      throw new OAuthError(400, 'unauthorized_client', 'a public client may only use the refresh_token grant')
    }
    const client = publicClient ?? await this.authenticateClient(request)
    switch (request.grant_type) {
      case 'client_credentials':
        return this.#respond({ subject: client.client_id, client, scope: grant(request.scope, client.scope.split(' ')), user: undefined })
      case 'password':
        return this.#password(client, request)
      default:
        return this.#refresh(client, request)
    }
  }

  async #password (client: Client, request: TokenRequest): Promise<TokenResponse> {
    if (request.username === undefined || request.password === undefined) {
      throw new OAuthError(400, 'invalid_request', 'the password grant needs username and password')
    }
    const user = storable(request.username) ? await this.store.user(request.username) : undefined
    const valid = await this.#attempt([`address:${request.address}`, `user:${request.username.toLowerCase()}`], request.password,
      user?.password_hash ?? await DECOY_PASSWORD)
    if (user === undefined || user.password_hash === null || !valid) throw invalidGrant('unknown user name or wrong password')
    return this.issueForUser(client, user, request.scope)
  }

  /** Tokens for a user through a client: access and refresh, the scope both allow. */
  async issueForUser (client: Client, user: User, requested: string | undefined): Promise<TokenResponse> {
    const allowed = user.scope.split(' ').filter(s => client.scope.split(' ').includes(s))
    const scope = grant(requested, allowed)
    return this.#respond({ subject: `user:${user.id}`, client, scope, user, refresh: { userId: user.id, familyId: randomUUID() } })
  }

  async #refresh (client: Client, request: TokenRequest): Promise<TokenResponse> {
    if (request.refresh_token === undefined) throw new OAuthError(400, 'invalid_request', 'the refresh_token grant needs refresh_token')
    const stored = await this.store.refreshToken(digest(request.refresh_token))
    if (stored === undefined || stored.client_id !== client.client_id) throw invalidGrant('unknown refresh token')
    if (stored.revoked_at !== null) throw invalidGrant('the refresh token was revoked')
    if (stored.rotated_at !== null) throw await this.#reused(stored)
    if (stored.expires_at <= new Date().toISOString()) throw invalidGrant('the refresh token expired')
    const scope = grant(request.scope, stored.scope.split(' '))
    const user = stored.user_id === null ? undefined : await this.store.userById(stored.user_id)
    if (stored.user_id !== null && user === undefined) throw invalidGrant('the user of the refresh token no longer exists')
    return this.#respond({
      subject: stored.user_id === null ? client.client_id : `user:${stored.user_id}`,
      client,
      scope,
      user,
      refresh: { userId: stored.user_id, familyId: stored.family_id, replaces: stored }
    })
  }

  /** A rotated token used again: it leaked, or its successor did. The whole grant ends. */
  async #reused (stored: RefreshToken): Promise<OAuthError> {
    await this.store.revokeFamily(stored.family_id)
    return invalidGrant('the refresh token was already used; every token of its grant is now revoked')
  }

  /**
   * Tokens for a grant: a user's carry its claims and generation, a client's own its claims
   * (auth/claims.ts).
   */
  async #respond (issue: {
    subject: string
    client: Client
    scope: string[]
    user: User | undefined
    refresh?: { userId: number | null, familyId: string, replaces?: RefreshToken }
  }): Promise<TokenResponse> {
    const scope = issue.scope.join(' ')
    let refreshToken: string | undefined
    if (issue.refresh !== undefined) {
      refreshToken = randomToken()
      const next = {
        token_hash: digest(refreshToken),
        family_id: issue.refresh.familyId,
        client_id: issue.client.client_id,
        user_id: issue.refresh.userId,
        scope,
        expires_at: new Date(Date.now() + this.refreshTtl * 1000).toISOString()
      }
      const { replaces } = issue.refresh
      if (replaces === undefined) await this.store.saveRefreshToken(next)
      // Claimed before anything is signed: of two requests with one token, the second finds it
      // used, however close together they came, and is treated as the reuse it is.
      else if (!await this.store.rotate(replaces.token_hash, next)) throw await this.#reused(replaces)
    }
    const { user, client } = issue
    const { token, expiresIn } = await this.tokens.issue({
      subject: issue.subject,
      clientId: client.client_id,
      clientGeneration: client.generation,
      userGeneration: user?.generation ?? '',
      claims: claimsOf(user?.claims ?? client.claims),
      scope
    })
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: expiresIn,
      scope,
      ...(refreshToken === undefined ? {} : { refresh_token: refreshToken })
    }
  }

  /**
   * RFC 7009: a refresh token ends its whole grant; an access token is refused from now until it
   * expires. A token that is unknown, or another client's, is answered the same (200) and kept.
   */
  async revoke (request: ClientCredentials & { token?: string }): Promise<void> {
    const client = await this.#publicClient(request) ?? await this.authenticateClient(request)
    if (request.token === undefined) throw new OAuthError(400, 'invalid_request', 'token is required')
    const refresh = await this.store.refreshToken(digest(request.token))
    if (refresh !== undefined) {
      if (refresh.client_id === client.client_id) await this.store.revokeFamily(refresh.family_id)
      return
    }
    const access = await this.tokens.ownToken(request.token)
    if (access?.jti !== undefined && access.clientId === client.client_id && access.expiresAt > Date.now()) {
      await this.store.revokeAccessToken(access.jti, new Date(access.expiresAt))
    }
  }

  /**
   * A client without a secret, made once per sign-in provider: its users' tokens are issued to it.
   * Two first sign-ins at once may both try to make it: the one whose insert fails finds it made.
   */
  async publicClient (clientId: string, scope: string): Promise<Client> {
    const known = await this.store.client(clientId)
    if (known !== undefined) return known
    try {
      const granted = knownScope(scope, this.scopes)
      return await this.store.createClient({
        client_id: clientId, secret_hash: null, name: clientId, scope: granted, claims: keptClaims({})
      })
    } catch (err) {
      const made = await this.store.client(clientId)
      if (made === undefined) throw err
      return made
    }
  }
}

/** The scopes to grant: the requested ones if all are allowed, else all allowed when none asked. */
function grant (requested: string | undefined, allowed: string[]): string[] {
  const asked = parseScope(requested)
  if (asked === undefined) {
    if (allowed.length === 0) throw new OAuthError(400, 'invalid_scope', 'no scope can be granted')
    return allowed
  }
  const refused = asked.filter(s => !allowed.includes(s))
  if (refused.length > 0 || asked.length === 0) {
    throw new OAuthError(400, 'invalid_scope', `scope not granted: ${refused.join(' ') || '(empty)'}`)
  }
  return [...new Set(asked)]
}
