import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from '../config/index.ts'
import { errorHandler } from '../http/errors.ts'
import { isLoopback } from '../http/host.ts'
import type { Metrics } from '../telemetry/metrics.ts'
import bearerKey from './bearer-key.ts'
import { equipInstance, instanceOptions, type InstanceSettings } from './instance-options.ts'
import loopbackOnly from './loopback-only.ts'

export type MetricsSettings = InstanceSettings & Pick<Config, 'metricsHost' | 'metricsToken'>

/**
 * The listener of METRICS_PORT: plain HTTP, `GET /metrics` answered in the Prometheus text format
 * (HEAD too), anything else 404 as JSON. What it shows is counts, never a record, but they tell
 * how the service is used. On loopback it answers only loopback names, so that no web page reads
 * it by DNS rebinding; off loopback a scraper may call it by any name, and METRICS_TOKEN (which
 * config/load.ts then requires) keeps everyone else out. A token set on loopback is required too.
 */
export function buildMetricsListener (settings: MetricsSettings, metrics: Metrics): FastifyInstance {
  const fastify = Fastify(instanceOptions(settings, 'metrics'))
  equipInstance(fastify, settings)
  fastify.setErrorHandler(errorHandler)
  if (isLoopback(settings.metricsHost)) fastify.register(loopbackOnly, { listenHost: settings.metricsHost })
  if (settings.metricsToken !== undefined) {
    fastify.register(bearerKey, { key: settings.metricsToken, setting: 'METRICS_TOKEN', realm: 'zoo-metrics' })
  }
  fastify.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    reply.type(metrics.registry.contentType)
    return metrics.text()
  })
  fastify.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ error: `No such path: ${request.method} ${request.url}; the metrics are at /metrics` }))
  return fastify
}
