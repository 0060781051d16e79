import { randomUUID } from 'node:crypto'
import {
  createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, jwtVerify, SignJWT,
  type JWTPayload, type JWTVerifyGetKey
} from 'jose'
import type { SigningKey } from './keys.js'

/** Who a verified access token speaks for, and what it may do. */
export interface Principal {
  subject: string
  clientId: string
  scopes: ReadonlySet<string>
  issuer: string
  jti: string | undefined
  /** Milliseconds since the epoch. */
  expiresAt: number
}

export interface ExternalIssuer {
  issuer: string
  jwksUri: string
  audience: string
}

export interface TokenSettings {
  issuer: string
  audience: string
  /** Access-token lifetime in seconds. */
  ttl: number
  external: ExternalIssuer | undefined
}

/** Why a token was refused; the message becomes `error_description`. */
export class TokenError extends Error {
  override name = 'TokenError'
}

const CACHE_SIZE = 10_000
const OWN_ALGORITHMS = ['ES256']
// Never HS* (a public key used as an HMAC secret) nor "none".
const EXTERNAL_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']

function describe (err: unknown): TokenError {
  if (err instanceof TokenError) return err
  if (err instanceof errors.JWTExpired) return new TokenError('the access token expired')
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new TokenError('the access token is not valid yet')
    if (err.claim === 'typ') return new TokenError('the token is not an access token (typ must be at+jwt)')
    return new TokenError(`the access token has a wrong or missing "${err.claim}" claim`)
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) return new TokenError('the access token is signed with an algorithm this API does not accept')
  if (err instanceof errors.JWKSNoMatchingKey) return new TokenError('the access token is signed with an unknown key')
  if (err instanceof errors.JWSSignatureVerificationFailed) return new TokenError('the access token signature is invalid')
  return new TokenError('the access token is malformed')
}

/**
 * Issues the API's access tokens (RFC 9068 JWTs, ES256) and verifies them, and, when configured,
 * those of an external issuer. A verified token is cached until it expires, so verification is
 * not paid on every request; a revoked one is refused even from the cache.
 */
export class TokenService {
  readonly #cache = new Map<string, Principal>()
  readonly #revoked: Set<string>
  readonly #ownKeys: JWTVerifyGetKey
  readonly #externalKeys: JWTVerifyGetKey | undefined

  constructor (readonly key: SigningKey, readonly settings: TokenSettings, revoked: Iterable<string>) {
    this.#revoked = new Set(revoked)
    this.#ownKeys = createLocalJWKSet({ keys: [key.publicJwk] })
    this.#externalKeys = settings.external === undefined ? undefined : createRemoteJWKSet(new URL(settings.external.jwksUri))
  }

  async issue (grant: { subject: string, clientId: string, scope: string }): Promise<{ token: string, expiresIn: number }> {
    const token = await new SignJWT({ client_id: grant.clientId, scope: grant.scope })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: this.key.kid })
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.audience)
      .setSubject(grant.subject)
      .setIssuedAt()
      .setExpirationTime(`${this.settings.ttl}s`)
      .setJti(randomUUID())
      .sign(this.key.privateKey)
    return { token, expiresIn: this.settings.ttl }
  }

  async verify (token: string): Promise<Principal> {
    const cached = this.#cache.get(token)
    if (cached !== undefined && cached.expiresAt > Date.now()) {
      if (cached.jti !== undefined && this.#revoked.has(cached.jti)) throw new TokenError('the access token was revoked')
      return cached
    }
    this.#cache.delete(token)
    const principal = await this.#verifyUncached(token)
    if (principal.jti !== undefined && this.#revoked.has(principal.jti)) throw new TokenError('the access token was revoked')
    if (this.#cache.size >= CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string)
    this.#cache.set(token, principal)
    return principal
  }

  /** One of this API's own tokens, verified whether or not it has expired: what revocation needs. */
  async ownToken (token: string): Promise<Principal | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#ownKeys, {
        issuer: this.settings.issuer, algorithms: OWN_ALGORITHMS, typ: 'at+jwt', currentDate: new Date(0)
      })
      return principalOf(payload)
    } catch {
      return undefined
    }
  }

  revoke (jti: string): void {
    this.#revoked.add(jti)
  }

  async #verifyUncached (token: string): Promise<Principal> {
    try {
      const external = this.settings.external
      if (external !== undefined && this.#externalKeys !== undefined && decodeJwt(token).iss === external.issuer) {
        const { payload } = await jwtVerify(token, this.#externalKeys, {
          issuer: external.issuer, audience: external.audience, algorithms: EXTERNAL_ALGORITHMS, requiredClaims: ['exp', 'sub']
        })
        return principalOf(payload)
      }
      const { payload } = await jwtVerify(token, this.#ownKeys, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: OWN_ALGORITHMS,
        typ: 'at+jwt',
        requiredClaims: ['exp', 'iat', 'sub', 'jti', 'client_id']
      })
      return principalOf(payload)
    } catch (err) {
      throw describe(err)
    }
  }
}

/** Scopes come as `scope` (RFC 9068, space-separated) or `scp` (an array, as some issuers send). */
function principalOf (payload: JWTPayload): Principal {
  const scope = typeof payload.scope === 'string'
    ? payload.scope.split(' ')
    : Array.isArray(payload.scp) ? payload.scp.map(String) : []
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : ''
  return {
    subject: String(payload.sub),
    clientId,
    scopes: new Set(scope.filter(s => s !== '')),
    issuer: String(payload.iss),
    jti: payload.jti,
    expiresAt: (payload.exp ?? 0) * 1000
  }
}
