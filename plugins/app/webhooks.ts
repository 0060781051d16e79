import fp from 'fastify-plugin'
import { grantOf } from '../../auth/grants.ts'
import { Deliverer } from '../../webhooks/deliverer.ts'
import { threadModule } from '../../packaging/shipped.ts'
import { AskedThread } from '../../threads/asked.ts'
import { Destinations, type AllowedHosts } from '../../webhooks/destination.ts'
import type { Answer, Round } from '../../webhooks/sending.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Where a webhook may be sent (webhooks/destination.ts): what its routes check a URL against. */
    webhookDestinations: Destinations
    /** The deliverer: woken by the routes that write a subscription or send a delivery again. */
    webhooks: Deliverer
  }
}

/**
 * Webhooks (webhooks/, docs/webhooks.md): the deliverer runs beside the job worker, from the
 * moment the instance is ready until it closes, and sends each delivery as the subscription's
 * account may read its record at that moment (auth/grants.ts, the store bound to that account).
 */
export default fp(async function webhooks (fastify) {
  const { storage, config } = fastify
  const { tokens } = fastify.oauth
  const destinations = new Destinations(config.webhookAllowHosts)
  fastify.decorate('webhookDestinations', destinations)
  // The deliveries' HTTP requests, sent from a thread of their own, which checks each address against the same hosts.
  const sender = new AskedThread<Round, Answer[]>(threadModule('webhooks/sender.js'), config.webhookAllowHosts satisfies AllowedHosts,
    (why, { postings }) => postings.map(() => ({ error: `the sending thread failed: ${why}` })))
  const deliverer = new Deliverer({
    store: storage.webhooks,
    log: storage.collections.feed,
    stores: storage.collections,
    resources: fastify.collections.resources,
    grant: async webhook => {
      const { scope, claims } = await grantOf(webhook, tokens, storage.accounts)
      return { scopes: new Set(scope.split(' ').filter(s => s !== '')), claims }
    },
    settings: { timeout: config.webhookTimeout, retries: config.webhookRetries, send: async round => await sender.ask(round) },
    logger: fastify.log
  })
  fastify.decorate('webhooks', deliverer)
  fastify.addHook('onReady', async () => { if (fastify.runJobs) await deliverer.start() })
  fastify.addHook('preClose', async () => {
    await deliverer.stop()
    await sender.close()
  })
}, { name: 'webhooks', dependencies: ['storage', 'oauth'] })
