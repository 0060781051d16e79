import { hashSecret, keptSecret, randomToken } from './secrets.ts'
import type { AccountStore, Client } from '../store/storage.ts'
import { keptClaims, type Claims } from './claims.ts'
import { knownScope } from './scopes.ts'

/** What the CLI answers of an account's claims: nothing when it has none. */
const given = (claims: Claims): { claims?: Claims } => Object.keys(claims).length === 0 ? {} : { claims }

/** The scopes there are: those of the collections served (auth/scopes.ts). */
type Known = readonly string[]

/** A new confidential client; the secret is returned once and only its hash is kept. */
export async function createClient (
  store: AccountStore,
  known: Known,
  options: { clientId?: string | undefined, secret?: string | undefined, name?: string | undefined, scope: string, claims?: Claims }
): Promise<{ client_id: string, client_secret: string, scope: string, claims?: Claims }> {
  const scope = knownScope(options.scope, known)
  const clientId = options.clientId ?? `client_${randomToken().slice(0, 16)}`
  // Basic authentication carries it percent-encoded; control characters would still be trouble in logs and PostgreSQL text.
  if (clientId.length < 1 || clientId.length > 200 || /\p{Cc}/u.test(clientId)) {
    throw new Error('the client id must be 1 to 200 printable characters')
  }
  // A client's own tokens have its id as their subject: it must never be a user's, nor an external issuer's (auth/tokens.ts's Principal).
  if (/^user:/.test(clientId) || clientId.includes('#')) {
    throw new Error('the client id must not begin with "user:" nor hold "#": those name the subjects of users and of external issuers')
  }
  const { secret, stored } = await newSecret(options.secret)
  if (await store.client(clientId) !== undefined) throw new Error(`a client with id ${clientId} exists already`)
  const claims = options.claims ?? {}
  await store.createClient({ client_id: clientId, secret_hash: stored, name: options.name ?? clientId, scope, claims: keptClaims(claims) })
  return { client_id: clientId, client_secret: secret, scope, ...given(claims) }
}

async function newSecret (chosen: string | undefined): Promise<{ secret: string, stored: string }> {
  const secret = chosen ?? randomToken()
  return { secret, stored: await keptSecret(secret, chosen === undefined ? 'generated' : 'chosen') }
}

async function existingClient (store: AccountStore, clientId: string): Promise<Client> {
  const client = await store.client(clientId)
  if (client === undefined) throw new Error(`no client with id ${clientId}`)
  return client
}

/** A new secret for a confidential client (generated unless chosen); its tokens issued before stop working. */
export async function rotateClientSecret (
  store: AccountStore,
  clientId: string,
  chosen: string | undefined
): Promise<{ client_id: string, client_secret: string }> {
  const client = await existingClient(store, clientId)
  if (client.secret_hash === null) throw new Error(`client ${clientId} is a public client: it has no secret`)
  const { secret, stored } = await newSecret(chosen)
  if (!await store.changeClient(clientId, { secret_hash: stored })) throw new Error(`no client with id ${clientId}`)
  return { client_id: clientId, client_secret: secret }
}

/** The scopes a client may be granted from now on; its tokens issued before stop working. */
export async function changeClientScope (
  store: AccountStore,
  known: Known,
  clientId: string,
  scope: string
): Promise<{ client_id: string, scope: string }> {
  const granted = knownScope(scope, known)
  await existingClient(store, clientId)
  if (!await store.changeClient(clientId, { scope: granted })) throw new Error(`no client with id ${clientId}`)
  return { client_id: clientId, scope: granted }
}

/** The claims a client's own tokens carry from now on (auth/claims.ts); its tokens issued before stop working. */
export async function changeClientClaims (
  store: AccountStore, clientId: string, claims: Claims
): Promise<{ client_id: string, claims: Claims }> {
  await existingClient(store, clientId)
  if (!await store.changeClient(clientId, { claims: keptClaims(claims) })) throw new Error(`no client with id ${clientId}`)
  return { client_id: clientId, claims }
}

/** The claims a user's tokens carry from now on (auth/claims.ts); its tokens issued before stop working. */
export async function changeUserClaims (
  store: AccountStore, username: string, claims: Claims
): Promise<{ username: string, claims: Claims }> {
  if (!await store.changeUserClaims(username, keptClaims(claims))) throw new Error(`no user named ${username}`)
  return { username, claims }
}

/** A user who signs in with a password (the password grant). */
export async function createUser (
  store: AccountStore,
  known: Known,
  options: { username: string, password: string, scope: string, claims?: Claims }
): Promise<{ id: number, username: string, scope: string, claims?: Claims }> {
  const scope = knownScope(options.scope, known)
  if (!/^[A-Za-z0-9._@+-]{1,100}$/.test(options.username)) {
    throw new Error('the user name must be 1 to 100 characters of letters, digits and . _ @ + -')
  }
  if (options.password.length < 8) throw new Error('the password must have at least 8 characters')
  if (await store.user(options.username) !== undefined) throw new Error(`a user named ${options.username} exists already`)
  const user = await store.createUser({
    username: options.username,
    password_hash: await hashSecret(options.password),
    scope,
    external_issuer: null,
    external_subject: null,
    claims: keptClaims(options.claims ?? {})
  })
  return { id: user.id, username: user.username, scope: user.scope, ...given(options.claims ?? {}) }
}
