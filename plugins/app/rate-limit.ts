import rateLimit from '@fastify/rate-limit'
import type { FastifyBaseLogger } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { ConfigError, redacted } from '../../config/index.ts'
import { HttpError } from '../../http/errors.ts'
import { rateLimitRefusals } from '../../http/observed.ts'
import { isInternal } from '../../http/internal.ts'

/**
 * The Redis of REDIS_URL, connected: one that cannot be reached stops start-up, naming the
 * setting. Lost later, it is said once in the log, and again once it is back.
 */
async function connect (url: string, log: FastifyBaseLogger): Promise<Redis> {
  // Loaded only with REDIS_URL: an instance without one (and every test app) is spared its start-up cost.
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000 })
  // Unheard, an error event would end the process; at start-up the failed connect says it.
  redis.on('error', () => {})
  try {
    await redis.connect()
  } catch (err) {
    redis.disconnect()
    throw new ConfigError(`REDIS_URL: ${redacted(url)} cannot be reached (${(err as Error).message})`)
  }
  let failing = false
  redis.on('error', (err: Error) => {
    if (failing) return
    failing = true
    log.warn({ err }, 'REDIS_URL cannot be reached: requests are let through without being counted')
  })
  redis.on('ready', () => {
    if (failing) log.info('REDIS_URL reached again: requests are counted')
    failing = false
  })
  return redis
}

/**
 * At most RATE_LIMIT requests a minute from one client address (429 with Retry-After):
 * every request to a public path (the token endpoint included, so guessing secrets is slow) and
 * every request that passed the bearer check. Behind a proxy (TLS=proxy) the address is the one
 * the proxy forwards. A background job's replay is not counted again. With REDIS_URL the counts
 * are kept in Redis and shared by every instance; should Redis fail, requests are let through
 * (and the failure logged) rather than refused.
 */
export default fp(async function rateLimits (fastify) {
  const { rateLimit: max, redisUrl } = fastify.config
  if (max === 0) return
  const redis = redisUrl === undefined ? undefined : await connect(redisUrl, fastify.log)
  if (redis !== undefined) fastify.addHook('onClose', async () => { await redis.quit() })
  await fastify.register(rateLimit, {
    max,
    timeWindow: 60_000,
    allowList: isInternal,
    ...(redis === undefined ? {} : { redis, nameSpace: 'zoo-api-rate-limit:', skipOnError: true }),
    errorResponseBuilder: (_request, context) => {
      if (rateLimitRefusals.hasSubscribers) rateLimitRefusals.publish({})
      return new HttpError(429, `Too many requests: at most ${context.max} a minute; retry in ${context.after}`)
    }
  })
}, { name: 'rate-limit', dependencies: ['https-only'] })
