import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import type { FastifyContextConfig, FastifyInstance, FastifySchema } from 'fastify'
import { scopesFor, scopesOf } from '../../auth/scopes.ts'
import { capitalize, namesOf } from '../../model/resource.ts'
import { CLIENT_SCHEME, counted, security, type SECURITY_SCHEMES } from '../../schemas/responses.ts'

/** JWTs, and how they are checked: the words the OWASP ruleset looks for (RFC8725) in a scheme of them. */
const JWT_CHECKS = 'Access tokens are JWTs (RFC 9068) signed and checked as RFC8725 advises: the algorithm fixed (ES256; of an ' +
  'external issuer, asymmetric ones only), typ at+jwt, issuer, audience and expiry verified.'

type RouteSchema = FastifySchema & { security?: unknown, response?: Record<string, object> }

/**
 * A route's schema as the document says it: its security is what the bearer guard checks
 * (plugins/app/bearer-guard.ts), given by its collection's scope, else the route's own, else none
 * (public); and every answer of a route the rate limit counts (all but those that turn it off,
 * http/probes.ts) carries the limit's headers.
 */
function documented (schema: RouteSchema, config: FastifyContextConfig, method: string): RouteSchema {
  const { collection, selects, rateLimit } = config
  return {
    ...schema,
    security: collection === undefined ? schema.security ?? [] : security(scopesFor(collection, method, selects === true)),
    ...(rateLimit === false || schema.response === undefined ? {} : { response: counted(schema.response) })
  }
}

/**
 * The OpenAPI 3.1 document of every route not hidden, generated from the route schemas at the
 * first request for it, and served by plugins/external/swagger-ui.ts. Paths are relative to the
 * server URL, PUBLIC_URL, which holds API_PREFIX.
 */
export const autoConfig = (fastify: FastifyInstance): FastifyDynamicSwaggerOptions => {
  const { publicUrl } = fastify.config
  const tokenUrl = `${publicUrl}/oauth/token`
  const { resources } = fastify.collections
  const unrestricted = new Map(resources.flatMap(r => r.access?.unrestricted === undefined ? [] : [[r.access.unrestricted, r.name]]))
  const scopes = Object.fromEntries(scopesOf(resources).map(scope => {
    const freed = unrestricted.get(scope)
    if (freed !== undefined) return [scope, `Read and change every ${freed} record and field, whatever the access rules of ${freed}`]
    const [collection, access] = scope.split(':')
    return [scope, access === 'read' ? `Read ${collection} (GET, HEAD, OPTIONS)` : `Change ${collection} (POST, PUT, PATCH, DELETE)`]
  }))
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Zoo API',
        version: '1.0.0',
        description: `${capitalize(namesOf(resources))}: a resource-oriented JSON API over HTTPS. Every /v1 request needs an OAuth 2.0 ` +
            'bearer token with the scope of its collection: POST /oauth/token (issueToken) says how to get one, with the bootstrap ' +
            'client printed at the first start or a client of npm run cli -- client create.'
      },
      // Its public URL, for clients: no internal one (the OWASP ruleset asks for the extension's word).
      servers: [{ url: publicUrl, ...{ 'x-internal': false } }],
      tags: [
        { name: 'hypermedia', description: 'Where to start: links to the collections' },
        ...resources.map(r => ({ name: r.name, description: `The ${r.name} collection` })),
        { name: 'batch', description: 'Several writes of any collections in one transaction' },
        { name: 'jobs', description: 'Writes sent with Prefer: respond-async, run in the background' },
        { name: 'webhooks', description: 'Changes delivered to the URLs subscribed to them, signed, retried' },
        { name: 'oauth', description: 'The built-in OAuth 2.0 authorization server' },
        { name: 'operations', description: 'Health probes for supervisors and load balancers' }
      ],
      components: {
        // One scheme per grant (schemas/responses.ts), client credentials first: it is what the
        // bootstrap client of the quick start uses, and the documentation UI shows it on top.
        securitySchemes: {
          clientCredentials: {
            type: 'oauth2' as const,
            description: 'A client\'s id and secret: the bootstrap client printed at the first start, or one made with ' +
              'npm run cli -- client create. Tick the scopes the token should hold. (Tokens of the external issuer, when ' +
              `one is configured, are taken too.) ${JWT_CHECKS}`,
            flows: { clientCredentials: { tokenUrl, scopes } }
          },
          password: {
            type: 'oauth2' as const,
            description: 'A person\'s user name and password (npm run cli -- user create), asked for by a client, whose ' +
              `id and secret go below them. ${JWT_CHECKS}`,
            flows: { password: { tokenUrl, refreshUrl: tokenUrl, scopes } }
          },
          [CLIENT_SCHEME]: {
            type: 'http' as const,
            scheme: 'basic',
            description: 'How a client authenticates to the token and revocation endpoints (RFC 6749 §2.3.1): its id and ' +
              'secret, each URL-encoded, as HTTP Basic. They may instead be sent as client_id and client_secret in the body ' +
              '(not both ways at once); a public client sends its client_id alone, and may only refresh and revoke.'
          }
        } satisfies Record<typeof SECURITY_SCHEMES[number] | typeof CLIENT_SCHEME, unknown>
      }
    },
    transform: ({ schema, url, route }) => ({
      // A collection's route is `/` under the collection's prefix: Fastify serves it with and
      // without the trailing slash, and the hrefs name it without.
      url: url === `${fastify.config.apiPrefix}/` ? url : url.replace(/\/$/, ''),
      // A hidden route (the documentation's own, a 405) may have none.
      schema: schema === undefined ? schema : documented(schema as RouteSchema, route.config ?? {}, String(route.method))
    }),
    refResolver: {
      // Shared schemas (plugins/app/components.ts) keep their $id as their component name.
      buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string' ? json.$id : `def-${i}`
    }
  }
}

export default swagger
