import swaggerUi, { type FastifySwaggerUiOptions } from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { DOCUMENTATION_PREFIX } from '../../http/links.ts'
import { ICON } from '../../http/pages.ts'

/** The name of the service in the top bar, where the framework's logo would be. */
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">' +
  '<text x="0" y="28" font-family="sans-serif" font-size="26" font-weight="bold" fill="#ffffff">Zoo API</text></svg>'

/**
 * The one inline style of the page, by its digest: swagger-ui draws its own logo in the top bar
 * first, an SVG holding a <style> element, before the page puts ours in its place. A test
 * (test/openapi.test.ts) recomputes it from the swagger-ui installed, so an update that changes
 * the logo says so.
 */
export const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"

/** The page's policy, as @fastify/swagger-ui writes it for its own scripts and styles, with the logo's style added. */
const withLogoStyle = (policy: string): string => policy.split(';')
  .map(directive => directive.trim().startsWith('style-src ') ? `${directive} ${SWAGGER_LOGO_STYLE}` : directive)
  .join(';')

/**
 * The Authorize dialog opens at its top, on client credentials, with the cursor in its client_id:
 * swagger-ui gives the focus to the password flow's user name, further down, and scrolls the
 * dialog to it. A script of the page's own origin, as the policy allows.
 */
const AUTHORIZE_DIALOG = `new MutationObserver(() => {
  const dialog = document.querySelector('.dialog-ux .modal-ux-content')
  if (dialog === null || dialog.dataset.opened === 'yes') return
  dialog.dataset.opened = 'yes'
  const first = dialog.querySelector('input')
  if (first !== null) first.focus({ preventScroll: true })
  dialog.scrollTop = 0
}).observe(document.body, { childList: true, subtree: true })
`

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
  transformStaticCSP: withLogoStyle,
  // Links such as the documentation_url of a 401 open the operation they name.
  uiConfig: { deepLinking: true },
  theme: {
    title: 'Zoo API',
    favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: ICON }],
    js: [{ filename: 'authorize-dialog.js', content: AUTHORIZE_DIALOG }]
  },
  logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: `${fastify.config.apiPrefix}${DOCUMENTATION_PREFIX}`, target: '_self' }
})

export default swaggerUi
