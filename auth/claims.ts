/*
 * The claims of clients and users: named JSON values their access tokens carry beside the
 * registered ones, which a collection's access rules read (`zoo_id=@zoo_id`, model/access.ts).
 * Kept as a JSON object with the account, given to the CLI as `--claim name=value`.
 */

/** Claims an account cannot be given: those the token's own members already name, which the server sets. */
const RESERVED = new Set([
  'iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti', 'typ', 'client_id', 'scope', 'scp', 'azp', 'cnf', 'act',
  'client_generation', 'user_generation', 'subject_issuer'
])

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/

/** The most text an account's claims may take, as JSON: every token of the account carries them. */
const MAX_CLAIMS_LENGTH = 4096

export type Claims = Record<string, unknown>

/**
 * Claims from `name=value` pairs, each value JSON (`zoo_id=1`, `zoos=[1,2]`, `team="north"`); a
 * value that is not JSON is taken as text. Throws, naming the pair, for a name that is reserved
 * or malformed, or one given twice.
 */
export function parseClaims (pairs: readonly string[]): Claims {
  const claims: Claims = {}
  for (const pair of pairs) {
    const equals = pair.indexOf('=')
    const name = equals < 0 ? pair : pair.slice(0, equals)
    if (equals < 0 || !NAME.test(name)) throw new Error(`--claim ${pair}: a claim is name=value, its name letters, digits and _ . : -`)
    if (RESERVED.has(name)) throw new Error(`--claim ${pair}: ${name} is set by the server itself`)
    if (name in claims) throw new Error(`--claim ${pair}: ${name} is given twice`)
    const text = pair.slice(equals + 1)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      value = text
    }
    claims[name] = value
  }
  if (JSON.stringify(claims).length > MAX_CLAIMS_LENGTH) {
    throw new Error(`the claims take more than ${MAX_CLAIMS_LENGTH} characters as JSON`)
  }
  return claims
}

/** An account's claims as they are kept. */
export const keptClaims = (claims: Claims): string => JSON.stringify(claims)

/** An account's kept claims: an object, whatever was kept. */
export function claimsOf (kept: string): Claims {
  const claims = JSON.parse(kept) as unknown
  return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? claims as Claims : {}
}

/** The claims of a token beyond its own members (those an account's claims cannot name): what a job it queued keeps. */
export function accountClaims (claims: Readonly<Claims>): Claims {
  return Object.fromEntries(Object.entries(claims).filter(([name]) => !RESERVED.has(name)))
}
