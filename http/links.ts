import type { FastifyRequest } from 'fastify'
import type { Link } from '../schemas/common.ts'
import type { Resource } from '../model/resource.ts'
import { isInternal } from './internal.ts'

/** The version segment of every resource path (the version is in the URL). */
export const API_VERSION = 'v1'

/** Where the documentation UI lives under API_PREFIX: its page, scripts and the document in YAML. */
export const DOCUMENTATION_PREFIX = '/documentation'

/** A host and port that a URL can hold (RFC 3986 §3.2.2, 3.2.3): an IP literal or a registered name. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[\w.~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+)(?::\d*)?$/

/**
 * `https://host:port` as the client addressed it. A Host header that names nothing a URL can
 * hold (`a b`) would make every href built on it no URL, and a request the API sent itself (a
 * job's replay) was addressed by no client: PUBLIC_URL's origin stands in. The local tool server,
 * which has no PUBLIC_URL, refuses such a Host before (listeners/loopback-only.ts).
 */
export const originOf = (request: FastifyRequest): string => AUTHORITY.test(request.host) && !isInternal(request)
  ? `${request.protocol}://${request.host}`
  : new URL(request.server.config.publicUrl).origin

/** Absolute URL of the API's version root, honouring API_PREFIX. */
export const versionRoot = (request: FastifyRequest): string =>
  `${originOf(request)}${request.server.config.apiPrefix}/${API_VERSION}`

/** The href of a record under `root`, the version root as the client addressed it (`versionRoot`). */
export const recordHref = (root: string, resource: Resource, id: number): string => `${root}/${resource.name}/${id}`

export function collectionLink (request: FastifyRequest, resource: Resource): Link {
  const href = `${versionRoot(request)}/${resource.name}`
  return { rel: `collection ${href}`, href, title: `List of ${resource.name}`, type: 'application/json' }
}

/**
 * The scheme and authority of a request target in absolute form (`GET http://user:password@host/path`),
 * which a client may send instead of a path.
 */
const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/

/**
 * A request's target as the log and the traces name it: its path alone, without the query (where
 * a careless client may put a token) and without the scheme and authority of an absolute-form
 * target, whose user information is a credential.
 */
export function loggedPath (url: string): string {
  const path = url.replace(SCHEME_AND_AUTHORITY, '')
  const end = path.search(/[?#]/)
  return (end === -1 ? path : path.slice(0, end)) || '/'
}
