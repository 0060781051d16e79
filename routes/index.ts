import type { FastifyPluginAsync } from 'fastify'
import { ErrorSchema, RootSchema } from '../schemas/common.js'
import { RESOURCES } from '../schemas/index.js'
import { API_VERSION, collectionLink, versionRoot } from '../lib/links.js'
import { allowOnly } from '../lib/method-not-allowed.js'

/** The API root (SPEC §5): where version 1 lives, and every collection. */
const root: FastifyPluginAsync = async (fastify) => {
  allowOnly(fastify, '/', ['GET'])
  fastify.get('/', {
    schema: {
      operationId: 'getRoot',
      summary: 'The API root: links to version 1 and its collections',
      tags: ['hypermedia'],
      response: { 200: RootSchema, 406: ErrorSchema }
    }
  }, async (request) => ({
    link: { rel: API_VERSION, href: versionRoot(request), title: 'Zoo API version 1', type: 'application/json' },
    links: RESOURCES.map(resource => collectionLink(request, resource))
  }))
}

export default root
