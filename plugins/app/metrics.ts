import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyRequest {
    /** Counted among the requests in flight, until answered or abandoned. */
    inFlight: boolean
  }
}

/**
 * The metrics of the API's requests and of what it serves from (telemetry/metrics.ts), when
 * METRICS_PORT made them (app.ts): each request's duration by route template, method and status,
 * the requests in flight, and what is read when scraped (streams, jobs, backups, connections).
 * Without METRICS_PORT nothing is added: no hook runs.
 */
export default fp(async function metrics (fastify) {
  const { metrics } = fastify
  if (metrics === undefined) return
  metrics.watch({ storage: fastify.storage, openStreams: () => fastify.changeFeed.ends.size, backups: () => fastify.backups })
  metrics.subscribe()
  fastify.decorateRequest('inFlight', false)
  // Callback hooks: they cost no promise on every request.
  fastify.addHook('onRequest', (request, _reply, done) => {
    request.inFlight = true
    metrics.started(request.method)
    done()
  })
  fastify.addHook('onResponse', (request, reply, done) => {
    if (request.inFlight) {
      request.inFlight = false
      metrics.answered(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000)
    }
    done()
  })
  fastify.addHook('onRequestAbort', (request, done) => {
    // Abandoned by its client before an answer: no longer in flight, and no duration to tell.
    if (request.inFlight) {
      request.inFlight = false
      metrics.abandoned(request.method)
    }
    done()
  })
  fastify.addHook('onClose', async () => { metrics.close() })
}, { name: 'metrics', dependencies: ['storage', 'change-feed', 'backups'] })
