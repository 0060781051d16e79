// The parsers of the settings (config/settings.ts): each takes the raw text and the name of where it
// came from (variable or flag), and returns the value or throws ConfigError naming that source.
import { realpathSync, statSync } from 'node:fs'
import { isIP } from 'node:net'
import { delimiter, resolve } from 'node:path'
import { isLoopback } from '../http/host.ts'

/** A setting that cannot be used: start-up stops with this one line. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** A URL setting as a message may name it: without its password. */
export function redacted (url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(not a URL)'
  }
}

/** A directory the local tool server may list. */
export interface AllowedDirectory {
  /** Absolute and normalized, letter case as configured: requested paths are compared with it. */
  readonly path: string
  /** With symbolic links resolved at start-up: a requested path's real path must lie within it. */
  readonly realPath: string
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

export function port (raw: string, env: string): number {
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value > 65535) {
    throw new ConfigError(`${env} must be a port number from 0 to 65535, got "${raw}"`)
  }
  return value
}

export function host (raw: string, env: string): string {
  if (raw.trim() === '' || /\s/.test(raw)) {
    throw new ConfigError(`${env} must be a host name or IP address, got "${raw}"`)
  }
  return raw
}

export function pathPrefix (raw: string, env: string): string {
  if (raw === '' || raw === '/') return ''
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(raw)) {
    throw new ConfigError(`${env} must be empty or a path such as /api (` +
      `segments of letters, digits, . _ ~ -, no trailing slash), got "${raw}"`)
  }
  return raw
}

export function directory (raw: string, env: string): string {
  if (raw.trim() === '') throw new ConfigError(`${env} must name a directory`)
  return resolve(raw)
}

export function apiKey (raw: string, env: string): string | undefined {
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

export function allowedDirectories (items: string[], source: string): AllowedDirectory[] {
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
export const optional = <T>(parse: (raw: string, env: string) => T) => (raw: string, env: string): T | undefined =>
  raw === '' ? undefined : parse(raw, env)

/**
 * The service's URL, its tokens' issuer: no query and no fragment (RFC 8414 §2), the text checked
 * for `#` since `new URL('https://a#').hash` is empty.
 */
export function url (raw: string, env: string): string {
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(`${env} must be an absolute http(s) URL, got "${raw}"`)
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || raw.endsWith('/') || parsed.search !== '' || raw.includes('#')) {
    throw new ConfigError(`${env} must be an absolute http(s) URL without query, fragment or trailing slash, got "${raw}"`)
  }
  return raw
}

/**
 * An OpenTelemetry collector's URL: as `url`, but a trailing slash is allowed, as the
 * specification allows it; `base`, the endpoint that paths are added to, loses it.
 */
export const collectorUrl = (base: boolean) => (raw: string, env: string): string => {
  const bare = url(raw.replace(/\/+$/, ''), env)
  return base ? bare : raw
}

/**
 * An external server's URL, kept as given: an issuer is compared exactly with the `iss` of its
 * tokens, and some end with a slash (Auth0's). Plain HTTP only on loopback: keys or identities
 * fetched in the clear could be swapped on the way.
 */
export function secureUrl (raw: string, env: string): string {
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(`${env} must be an absolute https URL, got "${raw}"`)
  }
  const secure = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed.hostname))
  if (!secure || parsed.search !== '' || raw.includes('#')) {
    throw new ConfigError(`${env} must be an absolute https URL (http only on loopback) without query or fragment, got "${raw}"`)
  }
  return raw
}

export function providerName (raw: string, env: string): string {
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
export function userScope (raw: string, env: string): string {
  const scopes = raw.split(' ').filter(s => s !== '')
  const malformed = scopes.filter(s => !/^[^\s:]+:(read|write)$/.test(s))
  if (malformed.length > 0) throw new ConfigError(`${env}: ${malformed.join(', ')} is not <collection>:read or <collection>:write`)
  if (scopes.length === 0) throw new ConfigError(`${env} must name at least one scope`)
  return [...new Set(scopes)].join(' ')
}

/** A whole number from `min` to `max`, said in `unit` (`bytes`, `seconds`, ...). */
export const integer = (min: number, max: number, unit: string) => (raw: string, env: string): number => {
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${env} must be a number of ${unit} from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

/** A number of seconds from `min` to `max`, decimals allowed (`0.5`). */
export const seconds = (min: number, max: number) => (raw: string, env: string): number => {
  const value = Number(raw)
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${env} must be a number of seconds from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

/**
 * The URL of a server the service connects to, with one of `schemes` and a host (and a path
 * beyond `/` when `needsPath`: a database name). Its password is masked in the error.
 */
const serverUrl = (name: string, example: string, schemes: string[], needsPath = false) => (raw: string, env: string): string => {
  let parsed: URL | undefined
  try {
    parsed = new URL(raw)
  } catch {}
  if (parsed === undefined || !schemes.includes(parsed.protocol) || parsed.hostname === '' || (needsPath && parsed.pathname.length < 2)) {
    throw new ConfigError(`${env} must be a ${name} URL such as ${example}, got "${raw.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@')}"`)
  }
  return raw
}

/** A PostgreSQL connection URL: `postgres://` or `postgresql://`, with a host and a database. */
export const databaseUrl = serverUrl('PostgreSQL', 'postgres://user:password@host:5432/database', ['postgres:', 'postgresql:'], true)

export const redisUrl = serverUrl('Redis', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])

export function logFormat (raw: string, env: string): 'auto' | 'json' | 'pretty' {
  if (raw !== 'auto' && raw !== 'json' && raw !== 'pretty') {
    throw new ConfigError(`${env} must be "auto" (readable on a terminal, JSON otherwise), "json" or "pretty", got "${raw}"`)
  }
  return raw
}

export function readableFile (raw: string, env: string): string {
  const path = resolve(raw)
  try {
    if (!statSync(path).isFile()) throw new ConfigError(`${env}: ${raw} is not a file`)
  } catch (err) {
    if (err instanceof ConfigError) throw err
    throw new ConfigError(`${env}: ${raw} ${fileSystemProblem(err)}`)
  }
  return path
}

export function tlsMode (raw: string, env: string): 'on' | 'proxy' {
  if (raw !== 'on' && raw !== 'proxy') {
    throw new ConfigError(`${env} must be "on" (HTTPS, the default) or "proxy" (plain HTTP behind a TLS-terminating proxy), got "${raw}"`)
  }
  return raw
}

export function clientId (raw: string, env: string): string {
  if (!/^[A-Za-z0-9._~-]{3,100}$/.test(raw)) throw new ConfigError(`${env} must be 3 to 100 characters of letters, digits and - . _ ~`)
  return raw
}

export function secret (raw: string, env: string): string {
  if (raw.length < 16) throw new ConfigError(`${env} must have at least 16 characters`)
  return raw
}

/**
 * The proxies trusted to say who the client is: how many stand in front of the API, or their
 * addresses and networks. Never "everyone": the client writes the first X-Forwarded-For entries.
 */
export function proxies (raw: string, env: string): number | readonly string[] {
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

export function count (raw: string, env: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new ConfigError(`${env} must be a whole number, got "${raw}"`)
  return Number(raw)
}

/** `*`, or a comma-separated list of exact origins such as `https://app.example.com`. */
export function origins (raw: string, env: string): '*' | readonly string[] {
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

export function logLevel (raw: string, env: string): typeof LOG_LEVELS[number] {
  const level = LOG_LEVELS.find(l => l === raw)
  if (level === undefined) throw new ConfigError(`${env} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`)
  return level
}

/** Seconds to wait before each retry, comma-separated (`5,300,1800`): at least one, each from 0.1 to a day. */
export function webhookRetries (raw: string, env: string): number[] {
  const waits = raw.split(',').map(text => text.trim())
  if (waits.some(text => !/^\d+(\.\d+)?$/.test(text) || Number(text) < 0.1 || Number(text) > 86400)) {
    throw new ConfigError(`${env} must be seconds from 0.1 to 86400, comma-separated (5,300,1800), got "${raw}"`)
  }
  return waits.map(Number)
}

/** Host names and CIDR ranges, comma-separated; what isIP cannot read as an address range is taken as a host name. */
export function webhookHosts (raw: string, env: string): { names: string[], ranges: [string, number][] } {
  const names: string[] = []
  const ranges: [string, number][] = []
  for (const item of raw.split(',').map(text => text.trim().toLowerCase()).filter(text => text !== '')) {
    const [address, bits, ...rest] = item.split('/')
    const family = isIP(address as string)
    if (family === 0) {
      if (bits !== undefined || !/^[a-z0-9.-]+$/.test(item)) {
        throw new ConfigError(`${env}: "${item}" is neither a host name nor a CIDR range`)
      }
      names.push(item)
      continue
    }
    const size = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits)
    if (rest.length > 0 || !Number.isInteger(size) || size < 0 || size > (family === 4 ? 32 : 128)) {
      throw new ConfigError(`${env}: "${item}" is not a CIDR range (an address, then / and a prefix length)`)
    }
    ranges.push([address as string, size])
  }
  return { names, ranges }
}
