import Fastify, {
  type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchemaValidationError
} from 'fastify'
import type { Config } from '../config.js'
import { errorHandler, HttpError, notFoundHandler } from '../http/errors.js'
import { validatorCompiler } from '../http/validation.js'
import { instanceOptions } from '../listeners/instance-options.js'
import { DirectoryLister } from './directory-listing.js'
import { PathGuard } from './path-guard.js'
import apiKey from './plugins/api-key.js'
import loopbackOnly from './plugins/loopback-only.js'
import openapi from './plugins/openapi.js'
import listAllowedDirectories from './routes/list-allowed-directories.js'
import listDirectory, { NOT_JSON } from './routes/list-directory.js'
import root from './routes/root.js'

export type LocalConfig = Pick<Config, 'allowedDirs' | 'localApiKey' | 'localHost' | 'logLevel'>

/** `/limit` -> `limit` */
const memberOf = (e: FastifySchemaValidationError): string => e.instancePath.split('/').slice(1).join('.')

function describe (e: FastifySchemaValidationError): string {
  const params = e.params as Record<string, unknown>
  const member = memberOf(e)
  switch (e.keyword) {
    case 'required': return `${String(params.missingProperty)} is required`
    case 'additionalProperties': return `"${String(params.additionalProperty)}" is not a member of this request`
    case 'type': {
      if (member === '') return 'request body must be a JSON object'
      const type = String(params.type)
      return `${member} must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`
    }
    case 'minLength': return `${member} must not be empty`
    // Only the cursor has a pattern.
    case 'pattern': return `${member} is not a next_cursor issued by this server`
    default: return `${member} ${String(e.message)}`
  }
}

/**
 * Every malformed request is a 400 here, with one message per problem; an HttpError
 * is rendered as such by the shared error handler.
 */
function formatValidation (errors: FastifySchemaValidationError[]): Error {
  return new HttpError(400, [...new Set(errors.map(describe))].join('; '))
}

/** Fastify's own 415 says only "Unsupported Media Type"; a tool client needs to know what to send. */
function localErrorHandler (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const failure = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? new HttpError(415, NOT_JSON) : error
  return errorHandler(failure as FastifyError, request, reply)
}

/**
 * The local tool server: its own Fastify instance, separate from the API, for local
 * programs and LLM tool clients. Plain HTTP; the caller chooses where it listens.
 */
export function buildLocalServer (config: LocalConfig): FastifyInstance {
  const fastify = Fastify({
    ...instanceOptions(config.logLevel, 'local'),
    // Requests are a path and two small members.
    bodyLimit: 64 * 1024,
    schemaErrorFormatter: formatValidation
  })
  fastify.setValidatorCompiler(validatorCompiler)
  fastify.setErrorHandler(localErrorHandler)
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
  fastify.register(async function operations (scope) {
    if (config.localApiKey !== undefined) await scope.register(apiKey, { key: config.localApiKey })
    await scope.register(listAllowedDirectories, { dirs: config.allowedDirs })
    await scope.register(listDirectory, { guard: new PathGuard(config.allowedDirs), lister: new DirectoryLister() })
  })
  return fastify
}
