import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { namesOf } from '../model/resource.ts'
import { vary } from './cache-control.ts'
import { DOCUMENTATION_PREFIX, originOf } from './links.ts'
import { allowOnly } from './method-not-allowed.ts'

/*
 * What a person's browser gets where a program gets JSON: at `/` and `/login`, a browser's
 * navigation that asks for a page before JSON gets a short one saying what this is and where to
 * go. Programs keep their JSON, whatever their Accept header: they do not navigate.
 */

/**
 * Whether a browser is navigating to this place, to show it: every browser marks a navigation
 * `Sec-Fetch-Dest: document` (Fetch Metadata); a script's request, curl or another program's
 * HTTP client does not.
 */
export const isNavigation = (request: FastifyRequest): boolean => request.headers['sec-fetch-dest'] === 'document'

/**
 * Whether a person's browser asks for this place as a page: a navigation whose Accept ranks HTML
 * above JSON. The answer depends on both headers, and says so to caches (`Vary`), whichever it is.
 */
export function prefersPage (request: FastifyRequest, reply: FastifyReply): boolean {
  vary(reply, 'Accept', 'Sec-Fetch-Dest')
  return isNavigation(request) && request.accepts().type(['application/json', 'text/html']) === 'text/html'
}

/** The service's icon, in the browser's tab: of the documentation, of the pages, of the local tool server's JSON. */
export const ICON = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" ' +
  'fill="#1b1b1b"/><text x="16" y="23" text-anchor="middle" font-family="sans-serif" font-size="20" font-weight="bold" ' +
  'fill="#ffffff">Z</text></svg>')

/**
 * `GET /favicon.ico`, which a browser asks for beside a page it shows (the pages here name it, and
 * a browser asks the origin's root for one beside JSON): the icon, cached for a day, rather than a
 * 404 that the browser's console reports as an error. Registered with the prefix `/favicon.ico`
 * (the route folder `routes/favicon.ico`), and only that path; other methods are 405.
 */
export async function favicon (fastify: FastifyInstance): Promise<void> {
  allowOnly(fastify, '', ['GET'])
  fastify.get('', {
    schema: { hide: true, response: { 200: { content: { 'image/svg+xml': { schema: { type: 'string' } } } } } }
  }, async (_request, reply) => reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(ICON))
}

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}' +
  'h1{font-size:1.8rem;margin-bottom:.5rem}code{font-size:.95em;background:#f3f3f3;padding:0 .25em;border-radius:3px}' +
  'li{margin:.4rem 0}a{color:#0b5cad}'

/**
 * The pages' policy: helmet's (nothing may load) but for their one style sheet, allowed by its
 * digest. The API's JSON answers keep helmet's policy unchanged.
 */
const PAGE_POLICY = "default-src 'none'; " +
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'self'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)

/** A line of a page: text with an optional link; every part is escaped. */
interface PageLine { text: string, link?: { href: string, label: string } }

export interface Page {
  title: string
  /** What this place is, in a sentence or two. */
  lead: string
  lines: PageLine[]
}

const line = ({ text, link }: PageLine): string =>
  `<li>${link === undefined ? '' : `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`}${escapeHtml(text)}</li>`

/** The lines every page ends with: the documentation, the OpenAPI document, the token endpoint and the collections. */
function serviceLines (request: FastifyRequest): PageLine[] {
  const base = `${originOf(request)}${request.server.config.apiPrefix}`
  return [
    {
      link: { href: `${base}${DOCUMENTATION_PREFIX}`, label: 'Interactive documentation' },
      text: ': every endpoint, and a client to try them with (Authorize, then "Try it out")'
    },
    { link: { href: `${base}${DOCUMENTATION_PREFIX}/json`, label: 'The OpenAPI 3.1 document' }, text: ', for client generators' },
    { text: `Tokens: POST ${base}/oauth/token (OAuth 2.0), then Authorization: Bearer <token> on every /v1 request` },
    { text: `Collections: ${request.server.collections.resources.map(r => `${base}/v1/${r.name}`).join(', ')}` }
  ]
}

/** Sends `page` as HTML with its own policy, 200. */
export function sendPage (request: FastifyRequest, reply: FastifyReply, page: Page): FastifyReply {
  const icon = `${request.server.config.apiPrefix}/favicon.ico`
  const html = '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<link rel="icon" href="${escapeHtml(icon)}" type="image/svg+xml">` +
    `<title>${escapeHtml(page.title)}</title><style>${STYLE}</style></head>\n` +
    `<body><main><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.lead)}</p>\n` +
    `<ul>${page.lines.map(line).join('\n')}</ul></main></body></html>\n`
  return reply.code(200).type('text/html; charset=utf-8').header('Content-Security-Policy', PAGE_POLICY).send(html)
}

/** `/` for a person's browser: what this is and where to go. */
export function rootPage (request: FastifyRequest): Page {
  return {
    title: 'Zoo API',
    lead: `A JSON API of ${namesOf(request.server.collections.resources)}, over HTTPS, protected by OAuth 2.0. ` +
      'This page is for people: programs get JSON here.',
    lines: [...signInLines(request), ...serviceLines(request)]
  }
}

/** `/login` for a person's browser: where to sign in, or that this server has no sign-in. */
export function signInPage (request: FastifyRequest): Page {
  const provider = request.server.config.loginProvider
  return {
    title: 'Zoo API: sign-in',
    lead: provider === undefined
      ? 'This server offers no sign-in through an external provider. Programs get tokens at the token endpoint, with a ' +
        'client\'s id and secret, or a user\'s name and password.'
      : `Sign in with your ${provider} account: ${provider} sends you back here, and the answer holds an access token ` +
        'and a refresh token for the API, as JSON.',
    lines: [...signInLines(request), ...serviceLines(request)]
  }
}

/** The sign-in link, when a provider is configured. */
function signInLines (request: FastifyRequest): PageLine[] {
  const { loginProvider: provider, apiPrefix } = request.server.config
  if (provider === undefined) return []
  return [{ link: { href: `${originOf(request)}${apiPrefix}/login/${provider}`, label: `Sign in with ${provider}` }, text: '' }]
}

/**
 * The headers of a token endpoint's refusal, as sent. RFC 6749 section 5.2 asks for a
 * `WWW-Authenticate` challenge when a client that authenticated by HTTP Basic failed, and programs
 * get it. A browser, though, answers a Basic challenge to a page's script with its own sign-in
 * dialog over the page (or, headless, holds the request), and the page never sees the 401: a
 * request a page's script made gets the 401 and its body without the challenge.
 */
export function challengeFor (request: FastifyRequest, headers: Record<string, string>): Record<string, string> {
  if (!fromBrowserScript(request)) return headers
  const basicChallenge = ([name, value]: [string, string]): boolean => name.toLowerCase() === 'www-authenticate' && /^Basic\b/i.test(value)
  return Object.fromEntries(Object.entries(headers).filter(header => !basicChallenge(header)))
}

/**
 * Whether a script of a browser page made the request, with fetch or XMLHttpRequest: browsers
 * mark those `Sec-Fetch-Dest: empty` (Fetch Metadata), and script libraries such as the
 * documentation UI's add `X-Requested-With: XMLHttpRequest`. A navigation, a form, curl or a
 * server's HTTP client sends neither.
 */
function fromBrowserScript (request: FastifyRequest): boolean {
  const requestedWith = request.headers['x-requested-with']
  return request.headers['sec-fetch-dest'] === 'empty' ||
    (typeof requestedWith === 'string' && requestedWith.toLowerCase() === 'xmlhttprequest')
}
