import type { FastifyRequest } from 'fastify'
import type { Link } from '../schemas/common.js'
import type { Resource } from '../collections/resource.js'

/** The version segment of every resource path (the version is in the URL). */
export const API_VERSION = 'v1'

/** `https://host:port` as the client addressed it. */
export const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`

/** Absolute URL of the API's version root, honouring API_PREFIX. */
export const versionRoot = (request: FastifyRequest): string =>
  `${originOf(request)}${request.server.config.apiPrefix}/${API_VERSION}`

export const recordUrl = (request: FastifyRequest, resource: Resource, id: number): string =>
  `${versionRoot(request)}/${resource.name}/${id}`

export function collectionLink (request: FastifyRequest, resource: Resource): Link {
  const href = `${versionRoot(request)}/${resource.name}`
  return { rel: `collection ${href}`, href, title: `List of ${resource.name}`, type: 'application/json' }
}
