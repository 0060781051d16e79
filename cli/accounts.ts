import { parseArgs } from 'node:util'
import { changeClientClaims, changeClientScope, changeUserClaims, createClient, createUser, rotateClientSecret } from '../auth/accounts.ts'
import { claimsOf, parseClaims, type Claims } from '../auth/claims.ts'
import { SigningKeys } from '../auth/keys.ts'
import { scopesOf } from '../auth/scopes.ts'
import { SETTINGS } from '../config/index.ts'
import { RESOURCES } from '../schemas/index.ts'
import { openStorage } from '../store/open.ts'
import type { Storage } from '../store/storage.ts'
import { cliDataDir, failed, UsageError, type CliIo } from './io.ts'

/** The first words of the commands that manage clients, users and signing keys. */
export const ACCOUNT_COMMANDS = ['client', 'user', 'key']

const usage = (scopes: string[]): string => `usage: zoo-api <command> [options]   (npm run cli -- <command> in a clone; prints JSON;
                                      DATABASE_URL, else DATA_DIR or --data-dir, picks the database)
  client create --scope "${scopes.slice(0, 2).join(' ')} ..." [--name NAME] [--id ID] [--secret SECRET] [--claim NAME=VALUE ...]
  client list
  client rotate-secret CLIENT_ID [--secret SECRET]   a new secret; the client's tokens issued before stop working
  client scope CLIENT_ID --scope "..."               the scopes it may be granted; its tokens issued before stop working
  client claims CLIENT_ID [--claim NAME=VALUE ...]   replaces the claims its own tokens carry; its tokens issued before stop working
  client delete CLIENT_ID       its tokens stop working at once
  user create --username NAME --scope "..." (--password PASSWORD | --password-stdin) [--claim NAME=VALUE ...]
  user list
  user claims NAME [--claim NAME=VALUE ...]          replaces the claims the user's tokens carry; its tokens issued before stop working
  user delete NAME              the user's tokens stop working at once
  key list                      the keys that sign access tokens, newest (signing) first
  key rotate                    a new signing key; keys replaced more than ACCESS_TOKEN_TTL ago are deleted
scopes: ${scopes.join(' ')}
claims: each VALUE is JSON (--claim zoo_id=1, --claim zoos=[1,2]), or else text; access rules read them (docs/access-rules.md)`

/** An account's kept claims as a list shows them: only when it has some. */
function claimsListed (kept: string): { claims?: Claims } {
  const claims = claimsOf(kept)
  return Object.keys(claims).length === 0 ? {} : { claims }
}

/**
 * Manages the authorization server's clients and users. Answers JSON on stdout so that
 * scripts can use it; a failure is `{"error": ...}` on stderr, exit 1 (2 for a usage error).
 * Secrets are printed once, when made, and stored only as hashes (auth/secrets.ts).
 */
export async function runAccountCommand (argv: string[], io: CliIo): Promise<number> {
  const collections = io.collections ?? { resources: RESOURCES }
  const scopes = scopesOf(collections.resources)
  let storage: Storage | undefined
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        scope: { type: 'string' },
        name: { type: 'string' },
        id: { type: 'string' },
        secret: { type: 'string' },
        username: { type: 'string' },
        password: { type: 'string' },
        'password-stdin': { type: 'boolean' },
        claim: { type: 'string', multiple: true },
        help: { type: 'boolean' }
      }
    })
    if (values.help === true) {
      io.stdout(`${usage(scopes)}\n`)
      return 0
    }
    const [noun, verb, target, ...extra] = positionals
    if (extra.length > 0 || noun === undefined || verb === undefined) throw new UsageError('expected a command such as "client create"')
    const dataDir = cliDataDir(values['data-dir'], io.env)
    /** A setting the CLI takes from the environment only, as the service would read it. */
    const fromEnv = <K extends 'databaseUrl' | 'databasePoolSize' | 'databaseStatementTimeout'>(key: K) =>
      SETTINGS[key].parse(io.env[SETTINGS[key].env] ?? SETTINGS[key].default, SETTINGS[key].env) as ReturnType<typeof SETTINGS[K]['parse']>
    storage = await openStorage({
      dataDir,
      databaseUrl: fromEnv('databaseUrl'),
      databasePoolSize: fromEnv('databasePoolSize'),
      databaseStatementTimeout: fromEnv('databaseStatementTimeout')
    }, collections)
    const store = storage.accounts
    const required = (name: 'scope' | 'username'): string => {
      const value = values[name]
      if (value === undefined) throw new UsageError(`${noun} ${verb} needs --${name}`)
      return value
    }
    const named = (what: string): string => {
      if (target === undefined) throw new UsageError(`${noun} ${verb} needs the ${what}`)
      return target
    }
    let result: unknown
    switch (`${noun} ${verb}`) {
      case 'client create':
        result = await createClient(store, scopes,
          {
            scope: required('scope'), name: values.name, clientId: values.id, secret: values.secret, claims: parseClaims(values.claim ?? [])
          })
        break
      case 'client list':
        result = (await store.clients()).map(({ secret_hash: secretHash, generation: _generation, claims, ...client }) =>
          ({ ...client, ...claimsListed(claims), public: secretHash === null }))
        break
      case 'client rotate-secret':
        result = await rotateClientSecret(store, named('client id'), values.secret)
        break
      case 'client scope':
        result = await changeClientScope(store, scopes, named('client id'), required('scope'))
        break
      case 'client claims':
        result = await changeClientClaims(store, named('client id'), parseClaims(values.claim ?? []))
        break
      case 'client delete':
        if (!await store.deleteClient(named('client id'))) throw new Error(`no client with id ${target}`)
        result = { deleted: target }
        break
      case 'user create': {
        const password = values['password-stdin'] === true ? (await io.stdin()).replace(/\r?\n$/, '') : values.password
        if (password === undefined) throw new UsageError('user create needs --password or --password-stdin')
        const claims = parseClaims(values.claim ?? [])
        result = await createUser(store, scopes, { username: required('username'), password, scope: required('scope'), claims })
        break
      }
      case 'user list':
        result = (await store.users()).map(({ password_hash: _hash, generation: _generation, claims, ...user }) =>
          ({ ...user, ...claimsListed(claims) }))
        break
      case 'user claims':
        result = await changeUserClaims(store, named('user name'), parseClaims(values.claim ?? []))
        break
      case 'user delete':
        if (!await store.deleteUser(named('user name'))) throw new Error(`no user named ${target}`)
        result = { deleted: target }
        break
      case 'key list':
        result = (await storage.signingKeys.all()).map(({ kid, created_at: createdAt }) => ({ kid, created_at: createdAt }))
        break
      case 'key rotate': {
        const keys = await SigningKeys.open(storage.signingKeys, storage.engine === 'sqlite' ? dataDir : undefined)
        const ttl = SETTINGS.accessTokenTtl.parse(io.env.ACCESS_TOKEN_TTL ?? SETTINGS.accessTokenTtl.default, 'ACCESS_TOKEN_TTL')
        result = { kid: (await keys.rotate(ttl)).kid }
        break
      }
      default:
        throw new UsageError(`unknown command "${noun} ${verb}"`)
    }
    io.stdout(`${JSON.stringify(result)}\n`)
    return 0
  } catch (err) {
    return failed(err, usage(scopes), io)
  } finally {
    await storage?.close()
  }
}
