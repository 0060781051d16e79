import { randomUUID } from 'node:crypto'
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import type { AccountStore } from '../store/storage.ts'
import type { Claims } from './claims.ts'
import type { SigningKeys } from './keys.ts'
import { IssuerUnavailable, TokenError, type Principal } from './principal.ts'
import { judged, keyOf, PendingStanding, StandingQuestion } from './standing.ts'

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

const CACHE_SIZE = 10_000
const OWN_ALGORITHMS = ['ES256']
/** What an external issuer may sign with: never HS* (a public key used as an HMAC secret) nor "none". */
export const EXTERNAL_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']

/** Why jose refused a token, in words a client can act on. */
function tokenErrorOf (err: unknown): TokenError {
  if (err instanceof errors.JWTExpired) return new TokenError('expired', 'the access token expired')
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new TokenError('not_yet_valid', 'the access token is not valid yet')
    if (err.claim === 'typ') return new TokenError('malformed', 'the token is not an access token (typ must be at+jwt)')
    return new TokenError('wrong_claim', `the access token has a wrong or missing ${err.claim} claim`)
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new TokenError('bad_signature', 'the access token is signed with an algorithm this API does not accept')
  }
  if (err instanceof errors.JWKSNoMatchingKey) return new TokenError('bad_signature', 'the access token is signed with an unknown key')
  if (err instanceof errors.JWSSignatureVerificationFailed) return new TokenError('bad_signature', 'the access token signature is invalid')
  return new TokenError('malformed', 'the access token is malformed')
}

/**
 * A token's key in the cache of verified tokens: its signature, the text after its last dot. A
 * token is hundreds of characters (its claims, its scopes), a new string at each request, which a
 * Map hashed whole at each lookup: 6,700 instructions; keyed by its 86 characters of signature, a
 * one-record read takes 2% fewer (docs/benchmarks.md). The entry keeps the whole token, compared
 * before its principal is used, so a token that carries another's signature is verified as any other.
 */
function cacheKeyOf (token: string): string {
  return token.slice(token.lastIndexOf('.') + 1)
}

/**
 * Issues the API's access tokens (RFC 9068 JWTs, ES256) and verifies them, and, when configured,
 * those of an external issuer. A verified signature is cached until the token expires, so it is
 * not checked on every request; whether one of our tokens still stands (not revoked, its client
 * and user not deleted, the client's secret and scope unchanged since) is asked of the database
 * on every request, since the CLI or another instance may have changed it a moment ago.
 */
export class TokenService {
  /** The tokens verified, by their signature (cacheKeyOf), each with the whole token it was verified as. */
  readonly #cache = new Map<string, { token: string, principal: Principal }>()
  /** How each cached token's standing is asked, and the answer last accepted: kept as long as the token's principal is. */
  readonly #questions = new WeakMap<Principal, StandingQuestion>()
  readonly #external: { issuer: ExternalIssuer, keys: JWTVerifyGetKey } | undefined

  readonly keys: SigningKeys
  readonly settings: TokenSettings
  readonly accounts: AccountStore

  constructor (keys: SigningKeys, settings: TokenSettings, accounts: AccountStore) {
    this.keys = keys
    this.settings = settings
    this.accounts = accounts
    this.#external = settings.external === undefined
      ? undefined
      : { issuer: settings.external, keys: createRemoteJWKSet(new URL(settings.external.jwksUri)) }
  }

  /**
   * An access token for a grant, carrying `claims` (auth/claims.ts: none of its own members).
   * `subjectIssuer`: the external issuer whose subject it speaks for (a job queued by one of its
   * tokens, jobs/replay.ts); such a token stands only while that issuer is accepted.
   */
  async issue (grant: {
    subject: string
    clientId: string
    clientGeneration: string
    userGeneration?: string
    claims?: Claims
    scope: string
    subjectIssuer?: string
  }): Promise<{ token: string, expiresIn: number }> {
    const key = await this.keys.signing()
    const generations = {
      ...(grant.clientGeneration === '' ? {} : { client_generation: grant.clientGeneration }),
      ...(grant.userGeneration === undefined || grant.userGeneration === '' ? {} : { user_generation: grant.userGeneration })
    }
    const subjectIssuer = grant.subjectIssuer === undefined ? {} : { subject_issuer: grant.subjectIssuer }
    const token = await new SignJWT({ ...grant.claims, client_id: grant.clientId, scope: grant.scope, ...generations, ...subjectIssuer })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.audience)
      .setSubject(grant.subject)
      .setIssuedAt()
      .setExpirationTime(`${this.settings.ttl}s`)
      .setJti(randomUUID())
      .sign(key.privateKey)
    return { token, expiresIn: this.settings.ttl }
  }

  /**
   * Who the token speaks for, or a TokenError. Without a promise when it can be: a token verified
   * before, whose standing the database answers at once (SQLite), which is nearly every request.
   */
  check (token: string): Principal | Promise<Principal> {
    const verified = this.verify(token)
    return verified instanceof Promise ? verified.then(principal => this.stands(principal)) : this.stands(verified)
  }

  /**
   * Who the token speaks for, its signature and claims checked (from the cache when it can be),
   * but not yet whether it still stands: `check` asks that too, or `pending` leaves it for later.
   */
  verify (token: string): Principal | Promise<Principal> {
    const key = cacheKeyOf(token)
    const cached = this.#unexpired(token, key)
    if (cached !== undefined) return cached
    return this.#verifyUncached(token).then(principal => {
      if (this.#cache.size >= CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string)
      this.#cache.set(key, { token, principal })
      return principal
    })
  }

  /**
   * Whether one of our tokens still stands, as a question to ask in the request's first
   * statement (store/contract.ts's Alongside); undefined when there is nothing to ask (an
   * external issuer's token). `refusal` makes the answer to send for a token that no longer stands.
   */
  pending (principal: Principal, refusal: (err: TokenError) => unknown): PendingStanding | undefined {
    if (principal.issuer !== this.settings.issuer) return undefined
    let question = this.#questions.get(principal)
    if (question === undefined) this.#questions.set(principal, question = new StandingQuestion(principal, this.accounts))
    return new PendingStanding(question, refusal)
  }

  /** The principal of one of our tokens that still stands; an external issuer's tokens are its own business. */
  stands (principal: Principal): Principal | Promise<Principal> {
    if (principal.issuer !== this.settings.issuer) return principal
    const standing = this.accounts.tokenStanding(keyOf(principal))
    return standing instanceof Promise ? standing.then(known => judged(principal, known)) : judged(principal, standing)
  }

  /** The principal `token` was verified as, unless it has expired; the cache's entry under `key` is another token's when they differ. */
  #unexpired (token: string, key: string): Principal | undefined {
    const cached = this.#cache.get(key)
    if (cached === undefined || cached.token !== token) return undefined
    if (cached.principal.expiresAt > Date.now()) return cached.principal
    this.#cache.delete(key)
    return undefined
  }

  /** One of this API's own tokens, verified whether or not it has expired: what revocation needs. */
  async ownToken (token: string): Promise<Principal | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.keys.verificationKey, {
        issuer: this.settings.issuer, algorithms: OWN_ALGORITHMS, typ: 'at+jwt', currentDate: new Date(0)
      })
      return principalOf(payload)
    } catch {
      return undefined
    }
  }

  async #verifyUncached (token: string): Promise<Principal> {
    let issuer: string | undefined
    try {
      issuer = decodeJwt(token).iss
    } catch (err) {
      throw tokenErrorOf(err)
    }
    // The unverified `iss` only chooses the keys; the verification then checks it.
    if (this.#external !== undefined && issuer === this.#external.issuer.issuer) return this.#verifyExternal(token, this.#external)
    if (issuer !== this.settings.issuer) {
      throw new TokenError('wrong_claim', 'the access token comes from an issuer this API does not accept')
    }
    let payload: JWTPayload
    try {
      payload = (await jwtVerify(token, this.keys.verificationKey, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: OWN_ALGORITHMS,
        typ: 'at+jwt',
        requiredClaims: ['exp', 'iat', 'sub', 'jti', 'client_id']
      })).payload
    } catch (err) {
      throw tokenErrorOf(err)
    }
    return this.#speakingFor(principalOf(payload))
  }

  /**
   * One of our tokens as the principal it speaks for: itself, or, when it names a `subject_issuer`
   * (a job of an external issuer's token), that issuer's subject, while the issuer is accepted.
   */
  #speakingFor (principal: Principal): Principal {
    const subjectIssuer = principal.claims.subject_issuer
    if (subjectIssuer === undefined) return principal
    const accepted = this.#external?.issuer.issuer
    if (accepted === undefined || subjectIssuer !== accepted) {
      throw new TokenError('wrong_claim', 'the access token speaks for an issuer this API no longer accepts')
    }
    return { ...principal, issuer: accepted }
  }

  async #verifyExternal (token: string, external: { issuer: ExternalIssuer, keys: JWTVerifyGetKey }): Promise<Principal> {
    const { issuer, audience, jwksUri } = external.issuer
    try {
      const { payload } = await jwtVerify(token, external.keys, {
        issuer, audience, algorithms: EXTERNAL_ALGORITHMS, requiredClaims: ['exp', 'sub']
      })
      return principalOf({ ...payload, sub: subjectOf(issuer, String(payload.sub)) })
    } catch (err) {
      // What jose throws when the key set cannot be fetched or read: the token is not at fault.
      const keySetFailed = !(err instanceof errors.JOSEError) || err instanceof errors.JWKSTimeout ||
        err instanceof errors.JWKSInvalid || err.code === errors.JOSEError.code
      if (keySetFailed) throw new IssuerUnavailable(`the keys of ${issuer} cannot be fetched from ${jwksUri}`, { cause: err })
      throw tokenErrorOf(err)
    }
  }
}

/** An external issuer's subject, told apart from every other issuer's (Principal.subject). */
export const subjectOf = (issuer: string, sub: string): string => `${issuer}#${sub}`

/**
 * Scopes come as `scope` (RFC 9068, space-separated) or as `scp`, which Okta sends as an array and
 * Microsoft Entra ID as a space-separated string.
 */
function principalOf (payload: JWTPayload): Principal {
  const scope = typeof payload.scope === 'string'
    ? payload.scope.split(' ')
    : Array.isArray(payload.scp) ? payload.scp.map(String) : typeof payload.scp === 'string' ? payload.scp.split(' ') : []
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : ''
  return {
    subject: String(payload.sub),
    clientId,
    scopes: new Set(scope.filter(s => s !== '')),
    issuer: String(payload.iss),
    jti: payload.jti,
    expiresAt: (payload.exp ?? 0) * 1000,
    issuedAt: payload.iat ?? 0,
    clientGeneration: typeof payload.client_generation === 'string' ? payload.client_generation : '',
    userGeneration: typeof payload.user_generation === 'string' ? payload.user_generation : '',
    claims: payload
  }
}
