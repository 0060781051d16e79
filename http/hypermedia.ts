import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { RootSchema, type Link } from '../schemas/common.ts'
import { BEARER, errors, GUARDED } from '../schemas/responses.ts'
import { collectionLink } from './links.ts'
import { allowOnly } from './method-not-allowed.ts'
import { prefersPage, sendPage, type Page } from './pages.ts'

export interface HypermediaOperation {
  operationId: string
  summary: string
  description: string
  /** Served behind the bearer guard of /v1, which needs a token but no scope here. */
  bearer?: boolean
}

/**
 * A hypermedia document: `link` names where the client stands or goes next, `links`
 * every collection and then `more`.
 */
export function hypermediaDocument (
  { operationId, summary, description, bearer = false }: HypermediaOperation,
  link: (request: FastifyRequest) => Link,
  more: (request: FastifyRequest) => Link[] = () => [],
  /** The same place as an HTML page, for a browser that prefers one (http/pages.ts). */
  page?: (request: FastifyRequest) => Page
): FastifyPluginAsyncTypebox {
  const document = { ...RootSchema, description: 'Where to go from here' }
  return async (fastify) => {
    allowOnly(fastify, '/', ['GET'])
    fastify.get('/', {
      ...(page === undefined ? {} : { config: { page: true } }),
      schema: {
        operationId,
        summary,
        description,
        tags: ['hypermedia'],
        ...(bearer ? { security: BEARER } : {}),
        response: {
          // The page for people is said in words only: programs never get it, and a typed client
          // would otherwise take every answer for either.
          200: page === undefined
            ? document
            : {
                ...document,
                description: `${document.description}; a browser that navigates here asking for text/html gets a page for people`
              },
          ...errors(...(bearer ? GUARDED : []))
        }
      }
    }, async (request, reply) => {
      if (page !== undefined && prefersPage(request, reply)) return sendPage(request, reply, page(request))
      return {
        link: link(request),
        links: [...fastify.collections.resources.map(resource => collectionLink(request, resource)), ...more(request)]
      }
    })
  }
}
