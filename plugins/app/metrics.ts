import fp from 'fastify-plugin'

/**
 * What the metrics (telemetry/metrics.ts), when METRICS_PORT made them, read of the plugins when
 * scraped (streams, jobs, backups, connections), and their counting of what the store and the
 * guards publish. The requests are counted from app.ts, before any other hook.
 */
export default fp(async function metrics (fastify) {
  const { metrics } = fastify
  if (metrics === undefined) return
  metrics.watch({ storage: fastify.storage, openStreams: () => fastify.changeFeed.ends.size, backups: () => fastify.backups })
  metrics.subscribe()
  fastify.addHook('onClose', async () => { metrics.close() })
}, { name: 'metrics', dependencies: ['storage', 'change-feed', 'backups'] })
