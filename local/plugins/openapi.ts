import swagger from '@fastify/swagger'
import { Type } from '@sinclair/typebox'
import fp from 'fastify-plugin'
import { originOf } from '../../http/links.ts'
import { allowOnly } from '../../http/method-not-allowed.ts'
import { COMMON_ERRORS } from '../schemas.ts'

export interface OpenApiOptions {
  /** Whether the operations require the API key: the document then declares the bearer scheme. */
  apiKey: boolean
}

/**
 * `GET /openapi.json`, generated from the route schemas, for LLM tool clients to import. It
 * needs no API key (it holds no secret and names no directory) and names the server by the Host
 * the client used, which the loopback guard has vetted.
 */
export default fp<OpenApiOptions>(async function openapi (fastify, { apiKey }) {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Zoo local tool server',
        version: '1.0.0',
        description: 'Lists the directories this machine allows, and their contents. ' +
          'Paths are absolute and compared case-sensitively; ' +
          'symbolic links are listed, never followed out of the allowed directories.'
      },
      ...(apiKey
        ? {
            components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'LOCAL_API_KEY' } } },
            security: [{ apiKey: [] }]
          }
        : {})
    }
  })
  allowOnly(fastify, '/openapi.json', ['GET'])
  fastify.get('/openapi.json', {
    schema: {
      hide: true,
      response: { 200: Type.Unknown({ description: 'OpenAPI 3.1 document' }), 403: COMMON_ERRORS[403] }
    }
  }, async (request) => ({ ...fastify.swagger(), servers: [{ url: originOf(request) }] }))
}, { name: 'local-openapi' })
