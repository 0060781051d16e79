/*
 * Who an access token speaks for once verified (auth/tokens.ts), and why one is refused.
 */

/** Who a verified access token speaks for, and what it may do. */
export interface Principal {
  /**
   * Who it speaks for: the token's `sub` as it is for our own tokens (`user:<id>`, or a client
   * id), which never hold `#`; an external issuer's as `<issuer>#<sub>` (subjectOf), so that no
   * subject of one issuer is ever equal to one of another, in access rules (`@sub`) or anywhere.
   */
  subject: string
  clientId: string
  scopes: ReadonlySet<string>
  issuer: string
  jti: string | undefined
  /** Milliseconds since the epoch. */
  expiresAt: number
  /** Seconds since the epoch, as `iat` has it. */
  issuedAt: number
  /** The client's generation the token was issued in; '' when the token names none. */
  clientGeneration: string
  /** The generation of the user it speaks for that it was issued in; '' when it names none. */
  userGeneration: string
  /** Every claim of the token, as its payload holds them: what access rules read (`@sub`, `@zoo_id`, model/access.ts). */
  claims: Readonly<Record<string, unknown>>
}

/** Why a token was refused; the message becomes `error_description`. */
export class TokenError extends Error {
  override name = 'TokenError'
  /** Why, in a word the metrics count by: the message says it to the client. */
  readonly reason: TokenRefusal

  constructor (reason: TokenRefusal, message: string) {
    super(message)
    this.reason = reason
  }
}

/**
 * The kinds of refusal: a token that ran out (`expired`) or is not yet valid, one not made for
 * this API (`wrong_claim`), one whose signature does not hold (`bad_signature`), one that is not a
 * token at all (`malformed`), and one taken back since (`revoked`: revoked, or its client or user
 * deleted or changed).
 */
export type TokenRefusal = 'expired' | 'not_yet_valid' | 'wrong_claim' | 'bad_signature' | 'malformed' | 'revoked'

/** The external issuer's keys could not be fetched: its tokens can be neither accepted nor refused. */
export class IssuerUnavailable extends Error {
  override name = 'IssuerUnavailable'
}
