import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { RootSchema, type Link } from '../schemas/common.ts'
import { RESOURCES } from '../schemas/index.ts'
import { BEARER, errors, GUARDED } from '../schemas/responses.ts'
import { collectionLink } from './links.ts'
import { allowOnly } from './method-not-allowed.ts'

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
  more: (request: FastifyRequest) => Link[] = () => []
): FastifyPluginAsyncTypebox {
  return async (fastify) => {
    allowOnly(fastify, '/', ['GET'])
    fastify.get('/', {
      schema: {
        operationId,
        summary,
        description,
        tags: ['hypermedia'],
        ...(bearer ? { security: BEARER } : {}),
        response: { 200: { ...RootSchema, description: 'Where to go from here' }, ...errors(...(bearer ? GUARDED : [])) }
      }
    }, async (request) => ({
      link: link(request),
      links: [...RESOURCES.map(resource => collectionLink(request, resource)), ...more(request)]
    }))
  }
}
