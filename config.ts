import { realpathSync, statSync } from 'node:fs'
import { delimiter, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isLoopback } from './local/loopback.js'

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

/** A directory the local tool server may list (SPEC §10). */
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
    throw new ConfigError(`${env} must be empty or a path such as /api (segments of letters, digits, . _ ~ -, no trailing slash), got "${raw}"`)
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

function logLevel (raw: string, env: string): typeof LOG_LEVELS[number] {
  const level = LOG_LEVELS.find(l => l === raw)
  if (level === undefined) throw new ConfigError(`${env} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`)
  return level
}

/** Every setting of the service, with its documented default (README, "Configuration"). */
export const SETTINGS = {
  host: { env: 'HOST', description: 'address the API listens on', default: '127.0.0.1', parse: host },
  port: { env: 'PORT', description: 'port the API listens on', default: '8443', parse: port },
  dataDir: { env: 'DATA_DIR', description: 'directory of the SQLite database (created if missing)', default: './data', parse: directory },
  apiPrefix: { env: 'API_PREFIX', description: 'path prefix the whole API is mounted under, such as /api', default: '', parse: pathPrefix },
  logLevel: { env: 'LOG_LEVEL', description: 'pino log level', default: 'info', parse: logLevel },
  localHost: { env: 'LOCAL_HOST', description: 'address the local tool server listens on (plain HTTP); a non-loopback one needs LOCAL_API_KEY', default: '127.0.0.1', parse: host },
  localPort: { env: 'LOCAL_PORT', description: 'port the local tool server listens on', default: '8000', parse: port },
  localApiKey: { env: 'LOCAL_API_KEY', description: 'when set, the local tool server requires `Authorization: Bearer <key>`', default: '', parse: apiKey },
  allowedDirs: { env: 'ALLOWED_DIRS', flag: 'allow', description: 'directories the local tool server may list, separated by the path delimiter; `--allow DIR` repeated replaces the variable', default: '', parse: allowedDirectories }
} satisfies Record<string, Setting<unknown> | ListSetting<unknown>>

type Settings = typeof SETTINGS
export type Config = { readonly [K in keyof Settings]: ReturnType<Settings[K]['parse']> }

const flagOf = (setting: Setting<unknown> | ListSetting<unknown>): string =>
  'flag' in setting ? setting.flag : setting.env.toLowerCase().replaceAll('_', '-')

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
  const loaded = config as Config
  if (!isLoopback(loaded.localHost) && loaded.localApiKey === undefined) {
    throw new ConfigError(`${sources.localHost}: ${loaded.localHost} is not a loopback address; the local tool server would be open to the network without LOCAL_API_KEY`)
  }
  return loaded
}
