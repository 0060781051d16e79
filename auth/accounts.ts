import { hashSecret, randomToken } from './secrets.js'
import type { AccountStore } from '../store/storage.js'
import { knownScope } from './scopes.js'

/** A new confidential client; the secret is returned once and only its hash is kept. */
export async function createClient (
  store: AccountStore,
  options: { clientId?: string | undefined, secret?: string | undefined, name?: string | undefined, scope: string }
): Promise<{ client_id: string, client_secret: string, scope: string }> {
  const scope = knownScope(options.scope)
  const clientId = options.clientId ?? `client_${randomToken().slice(0, 16)}`
  const secret = options.secret ?? randomToken()
  if (await store.client(clientId) !== undefined) throw new Error(`a client with id ${clientId} exists already`)
  await store.createClient({ client_id: clientId, secret_hash: await hashSecret(secret), name: options.name ?? clientId, scope })
  return { client_id: clientId, client_secret: secret, scope }
}

/** A user who signs in with a password (the password grant). */
export async function createUser (
  store: AccountStore,
  options: { username: string, password: string, scope: string }
): Promise<{ id: number, username: string, scope: string }> {
  const scope = knownScope(options.scope)
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
    external_subject: null
  })
  return { id: user.id, username: user.username, scope: user.scope }
}
