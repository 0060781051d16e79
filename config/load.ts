// The configuration of one start: every setting read from its flag or variable and parsed, then
// the checks that involve several settings at once.
import { delimiter, join } from 'node:path'
import { parseArgs } from 'node:util'
import { isLoopback } from '../http/host.ts'
import { ConfigError } from './parsers.ts'
import { flagOf, type AnySetting } from './setting.ts'
import { SETTINGS, type Config } from './settings.ts'

/**
 * Reads every setting from CLI flags (which win) or the environment, else its default.
 * Throws ConfigError naming the first bad setting or flag.
 */
export function loadConfig (env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv.slice(2)): Config {
  const settings = Object.entries(SETTINGS) as [string, AnySetting][]
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
  if (loaded.metricsPort !== undefined && !isLoopback(loaded.metricsHost) && loaded.metricsToken === undefined) {
    throw new ConfigError(`${sources.metricsHost}: ${loaded.metricsHost} is not a loopback address; ` +
      'the metrics would be open to the network without METRICS_TOKEN')
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
  if (loaded.backupDir !== undefined && loaded.databaseUrl !== undefined) {
    throw new ConfigError(`${sources.backupDir}: scheduled backups copy the SQLite database; with ${sources.databaseUrl} ` +
      'back PostgreSQL up with pg_dump')
  }
  together(['oauthIssuer', 'oauthJwksUri', 'oauthAudience'])
  together(['loginProvider', 'loginIssuer', 'loginClientId', 'loginClientSecret'])
  loaded.publicUrl ??= `https://localhost${loaded.port === 443 ? '' : `:${loaded.port}`}${loaded.apiPrefix}`
  loaded.unpackDir ??= join(loaded.dataDir, 'unpacked')
  return loaded as Config
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
