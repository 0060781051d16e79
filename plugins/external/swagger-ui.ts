import swaggerUi, { type FastifySwaggerUiOptions } from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { DOCUMENTATION_PREFIX } from '../../http/negotiation.ts'

/** The name of the service in the top bar, where the framework's logo would be. */
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">' +
  '<text x="0" y="28" font-family="sans-serif" font-size="26" font-weight="bold" fill="#ffffff">Zoo API</text></svg>'

/** The tab's icon, in place of the framework's. */
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1b1b1b"/>' +
  '<text x="16" y="23" text-anchor="middle" font-family="sans-serif" font-size="20" font-weight="bold" fill="#ffffff">Z</text></svg>'

/**
 * The interactive documentation at /documentation, the OpenAPI document at /documentation/json
 * and /documentation/yaml: public, like the root document.
 */
export const autoConfig = (fastify: FastifyInstance): FastifySwaggerUiOptions => ({
  routePrefix: DOCUMENTATION_PREFIX,
  // The page links its scripts by absolute path: under API_PREFIX they live there too.
  indexPrefix: fastify.config.apiPrefix,
  // helmet's policy forbids every script and style; the page needs its own, and no others.
  staticCSP: true,
  // Links such as the documentation_url of a 401 open the operation they name.
  uiConfig: { deepLinking: true },
  theme: {
    title: 'Zoo API',
    favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(ICON) }]
  },
  logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: `${fastify.config.apiPrefix}${DOCUMENTATION_PREFIX}`, target: '_self' }
})

export default swaggerUi
