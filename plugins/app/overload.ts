import underPressure from '@fastify/under-pressure'
import type { FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../../http/errors.ts'

/** Seconds a client is told to wait (Retry-After) before asking an overloaded server again. */
const RETRY_AFTER = 5
/** How often @fastify/under-pressure measures the event loop: each measure is the mean delay since the one before. */
const SAMPLE_INTERVAL_MS = 1000

/**
 * While the event loop lags more than MAX_EVENT_LOOP_DELAY milliseconds (the mean over each
 * second), every request is answered 503 with Retry-After at once, before any other work, so
 * that a server falling behind sheds load instead of making every client wait. `/health` is left
 * out (routes/health): the process still answers. The first two measures after start-up are not
 * held against it: they include the start-up's own work, which blocks the loop by design.
 * `0` turns the check off.
 */
export default fp(async function overload (fastify) {
  const maxEventLoopDelay = fastify.config.maxEventLoopDelay
  if (maxEventLoopDelay === 0) return
  let judgedFrom = Infinity
  fastify.addHook('onReady', async () => { judgedFrom = Date.now() + 2 * SAMPLE_INTERVAL_MS })
  await fastify.register(underPressure, {
    maxEventLoopDelay,
    sampleInterval: SAMPLE_INTERVAL_MS,
    pressureHandler: async (_request, reply: FastifyReply) => {
      if (Date.now() < judgedFrom) return
      reply.header('Retry-After', RETRY_AFTER)
      throw new HttpError(503, `The server is overloaded; retry in ${RETRY_AFTER} s (Retry-After)`)
    }
  })
}, { name: 'overload' })
