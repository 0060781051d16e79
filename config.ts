import { realpathSync, statSync } from 'node:fs'
import { isIP } from 'node:net'
import { delimiter, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isLoopback } from './http/host.ts'

/** A setting that cannot be used: start-up stops with this one line. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

interface Setting<T> {
  /** Environment variable; the CLI flag is the same name in lower case with dashes (`--data-dir`). */
  env: string
  description: string
  default: string
  parse: (raw: string, env: string) => T
}

/**
 * A setting that holds several values: the environment variable separates them with the
 * platform's path delimiter (`:`, or `;` on Windows); the CLI flag is repeated, one value each
 * time, so a value may contain the delimiter. Flags given at all replace the variable.
 */
interface ListSetting<T> {
  env: string
  flag: string
  description: string
  default: string
  parse: (items: string[], source: string) => T
}

/** A directory the local tool server may list. */
export interface AllowedDirectory {
  /** Absolute and normalized, letter case as configured: requested paths are compared with it. */
  readonly path: string
  /** With symbolic links resolved at start-up: a requested path's real path must lie within it. */
  readonly realPath: string
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

function port (raw: string, env: string): number {
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value > 65535) {
    throw new ConfigError(`${env} must be a port number from 0 to 65535, got "${raw}"`)
  }
  return value
}

function host (raw: string, env: string): string {
  if (raw.trim() === '' || /\s/.test(raw)) {
    throw new ConfigError(`${env} must be a host name or IP address, got "${raw}"`)
  }
  return raw
}

function pathPrefix (raw: string, env: string): string {
  if (raw === '' || raw === '/') return ''
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(raw)) {
    throw new ConfigError(`${env} must be empty or a path such as /api (` +
      `segments of letters, digits, . _ ~ -, no trailing slash), got "${raw}"`)
  }
  return raw
}

function directory (raw: string, env: string): string {
  if (raw.trim() === '') throw new ConfigError(`${env} must name a directory`)
  return resolve(raw)
}

function apiKey (raw: string, env: string): string | undefined {
  if (raw === '') return undefined
  // The key travels as an RFC 6750 bearer token; a short one could be guessed over loopback.
  if (!/^[A-Za-z0-9._~+/-]{16,}=*$/.test(raw)) {
    throw new ConfigError(`${env} must be at least 16 characters of letters, digits and - . _ ~ + /`)
  }
  return raw
}

function fileSystemProblem (err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT': case 'ENOTDIR': return 'does not exist'
    case 'EACCES': case 'EPERM': return 'cannot be reached (permission denied)'
    case 'ELOOP': return 'cannot be resolved (symbolic link loop)'
    default: return `cannot be used (${(err as Error).message})`
  }
}

function allowedDirectories (items: string[], source: string): AllowedDirectory[] {
  const dirs = new Map<string, AllowedDirectory>()
  for (const item of items) {
    // An empty entry would mean the working directory, which nobody means to expose.
    if (item === '') throw new ConfigError(`${source}: empty entry; separate directories with "${delimiter}"`)
    const path = resolve(item)
    let realPath: string
    try {
      if (!statSync(path).isDirectory()) throw new ConfigError(`${source}: ${item} is not a directory`)
      realPath = realpathSync.native(path)
    } catch (err) {
      if (err instanceof ConfigError) throw err
      throw new ConfigError(`${source}: ${item} ${fileSystemProblem(err)}`)
    }
    if (!dirs.has(path)) dirs.set(path, { path, realPath })
  }
  return [...dirs.values()]
}

/** Empty means "not set". */
const optional = <T>(parse: (raw: string, env: string) => T) => (raw: string, env: string): T | undefined =>
  raw === '' ? undefined : parse(raw, env)

function url (raw: string, env: string): string {
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(`${env} must be an absolute http(s) URL, got "${raw}"`)
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || raw.endsWith('/') || parsed.search !== '' || parsed.hash !== '') {
    throw new ConfigError(`${env} must be an absolute http(s) URL without query, fragment or trailing slash, got "${raw}"`)
  }
  return raw
}

/**
 * An external server's URL, kept as given: an issuer is compared exactly with the `iss` of its
 * tokens, and some end with a slash (Auth0's). Plain HTTP only on loopback: keys or identities
 * fetched in the clear could be swapped on the way.
 */
function secureUrl (raw: string, env: string): string {
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(`${env} must be an absolute https URL, got "${raw}"`)
  }
  const secure = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed.hostname))
  if (!secure || parsed.search !== '' || parsed.hash !== '') {
    throw new ConfigError(`${env} must be an absolute https URL (http only on loopback) without query or fragment, got "${raw}"`)
  }
  return raw
}

function providerName (raw: string, env: string): string {
  // It names a path segment (/login/<name>) and a client id (login-<name>).
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(raw)) {
    throw new ConfigError(`${env} must be 1 to 40 lower-case letters, digits and -, starting with a letter, got "${raw}"`)
  }
  return raw
}

/**
 * Scopes as `<collection>:read` or `<collection>:write`, space-separated. Whether each names a
 * collection served is checked when the service starts (routes/login), which knows them.
 */
function userScope (raw: string, env: string): string {
  const scopes = raw.split(' ').filter(s => s !== '')
  const malformed = scopes.filter(s => !/^[^\s:]+:(read|write)$/.test(s))
  if (malformed.length > 0) throw new ConfigError(`${env}: ${malformed.join(', ')} is not <collection>:read or <collection>:write`)
  if (scopes.length === 0) throw new ConfigError(`${env} must name at least one scope`)
  return [...new Set(scopes)].join(' ')
}

/** A whole number from `min` to `max`, said in `unit` (`bytes`, `seconds`, ...). */
const integer = (min: number, max: number, unit: string) => (raw: string, env: string): number => {
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${env} must be a number of ${unit} from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

/** A PostgreSQL connection URL: `postgres://` or `postgresql://`, with a host and a database. */
function databaseUrl (raw: string, env: string): string {
  let parsed: URL | undefined
  try {
    parsed = new URL(raw)
  } catch {}
  if (parsed === undefined || !['postgres:', 'postgresql:'].includes(parsed.protocol) || parsed.hostname === '' ||
    parsed.pathname.length < 2) {
    throw new ConfigError(`${env} must be a PostgreSQL URL such as postgres://user:password@host:5432/database, got "${
      raw.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@')}"`)
  }
  return raw
}

function redisUrl (raw: string, env: string): string {
  let parsed: URL | undefined
  try {
    parsed = new URL(raw)
  } catch {}
  if (parsed === undefined || !['redis:', 'rediss:'].includes(parsed.protocol) || parsed.hostname === '') {
    throw new ConfigError(`${env} must be a Redis URL such as redis://127.0.0.1:6379, got "${raw.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@')}"`)
  }
  return raw
}

function logFormat (raw: string, env: string): 'auto' | 'json' | 'pretty' {
  if (raw !== 'auto' && raw !== 'json' && raw !== 'pretty') {
    throw new ConfigError(`${env} must be "auto" (readable on a terminal, JSON otherwise), "json" or "pretty", got "${raw}"`)
  }
  return raw
}

function readableFile (raw: string, env: string): string {
  const path = resolve(raw)
  try {
    if (!statSync(path).isFile()) throw new ConfigError(`${env}: ${raw} is not a file`)
  } catch (err) {
    if (err instanceof ConfigError) throw err
    throw new ConfigError(`${env}: ${raw} ${fileSystemProblem(err)}`)
  }
  return path
}

function tlsMode (raw: string, env: string): 'on' | 'proxy' {
  if (raw !== 'on' && raw !== 'proxy') {
    throw new ConfigError(`${env} must be "on" (HTTPS, the default) or "proxy" (plain HTTP behind a TLS-terminating proxy), got "${raw}"`)
  }
  return raw
}

function clientId (raw: string, env: string): string {
  if (!/^[A-Za-z0-9._~-]{3,100}$/.test(raw)) throw new ConfigError(`${env} must be 3 to 100 characters of letters, digits and - . _ ~`)
  return raw
}

function secret (raw: string, env: string): string {
  if (raw.length < 16) throw new ConfigError(`${env} must have at least 16 characters`)
  return raw
}

/**
 * The proxies trusted to say who the client is: how many stand in front of the API, or their
 * addresses and networks. Never "everyone": the client writes the first X-Forwarded-For entries.
 */
function proxies (raw: string, env: string): number | readonly string[] {
  if (/^\d+$/.test(raw.trim())) {
    const hops = Number(raw.trim())
    if (hops < 1 || hops > 10) throw new ConfigError(`${env} must be a number of proxies from 1 to 10, or their addresses; got "${raw}"`)
    return hops
  }
  const list = raw.split(',').map(entry => entry.trim()).filter(entry => entry !== '')
  for (const entry of list) {
    const [address = '', prefix, more] = entry.split('/')
    const family = isIP(address)
    const bits = family === 4 ? 32 : 128
    if (family === 0 || more !== undefined || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))) {
      throw new ConfigError(`${env}: "${entry}" is neither a number of proxies nor an address or network such as 10.0.0.0/8 or ::1`)
    }
  }
  if (list.length === 0) throw new ConfigError(`${env} names no proxy`)
  return list
}

function count (raw: string, env: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new ConfigError(`${env} must be a whole number, got "${raw}"`)
  return Number(raw)
}

/** `*`, or a comma-separated list of exact origins such as `https://app.example.com`. */
function origins (raw: string, env: string): '*' | readonly string[] {
  if (raw.trim() === '*') return '*'
  const list = raw.split(',').map(o => o.trim()).filter(o => o !== '')
  for (const origin of list) {
    let parsed: URL | undefined
    try {
      parsed = new URL(origin)
    } catch {}
    if (parsed === undefined || parsed.origin !== origin) {
      throw new ConfigError(`${env}: "${origin}" is not an origin such as https://app.example.com (` +
        'scheme, host, optional port, nothing more)')
    }
  }
  return list
}

function logLevel (raw: string, env: string): typeof LOG_LEVELS[number] {
  const level = LOG_LEVELS.find(l => l === raw)
  if (level === undefined) throw new ConfigError(`${env} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`)
  return level
}

/** Every setting of the service, with its default: docs/configuration.md is generated from it (npm run docs). */
export const SETTINGS = {
  host: { env: 'HOST', description: 'address the API listens on', default: '127.0.0.1', parse: host },
  port: { env: 'PORT', description: 'port the API listens on', default: '8443', parse: port },
  dataDir: {
    env: 'DATA_DIR',
    description: 'directory of the SQLite database `zoo.db`, the token signing key and the self-signed certificate (`tls/`); ' +
      'created if missing',
    default: './data',
    parse: directory
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    description: 'a PostgreSQL database (`postgres://user:password@host:5432/database`, libpq parameters such as `sslmode` and ' +
      '`options` allowed) to keep everything in instead of SQLite in DATA_DIR: several instances may then share it',
    default: '',
    parse: optional(databaseUrl)
  },
  redisUrl: {
    env: 'REDIS_URL',
    description: 'a Redis server (`redis://host:6379`, `rediss://` for TLS) that keeps the rate-limit counters, so that every ' +
      'instance counts a client\'s requests to all of them; without it each instance counts its own',
    default: '',
    parse: optional(redisUrl)
  },
  databasePoolSize: {
    env: 'DATABASE_POOL_SIZE',
    description: 'connections each instance keeps open to DATABASE_URL at most',
    default: '10',
    parse: integer(1, 1000, 'connections')
  },
  databaseStatementTimeout: {
    env: 'DATABASE_STATEMENT_TIMEOUT',
    description: 'milliseconds a statement may run on DATABASE_URL before PostgreSQL cancels it (the request then answers 500)',
    default: '10000',
    parse: integer(100, 600000, 'milliseconds')
  },
  unpackDir: {
    env: 'UNPACK_DIR',
    description: 'single binary only: the folder it unpacks what must be on disk into (the SQLite addon, the documentation ' +
      'UI); created 0700, it must be this user\'s alone and on a file system that allows executing code. Default `DATA_DIR/unpacked`',
    default: '',
    parse: optional(directory)
  },
  apiPrefix: {
    env: 'API_PREFIX',
    description: 'path prefix the whole API is mounted under, such as `/api`; hrefs and the documentation include it',
    default: '',
    parse: pathPrefix
  },
  logLevel: {
    env: 'LOG_LEVEL',
    description: 'pino log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
    default: 'info',
    parse: logLevel
  },
  logFormat: {
    env: 'LOG_FORMAT',
    description: '`auto`: readable lines when standard output is a terminal, JSON lines otherwise; `json`; or `pretty`',
    default: 'auto',
    parse: logFormat
  },
  shutdownTimeout: {
    env: 'SHUTDOWN_TIMEOUT',
    description: 'seconds a stop (SIGTERM, SIGINT) may take to finish the requests and the job in progress before the process ' +
      'exits anyway, with status 1; a second signal exits at once',
    default: '10',
    parse: integer(1, 600, 'seconds')
  },
  bodyLimit: {
    env: 'BODY_LIMIT',
    description: 'largest request body accepted, in bytes; a larger one is answered 413',
    default: '1048576',
    parse: integer(1024, 104857600, 'bytes')
  },
  headersTimeout: {
    env: 'HEADERS_TIMEOUT',
    description: 'seconds an HTTP/1.1 client has to send the headers of a request before its connection is closed',
    default: '10',
    parse: integer(1, 600, 'seconds')
  },
  requestTimeout: {
    env: 'REQUEST_TIMEOUT',
    description: 'seconds an HTTP/1.1 client has to send a whole request, body included, before it is answered 408 and its ' +
      'connection closed',
    default: '30',
    parse: integer(1, 3600, 'seconds')
  },
  keepAliveTimeout: {
    env: 'KEEP_ALIVE_TIMEOUT',
    description: 'seconds an idle connection (HTTP/1.1 keep-alive, or an HTTP/2 session) stays open; longer than the idle ' +
      'timeout of a load balancer in front, so that the balancer closes first',
    default: '72',
    parse: integer(1, 3600, 'seconds')
  },
  maxHeaderSize: {
    env: 'MAX_HEADER_SIZE',
    description: 'largest header block of a request, in bytes (HTTP/1.1 answers 431 beyond it; HTTP/2 refuses the stream)',
    default: '16384',
    parse: integer(1024, 1048576, 'bytes')
  },
  http2MaxStreams: {
    env: 'HTTP2_MAX_STREAMS',
    description: 'requests one HTTP/2 connection may have in flight at once',
    default: '100',
    parse: integer(1, 10000, 'streams')
  },
  maxEventLoopDelay: {
    env: 'MAX_EVENT_LOOP_DELAY',
    description: 'milliseconds of event-loop delay beyond which the API answers 503 with `Retry-After` (overloaded) until it ' +
      'recovers; `0` turns the check off. `/health` always answers',
    default: '1000',
    parse: integer(0, 60000, 'milliseconds')
  },
  trustProxy: {
    env: 'TRUST_PROXY',
    description: 'with TLS=proxy, the proxies trusted to say the client address in `X-Forwarded-For` (what the rate limit ' +
      'counts): how many stand in front of the API (`1`: the address is the one the proxy the API hears from saw), or ' +
      'their addresses and networks, comma-separated (`10.0.0.0/8, 127.0.0.1`)',
    default: '1',
    parse: proxies
  },
  rateLimit: {
    env: 'RATE_LIMIT',
    description: 'requests a minute one client address may make (429 beyond, with `Retry-After`); `0` turns the limit off',
    default: '1200',
    parse: count
  },
  corsOrigins: {
    env: 'CORS_ORIGINS',
    description: 'browser origins allowed to call the API (CORS), comma-separated (`https://app.example.com`), or `*`; preflights ' +
      'are answered before the bearer check',
    default: '',
    parse: origins
  },
  localHost: {
    env: 'LOCAL_HOST',
    description: 'address the local tool server listens on (plain HTTP); anything but `localhost`, 127.0.0.0/8 or `::1` also needs ' +
      'LOCAL_API_KEY, else start-up stops',
    default: '127.0.0.1',
    parse: host
  },
  localPort: { env: 'LOCAL_PORT', description: 'port the local tool server listens on', default: '8000', parse: port },
  localApiKey: {
    env: 'LOCAL_API_KEY',
    description: 'when set, both operations of the local tool server need `Authorization: Bearer <key>`; at least 16 characters ' +
      'among letters, digits and `- . _ ~ + /` (`=` padding allowed)',
    default: '',
    parse: apiKey
  },
  allowedDirs: {
    env: 'ALLOWED_DIRS',
    flag: 'allow',
    description: 'directories the local tool server may list, separated by `:` (`;` on Windows), made absolute; each must exist ' +
      'and be a directory. The `--allow` flags, one directory each, replace the variable',
    default: '',
    parse: allowedDirectories
  },
  tls: {
    env: 'TLS',
    description: '`on`: the API serves HTTPS only (HTTP/2, and HTTP/1.1 through ALPN); `proxy`: plain HTTP behind a ' +
      'TLS-terminating proxy, refusing requests whose `X-Forwarded-Proto` is not `https`',
    default: 'on',
    parse: tlsMode
  },
  tlsCert: {
    env: 'TLS_CERT',
    description: 'PEM certificate file (leaf first, then the chain); without it and TLS_KEY, a self-signed certificate is made in ' +
      '`DATA_DIR/tls/`',
    default: '',
    parse: optional(readableFile)
  },
  tlsKey: {
    env: 'TLS_KEY',
    description: 'PEM private key file of TLS_CERT, unencrypted; set both or neither',
    default: '',
    parse: optional(readableFile)
  },
  httpRedirectPort: {
    env: 'HTTP_REDIRECT_PORT',
    description: 'when set, a plain-HTTP listener on this port (same HOST) answers every request with 308 to the `https://` URL',
    default: '',
    parse: optional(port)
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    description: 'the URL clients use to reach the API: the `iss` of its tokens and the base of the OAuth metadata; when not set, ' +
      '`https://localhost:PORT` plus API_PREFIX. Set it behind a proxy or on another host name',
    default: '',
    parse: optional(url)
  },
  accessTokenTtl: {
    env: 'ACCESS_TOKEN_TTL',
    description: 'access-token lifetime in seconds, 30 to 86400',
    default: '900',
    parse: integer(30, 86400, 'seconds')
  },
  refreshTokenTtl: {
    env: 'REFRESH_TOKEN_TTL',
    description: 'refresh-token lifetime in seconds, 60 to 31536000 (each rotation starts it again)',
    default: '2592000',
    parse: integer(60, 31536000, 'seconds')
  },
  bootstrapClientId: {
    env: 'BOOTSTRAP_CLIENT_ID',
    description: 'id of the client with every scope that a fresh data directory gets (3 to 100 characters among letters, digits ' +
      'and `- . _ ~`); generated when not set',
    default: '',
    parse: optional(clientId)
  },
  bootstrapClientSecret: {
    env: 'BOOTSTRAP_CLIENT_SECRET',
    description: 'its secret, 16 characters or more; when not set, generated and printed once at first start',
    default: '',
    parse: optional(secret)
  },
  oauthIssuer: {
    env: 'OAUTH_ISSUER',
    description: 'an external authorization server (Keycloak, Auth0, Entra ID, ...) whose JWT access tokens the API also accepts: ' +
      'exactly the `iss` of its tokens, trailing slash included when it has one. Needs OAUTH_JWKS_URI and ' +
      'OAUTH_AUDIENCE',
    default: '',
    parse: optional(secureUrl)
  },
  oauthJwksUri: {
    env: 'OAUTH_JWKS_URI',
    description: 'where the external issuer publishes its public keys (its metadata\'s `jwks_uri`); fetched and cached',
    default: '',
    parse: optional(secureUrl)
  },
  oauthAudience: {
    env: 'OAUTH_AUDIENCE',
    description: 'the `aud` the external tokens must carry to be accepted here',
    default: '',
    parse: optional((raw: string) => raw)
  },
  loginProvider: {
    env: 'LOGIN_PROVIDER',
    description: 'a short name (lower-case letters, digits and `-`) for the OpenID Connect provider users sign in with at ' +
      '`/login/<name>`; needs LOGIN_ISSUER, LOGIN_CLIENT_ID and LOGIN_CLIENT_SECRET',
    default: '',
    parse: optional(providerName)
  },
  loginIssuer: {
    env: 'LOGIN_ISSUER',
    description: 'the provider\'s issuer URL, exactly as its ID tokens say; its endpoints are read from ' +
      '`<issuer>/.well-known/openid-configuration` at start-up',
    default: '',
    parse: optional(secureUrl)
  },
  loginClientId: {
    env: 'LOGIN_CLIENT_ID',
    description: 'this API\'s client id at the provider',
    default: '',
    parse: optional((raw: string) => raw)
  },
  loginClientSecret: {
    env: 'LOGIN_CLIENT_SECRET',
    description: 'this API\'s client secret at the provider',
    default: '',
    parse: optional((raw: string) => raw)
  },
  loginUserScope: {
    env: 'LOGIN_USER_SCOPE',
    description: 'the API scopes a user gets when first signing in; when not set, the read scope of every collection',
    default: '',
    parse: optional(userScope)
  }
} satisfies Record<string, Setting<unknown> | ListSetting<unknown>>

type Settings = typeof SETTINGS
type Parsed = { readonly [K in keyof Settings]: ReturnType<Settings[K]['parse']> }
/** The settings as the service uses them; `publicUrl` and `unpackDir` always have a value once loaded. */
export type Config = Omit<Parsed, 'publicUrl' | 'unpackDir'> & { readonly publicUrl: string, readonly unpackDir: string }

/** UNPACK_DIR as given (`raw`), else its default under the data directory. */
export const unpackDirOf = (dataDir: string, raw: string | undefined): string =>
  SETTINGS.unpackDir.parse(raw ?? '', 'UNPACK_DIR') ?? join(dataDir, 'unpacked')

const flagOf = (setting: Setting<unknown> | ListSetting<unknown>): string =>
  'flag' in setting ? setting.flag : setting.env.toLowerCase().replaceAll('_', '-')

/** `text` in lines of at most `width` characters after `indent`, broken between words. */
function wrap (text: string, width: number, indent: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(indent + line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  return [...lines, indent + line]
}

/** `--help`: how to run the program, and every setting with its variable, flag and default. */
export function usage (): string {
  const settings = Object.values(SETTINGS) as (Setting<unknown> | ListSetting<unknown>)[]
  const lines = settings.flatMap(setting => {
    const flag = 'flag' in setting ? `--${setting.flag} DIR (repeatable)` : `--${flagOf(setting)}`
    const fallback = setting.default === '' ? 'not set' : setting.default
    // Descriptions are written for the Markdown table of docs/configuration.md: backquotes go.
    return [`  ${setting.env}, ${flag}  (default: ${fallback})`, ...wrap(setting.description.replaceAll('`', ''), 94, '      ')]
  })
  return [
    'usage: zoo-api [--setting value ...]   serve the API (HTTPS) and the local tool server',
    '       zoo-api client|user ...         manage the clients and users of the authorization server (zoo-api client --help)',
    '       zoo-api --help | --version',
    '',
    'Every setting is an environment variable or the flag after it; a flag wins.',
    '',
    ...lines,
    ''
  ].join('\n')
}

/**
 * Reads every setting from CLI flags (which win) or the environment, else its default.
 * Throws ConfigError naming the first bad setting or flag.
 */
export function loadConfig (env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv.slice(2)): Config {
  const settings = Object.entries(SETTINGS) as [string, Setting<unknown> | ListSetting<unknown>][]
  const options = Object.fromEntries(settings.map(([, s]) => [flagOf(s), { type: 'string' as const, multiple: 'flag' in s }]))
  let flags: Record<string, string | boolean | (string | boolean)[] | undefined>
  try {
    flags = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values
  } catch (err) {
    throw new ConfigError((err as Error).message)
  }
  const config: Record<string, unknown> = {}
  const sources: Record<string, string> = {}
  for (const [key, setting] of settings) {
    const flag = flags[flagOf(setting)]
    const fromFlag = flag !== undefined
    const source = sources[key] = fromFlag ? `--${flagOf(setting)}` : setting.env
    if ('flag' in setting) {
      const raw = env[setting.env] ?? setting.default
      config[key] = setting.parse(Array.isArray(flag) ? flag.map(String) : raw === '' ? [] : raw.split(delimiter), source)
    } else {
      config[key] = setting.parse(typeof flag === 'string' ? flag : env[setting.env] ?? setting.default, source)
    }
  }
  const loaded = config as Mutable<Config>
  if (!isLoopback(loaded.localHost) && loaded.localApiKey === undefined) {
    throw new ConfigError(`${sources.localHost}: ${loaded.localHost} is not a loopback address; ` +
      'the local tool server would be open to the network without LOCAL_API_KEY')
  }
  const together = (keys: (keyof Config)[]) => {
    const set = keys.filter(k => loaded[k] !== undefined)
    if (set.length > 0 && set.length < keys.length) {
      throw new ConfigError(`${keys.map(k => sources[k]).join(', ')} go together: ` +
        `${keys.filter(k => loaded[k] === undefined).map(k => sources[k]).join(', ')} missing`)
    }
  }
  together(['tlsCert', 'tlsKey'])
  if (loaded.tls === 'proxy') {
    // Behind a proxy the certificate and the redirect to https:// are the proxy's business.
    const unused = (['tlsCert', 'httpRedirectPort'] as const).find(k => loaded[k] !== undefined)
    if (unused !== undefined) {
      throw new ConfigError(`${sources[unused]} is not used with ${sources.tls}=proxy: ` +
        'the TLS-terminating proxy holds the certificate and redirects http:// itself')
    }
  }
  if (loaded.httpRedirectPort !== undefined && loaded.httpRedirectPort !== 0 && loaded.httpRedirectPort === loaded.port) {
    throw new ConfigError(`${sources.httpRedirectPort} must differ from ${sources.port} (${loaded.port}): ` +
      'the redirect listener is plain HTTP')
  }
  if (loaded.headersTimeout > loaded.requestTimeout) {
    throw new ConfigError(`${sources.headersTimeout} (${loaded.headersTimeout}) must not exceed ${sources.requestTimeout} ` +
      `(${loaded.requestTimeout}): the headers are part of the request`)
  }
  together(['oauthIssuer', 'oauthJwksUri', 'oauthAudience'])
  together(['loginProvider', 'loginIssuer', 'loginClientId', 'loginClientSecret'])
  loaded.publicUrl ??= `https://localhost${loaded.port === 443 ? '' : `:${loaded.port}`}${loaded.apiPrefix}`
  loaded.unpackDir ??= join(loaded.dataDir, 'unpacked')
  return loaded as Config
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
