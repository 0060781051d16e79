import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { ErrorSchema, RootSchema, type Link } from '../schemas/common.js'
import { RESOURCES } from '../schemas/index.js'
import { collectionLink } from './links.js'
import { allowOnly } from './method-not-allowed.js'

/**
 * A hypermedia document (SPEC §5): `link` names where the client stands or goes next, `links`
 * every collection and then `more`.
 */
export function hypermediaDocument (
  operationId: string,
  summary: string,
  link: (request: FastifyRequest) => Link,
  more: (request: FastifyRequest) => Link[] = () => []
): FastifyPluginAsync {
  return async (fastify) => {
    allowOnly(fastify, '/', ['GET'])
    fastify.get('/', {
      schema: { operationId, summary, tags: ['hypermedia'], response: { 200: RootSchema, 406: ErrorSchema } }
    }, async (request) => ({
      link: link(request),
      links: [...RESOURCES.map(resource => collectionLink(request, resource)), ...more(request)]
    }))
  }
}
