import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApi } from './app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { isLoopback } from './http/host.js'
import { buildRedirectListener } from './listeners/redirect.js'
import { loadTls, type TlsMaterial } from './listeners/tls.js'
import { buildLocalServer } from './local/app.js'

const ORIGINS: Record<TlsMaterial['origin'], string> = {
  configured: 'from TLS_CERT',
  created: 'self-signed, created',
  reused: 'self-signed, reused'
}

/**
 * `npm start`: configuration and certificate, then the API, the local tool server and the
 * optional redirect listener listening, then a clean stop of all on a signal.
 */
async function main (): Promise<void> {
  let config: Config
  let tls: TlsMaterial | undefined
  try {
    config = loadConfig()
    tls = config.tls === 'on' ? await loadTls(config) : undefined
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`zoo-api: ${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
  // Said once the listeners are up, in the start-up block, never in the log.
  const announcements: string[] = []
  const api = buildApi(config, { ...(tls === undefined ? {} : { tls }), announce: message => announcements.push(message) })
  if (tls !== undefined) api.log.info({ certificate: tls.certFile, sha256: tls.fingerprint, origin: tls.origin }, 'TLS certificate')
  const local = buildLocalServer(config)
  const instances = [api, local]
  stopOnSignal(instances)
  try {
    await api.listen({ host: config.host, port: config.port })
    await local.listen({ host: config.localHost, port: config.localPort })
    if (config.httpRedirectPort !== undefined) {
      // Built once the API listens: with PORT=0 only then is the port to redirect to known.
      const redirect = buildRedirectListener({
        logLevel: config.logLevel,
        httpsPort: (api.server.address() as AddressInfo).port,
        fallbackHost: new URL(config.publicUrl).hostname
      })
      instances.push(redirect)
      await redirect.listen({ host: config.host, port: config.httpRedirectPort })
    }
  } catch (err) {
    // A port in use, say: no instance stays up alone.
    api.log.fatal({ err }, 'start-up failed')
    await Promise.all(instances.map(i => i.close()))
    process.exit(1)
  }
  if (config.allowedDirs.length === 0) local.log.info('no allowed directories (ALLOWED_DIRS or --allow): list_directory refuses every path')
  process.stdout.write(startupBlock(config, tls, api, local, announcements))
}

/** What an operator needs at a glance: where everything is, the certificate to trust, a one-time secret. */
function startupBlock (
  config: Config, tls: TlsMaterial | undefined, api: FastifyInstance, local: FastifyInstance, announcements: string[]
): string {
  const urlOf = (scheme: string, instance: FastifyInstance, host: string, path: string) => {
    const shown = isLoopback(host) || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
    return `${scheme}://${shown}:${(instance.server.address() as AddressInfo).port}${path}`
  }
  const base = urlOf(tls === undefined ? 'http' : 'https', api, config.host, config.apiPrefix)
  const lines = [
    '',
    `Zoo API      ${base}/${tls === undefined ? '  (plain HTTP: TLS=proxy, behind a TLS-terminating proxy)' : ''}`,
    `Docs         ${base}/documentation`,
    `Local tools  ${urlOf('http', local, config.localHost, '/')}`,
    ...(tls === undefined ? [] : [`Certificate  ${tls.certFile} (${ORIGINS[tls.origin]})`, `SHA-256      ${tls.fingerprint}`]),
    ...announcements.flatMap(message => ['', message]),
    ''
  ]
  return lines.join('\n') + '\n'
}

/** Stops every instance in `instances`, including those added after this call. */
function stopOnSignal (instances: FastifyInstance[]): void {
  const stop = async (signal: string) => {
    instances[0]?.log.info({ signal }, 'shutting down')
    await Promise.all(instances.map(i => i.close()))
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

await main()
