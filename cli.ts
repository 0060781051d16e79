import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createClient, createUser } from './auth/accounts.js'
import { SCOPES } from './auth/scopes.js'
import { ConfigError, SETTINGS } from './config.js'
import { OAuthStore } from './store/oauth.js'
import { openDatabase } from './store/sqlite.js'

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url))

const USAGE = `usage: npm run cli -- <command> [options]     (prints JSON; DATA_DIR or --data-dir picks the database)
  client create --scope "zoos:read zoos:write ..." [--name NAME] [--id ID] [--secret SECRET]
  client list
  client delete CLIENT_ID
  user create --username NAME --scope "..." (--password PASSWORD | --password-stdin)
  user list
  user delete NAME
scopes: ${SCOPES.join(' ')}`

class UsageError extends Error {}

export interface CliIo {
  env: NodeJS.ProcessEnv
  stdin: () => Promise<string>
  stdout: (text: string) => void
  stderr: (text: string) => void
}

async function readAll (stream: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += String(chunk)
  return text
}

/**
 * Manages the authorization server's clients and users. Answers JSON on stdout so that
 * scripts can use it; a failure is `{"error": ...}` on stderr, exit 1 (2 for a usage error).
 * Secrets are printed once, at creation, and stored only as scrypt hashes.
 */
export async function runCli (argv: string[], io: CliIo): Promise<number> {
  let db
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
        help: { type: 'boolean' }
      }
    })
    if (values.help === true) {
      io.stdout(`${USAGE}\n`)
      return 0
    }
    const [noun, verb, target, ...extra] = positionals
    if (extra.length > 0 || noun === undefined || verb === undefined) throw new UsageError('expected a command such as "client create"')
    const dataDir = SETTINGS.dataDir.parse(
      values['data-dir'] ?? io.env.DATA_DIR ?? SETTINGS.dataDir.default,
      values['data-dir'] === undefined ? 'DATA_DIR' : '--data-dir'
    )
    db = openDatabase(dataDir, MIGRATIONS)
    const store = new OAuthStore(db)
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
        result = await createClient(store, { scope: required('scope'), name: values.name, clientId: values.id, secret: values.secret })
        break
      case 'client list':
        result = store.clients().map(({ secret_hash: secretHash, ...client }) => ({ ...client, public: secretHash === null }))
        break
      case 'client delete':
        if (!store.deleteClient(named('client id'))) throw new Error(`no client with id ${target}`)
        result = { deleted: target }
        break
      case 'user create': {
        const password = values['password-stdin'] === true ? (await io.stdin()).replace(/\r?\n$/, '') : values.password
        if (password === undefined) throw new UsageError('user create needs --password or --password-stdin')
        result = await createUser(store, { username: required('username'), password, scope: required('scope') })
        break
      }
      case 'user list':
        result = store.users().map(({ password_hash: _hash, ...user }) => user)
        break
      case 'user delete':
        if (!store.deleteUser(named('user name'))) throw new Error(`no user named ${target}`)
        result = { deleted: target }
        break
      default:
        throw new UsageError(`unknown command "${noun} ${verb}"`)
    }
    io.stdout(`${JSON.stringify(result)}\n`)
    return 0
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true
    io.stderr(`${JSON.stringify({ error: (err as Error).message })}\n${usage ? `${USAGE}\n` : ''}`)
    return usage ? 2 : err instanceof ConfigError ? 2 : 1
  } finally {
    db?.close()
  }
}

const invokedDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
if (invokedDirectly) {
  process.exitCode = await runCli(process.argv.slice(2), {
    env: process.env,
    stdin: () => readAll(process.stdin),
    stdout: text => process.stdout.write(text),
    stderr: text => process.stderr.write(text)
  })
}
