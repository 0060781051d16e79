import type { FastifyPluginAsync } from 'fastify'
import { ErrorSchema, RootSchema } from '../../schemas/common.js'
import { RESOURCES } from '../../schemas/index.js'
import { collectionLink, versionRoot } from '../../lib/links.js'
import { allowOnly } from '../../lib/method-not-allowed.js'

/** The version-1 document (SPEC §5): itself and its collections. */
const version: FastifyPluginAsync = async (fastify) => {
  allowOnly(fastify, '/', ['GET'])
  fastify.get('/', {
    schema: {
      operationId: 'getVersion1',
      summary: 'Version 1: its collections',
      tags: ['hypermedia'],
      response: { 200: RootSchema, 406: ErrorSchema }
    }
  }, async (request) => ({
    link: { rel: 'self', href: versionRoot(request), title: 'Zoo API version 1', type: 'application/json' },
    links: RESOURCES.map(resource => collectionLink(request, resource))
  }))
}

export default version
