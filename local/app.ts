import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from '../config/index.ts'
import { errorHandler, notFoundHandler } from '../http/errors.ts'
import { favicon } from '../http/pages.ts'
import { serializerCompilerFor } from '../http/serialization.ts'
import { validatorCompiler } from '../http/validation.ts'
import bearerKey from '../listeners/bearer-key.ts'
import { equipInstance, instanceOptions, type InstanceSettings } from '../listeners/instance-options.ts'
import loopbackOnly from '../listeners/loopback-only.ts'
import openapi from './plugins/openapi.ts'
import listAllowedDirectories from './routes/list-allowed-directories.ts'
import listDirectory from './routes/list-directory.ts'
import mcp from './routes/mcp.ts'
import root from './routes/root.ts'
import { invalidRequest, LocalTools } from './tools.ts'

export type LocalConfig = Pick<Config, 'allowedDirs' | 'localApiKey' | 'localHost'> & InstanceSettings

/**
 * The local tool server: its own Fastify instance, separate from the API, for local
 * programs and LLM tool clients. Plain HTTP; the caller chooses where it listens.
 */
export function buildLocalServer (config: LocalConfig): FastifyInstance {
  const fastify = Fastify({
    ...instanceOptions(config, 'local'),
    // Requests are a path and two small members.
    bodyLimit: 64 * 1024,
    schemaErrorFormatter: invalidRequest
  })
  equipInstance(fastify, config)
  fastify.setValidatorCompiler(validatorCompiler)
  // Its answers name no shared component.
  fastify.setSerializerCompiler(serializerCompilerFor([]))
  fastify.setErrorHandler(errorHandler)
  fastify.setNotFoundHandler(notFoundHandler)
  fastify.removeContentTypeParser(['text/plain', 'application/json'])
  const json = fastify.getDefaultJsonParser('error', 'error')
  // Some tool clients send `Content-Type: application/json` and no body to list_allowed_directories.
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined)
    else json(request, body as string, done)
  })
  fastify.register(loopbackOnly, { listenHost: config.localHost })
  fastify.register(openapi, { apiKey: config.localApiKey !== undefined })
  fastify.register(root)
  fastify.register(favicon, { prefix: '/favicon.ico' })
  fastify.register(async function operations (scope) {
    if (config.localApiKey !== undefined) {
      await scope.register(bearerKey, { key: config.localApiKey, setting: 'LOCAL_API_KEY', realm: 'zoo-local' })
    }
    const tools = new LocalTools(config.allowedDirs)
    await scope.register(listAllowedDirectories, { tools })
    await scope.register(listDirectory, { tools })
    await scope.register(mcp, { tools })
  })
  return fastify
}
