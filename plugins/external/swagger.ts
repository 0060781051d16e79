import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { scopesFor, scopesOf } from '../../auth/scopes.ts'
import { capitalize, namesOf } from '../../model/resource.ts'
import { security, type SECURITY_SCHEMES } from '../../schemas/responses.ts'

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
      servers: [{ url: publicUrl }],
      tags: [
        { name: 'hypermedia', description: 'Where to start: links to the collections' },
        ...resources.map(r => ({ name: r.name, description: `The ${r.name} collection` })),
        { name: 'batch', description: 'Several writes of any collections in one transaction' },
        { name: 'jobs', description: 'Writes sent with Prefer: respond-async, run in the background' },
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
              'one is configured, are taken too.)',
            flows: { clientCredentials: { tokenUrl, scopes } }
          },
          password: {
            type: 'oauth2' as const,
            description: 'A person\'s user name and password (npm run cli -- user create), asked for by a client, whose ' +
              'id and secret go below them.',
            flows: { password: { tokenUrl, refreshUrl: tokenUrl, scopes } }
          }
        } satisfies Record<typeof SECURITY_SCHEMES[number], unknown>
      }
    },
    transform: ({ schema, url, route }) => ({
      // A collection's route is `/` under the collection's prefix: Fastify serves it with and
      // without the trailing slash, and the hrefs name it without.
      url: url === `${fastify.config.apiPrefix}/` ? url : url.replace(/\/$/, ''),
      // What the bearer guard checks (plugins/app/bearer-guard.ts): the route's collection gives the scope.
      schema: route.config?.collection === undefined
        ? schema
        : { ...schema, security: security(scopesFor(route.config.collection, String(route.method), route.config.selects === true)) }
    }),
    refResolver: {
      // Shared schemas (plugins/app/components.ts) keep their $id as their component name.
      buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string' ? json.$id : `def-${i}`
    }
  }
}

export default swagger
