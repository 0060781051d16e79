import swaggerUi, { type FastifySwaggerUiOptions } from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { DOCUMENTATION_PREFIX } from '../../http/negotiation.js'

/**
 * The interactive documentation at /documentation, the OpenAPI document at /documentation/json
 * and /documentation/yaml: public, like the root document.
 */
export const autoConfig = (fastify: FastifyInstance): FastifySwaggerUiOptions => ({
  routePrefix: DOCUMENTATION_PREFIX,
  // The page links its scripts by absolute path: under API_PREFIX they live there too.
  indexPrefix: fastify.config.apiPrefix,
  // helmet's policy forbids every script and style; the page needs its own, and no others.
  staticCSP: true
})

export default swaggerUi
