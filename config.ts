import { parseArgs } from 'node:util'
import { resolve } from 'node:path'

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
  logLevel: { env: 'LOG_LEVEL', description: 'pino log level', default: 'info', parse: logLevel }
} satisfies Record<string, Setting<unknown>>

type Settings = typeof SETTINGS
export type Config = { readonly [K in keyof Settings]: ReturnType<Settings[K]['parse']> }

const flagOf = (env: string): string => env.toLowerCase().replaceAll('_', '-')

/**
 * Reads every setting from CLI flags (which win) or the environment, else its default.
 * Throws ConfigError naming the first bad setting or flag.
 */
export function loadConfig (env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv.slice(2)): Config {
  const options = Object.fromEntries(
    Object.values(SETTINGS).map(s => [flagOf(s.env), { type: 'string' as const }])
  )
  let flags: Record<string, string | boolean | undefined>
  try {
    flags = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values
  } catch (err) {
    throw new ConfigError((err as Error).message)
  }
  const config: Record<string, unknown> = {}
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const flag = flags[flagOf(setting.env)]
    const raw = typeof flag === 'string' ? flag : env[setting.env] ?? setting.default
    config[key] = setting.parse(raw, typeof flag === 'string' ? `--${flagOf(setting.env)}` : setting.env)
  }
  return config as Config
}
