import Fastify, { type FastifyInstance } from 'fastify'
import type { Metrics } from '../telemetry/metrics.ts'
import { equipInstance, instanceOptions, type InstanceSettings } from './instance-options.ts'

/**
 * The listener of METRICS_PORT: plain HTTP, `GET /metrics` answered in the Prometheus text format
 * (HEAD too), anything else 404 as JSON. No token: what it shows is counts, never a record, and
 * METRICS_HOST keeps it on loopback unless the operator says otherwise.
 */
export function buildMetricsListener (settings: InstanceSettings, metrics: Metrics): FastifyInstance {
  const fastify = Fastify(instanceOptions(settings, 'metrics'))
  equipInstance(fastify, settings)
  fastify.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    reply.type(metrics.registry.contentType)
    return metrics.text()
  })
  fastify.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ error: `No such path: ${request.method} ${request.url}; the metrics are at /metrics` }))
  return fastify
}
