import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config/index.ts'
import { isLoopback } from '../http/host.ts'
import { DOCUMENTATION_PREFIX } from '../http/links.ts'
import type { TlsMaterial } from './tls.ts'

const PROXIED = '  (plain HTTP behind a TLS-terminating proxy: TLS=proxy)'

const ORIGINS: Record<TlsMaterial['origin'], string> = {
  configured: 'from TLS_CERT',
  created: 'self-signed, created',
  reused: 'self-signed, reused'
}

/**
 * What an operator needs at a glance, on stdout and not in the log: where everything is, the
 * certificate to trust, and at the first start the one-time credentials.
 */
export function startupBlock (
  config: Config, tls: TlsMaterial | undefined, api: FastifyInstance, local: FastifyInstance, announcements: string[],
  metrics?: FastifyInstance
): string {
  const urlOf = (scheme: string, instance: FastifyInstance, host: string, path: string) => {
    const shown = isLoopback(host) || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
    return `${scheme}://${shown}:${(instance.server.address() as AddressInfo).port}${path}`
  }
  const base = urlOf(tls === undefined ? 'http' : 'https', api, config.host, config.apiPrefix)
  const lines = [
    '',
    `Zoo API      ${config.apiPrefix === '' ? `${base}/` : base}${tls === undefined ? PROXIED : ''}`,
    `Docs         ${base}${DOCUMENTATION_PREFIX}`,
    `Local tools  ${urlOf('http', local, config.localHost, '/')}`,
    ...(metrics === undefined ? [] : [`Metrics      ${urlOf('http', metrics, config.metricsHost, '/metrics')}`]),
    ...(tls === undefined ? [] : [`Certificate  ${tls.certFile} (${ORIGINS[tls.origin]})`, `SHA-256      ${tls.fingerprint}`]),
    ...announcements.flatMap(message => ['', message]),
    ''
  ]
  return lines.join('\n') + '\n'
}
