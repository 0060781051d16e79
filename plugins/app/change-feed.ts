import fp from 'fastify-plugin'
import { ChangeHub } from '../../collections/feed.ts'
import { FeedPositions } from '../../collections/feed-positions.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The live side of the change feed and its open streams (collections/changes.ts). */
    changeFeed: ChangeFeed
  }
}

export interface ChangeFeed {
  hub: ChangeHub
  /** Positions as clients are told them, and read back. */
  positions: FeedPositions
  /** Each user's open streams on this instance, by issuer, client id and subject: what CHANGES_STREAMS_PER_USER caps. */
  readonly userStreams: Map<string, number>
  /** Each client's open streams on this instance, its users' together, by issuer and client id: what CHANGES_STREAMS_PER_CLIENT caps. */
  readonly clientStreams: Map<string, number>
  /** What ends each open stream, called when the instance stops. */
  readonly ends: Set<() => void>
}

/** How often the changes older than CHANGES_RETENTION are pruned. */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000

/**
 * The change feed's shared parts: the hub every stream reads through (collections/feed.ts), how
 * positions are told (collections/feed-positions.ts), the count of each user's and each client's
 * streams, and the pruning of changes older than CHANGES_RETENTION, at start-up and every hour
 * (instances sharing a database may all prune: they agree). Open streams end before the instance
 * stops, so that closing does not wait for them.
 */
export default fp(async function changeFeed (fastify) {
  const { feed } = fastify.storage.collections
  const hub = new ChangeHub(feed, fastify.config.changesPollInterval, err => fastify.log.error({ err }, 'change feed read failed'))
  const positions = new FeedPositions(await feed.positionKey())
  const state: ChangeFeed = { hub, positions, userStreams: new Map(), clientStreams: new Map(), ends: new Set() }
  fastify.decorate('changeFeed', state)

  const prune = async (): Promise<void> => {
    const before = new Date(Date.now() - fastify.config.changesRetention * 1000).toISOString()
    try {
      const pruned = await feed.prune(before)
      if (pruned > 0) fastify.log.info({ pruned, before }, 'changes pruned from the feed')
    } catch (err) {
      fastify.log.error({ err }, 'pruning the change feed failed')
    }
  }
  let timer: NodeJS.Timeout | undefined
  fastify.addHook('onReady', async () => {
    await prune()
    timer = setInterval(() => { prune().catch(() => {}) }, PRUNE_INTERVAL_MS).unref()
  })
  fastify.addHook('preClose', async () => {
    clearInterval(timer)
    for (const end of state.ends) end()
    hub.close()
  })
}, { name: 'change-feed', dependencies: ['storage'] })
