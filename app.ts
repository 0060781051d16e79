import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import autoload from '@fastify/autoload'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import type { Config } from './config.js'
import { errorHandler, notFoundHandler } from './lib/errors.js'
import { validatorCompiler } from './lib/validation.js'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    /** Tells the operator something once, outside the logs (a generated bootstrap secret). */
    announce: (message: string) => void
  }
}

export interface ApiOptions {
  logStream?: Writable
  announce?: (message: string) => void
}

const here = fileURLToPath(new URL('.', import.meta.url))

/**
 * The API as one plugin: ecosystem plugins, then ours, then the routes, whose folders mirror the
 * URL tree (`routes/v1/zoos/_zoo_id/animals` serves `/v1/zoos/:zoo_id/animals`).
 */
const app: FastifyPluginAsync = async function app (fastify) {
  // Set before the routes are registered: a route keeps the handlers of its context at that time.
  fastify.setErrorHandler(errorHandler)
  fastify.setNotFoundHandler(notFoundHandler)
  // Bodies are JSON or nothing: any other Content-Type is answered 415.
  fastify.removeContentTypeParser(['text/plain'])
  await fastify.register(autoload, { dir: join(here, 'plugins/external') })
  await fastify.register(autoload, { dir: join(here, 'plugins/app') })
  await fastify.register(autoload, {
    dir: join(here, 'routes'),
    routeParams: true,
    autoHooks: true,
    cascadeHooks: true
  })
}

export default app

/** A ready-to-listen (or inject) API instance for a configuration, mounted under API_PREFIX. */
export function buildApi (config: Config, options: ApiOptions = {}): FastifyInstance {
  const fastify = Fastify({
    logger: config.logLevel === 'silent'
      ? false
      : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'], ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId: () => randomUUID(),
    // A client-chosen id could impersonate another request in the logs.
    requestIdHeader: false
  })
  fastify.decorate('config', config)
  fastify.decorate('announce', options.announce ?? ((message: string) => { process.stdout.write(`${message}\n`) }))
  fastify.setValidatorCompiler(validatorCompiler)
  fastify.addHook('onSend', async (request, reply) => { reply.header('X-Request-Id', request.id) })
  // Paths outside API_PREFIX answer like any other unknown path.
  if (config.apiPrefix !== '') fastify.setNotFoundHandler(notFoundHandler)
  fastify.register(app, { prefix: config.apiPrefix })
  return fastify
}
