import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { JWTPayload } from 'jose'
import type { AccountStore } from '../store/storage.ts'

const ProviderMetadataSchema = (issuer: string) => Type.Object({
  issuer: Type.Literal(issuer),
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  jwks_uri: Type.String()
})
export type ProviderMetadata = Static<ReturnType<typeof ProviderMetadataSchema>>

/**
 * OpenID Connect Discovery 1.0 §4: the provider's endpoints, read once at start-up. A document
 * that names another issuer is not this provider's (§4.3).
 */
export async function discover (issuer: string): Promise<ProviderMetadata> {
  const where = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
  let metadata: unknown
  try {
    const response = await fetch(where, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(10_000) })
    if (!response.ok) throw new Error(`HTTP status ${response.status}`)
    metadata = await response.json()
  } catch (err) {
    throw new Error(`LOGIN_ISSUER: the provider's metadata cannot be read from ${where} (${(err as Error).message})`, { cause: err })
  }
  if (!Value.Check(ProviderMetadataSchema(issuer), metadata)) {
    throw new Error(
      `LOGIN_ISSUER: ${where} is not the OpenID provider metadata of ${issuer}: ` +
      'it must name that issuer and give authorization_endpoint, token_endpoint and jwks_uri'
    )
  }
  return metadata
}

/** simple-oauth2 takes an endpoint as a host and a path. */
export const split = (endpoint: string) => {
  const url = new URL(endpoint)
  return { host: url.origin, path: `${url.pathname}${url.search}` }
}

/** A name for a new user, in the characters the CLI allows, unique among users: `-2`, `-3`... when taken. */
export async function freeUsername (store: AccountStore, claims: JWTPayload, fallback: string): Promise<string> {
  const wanted = [claims.preferred_username, claims.email].find(v => typeof v === 'string' && v !== '') ?? fallback
  const base = String(wanted).replace(/[^A-Za-z0-9._@+-]/g, '-').slice(0, 90)
  let name = base
  for (let n = 2; await store.user(name) !== undefined; n++) name = `${base}-${n}`
  return name
}
