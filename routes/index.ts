import { hypermediaDocument } from '../http/hypermedia.ts'
import { API_VERSION, originOf, versionRoot } from '../http/links.ts'
import { rootPage } from '../http/pages.ts'

/** The API root: where version 1 lives, every collection, where to get a token, and the OpenAPI document. */
export default hypermediaDocument({
  operationId: 'getRoot',
  summary: 'The API root: links to version 1, its collections, the token endpoint and the OpenAPI document',
  description: 'Public. Every href is absolute, for the host the request named; a collection link\'s rel is "collection <href>".'
}, request => ({
  rel: API_VERSION, href: versionRoot(request), title: 'Zoo API version 1', type: 'application/json'
}), request => {
  const base = `${originOf(request)}${request.server.config.apiPrefix}`
  return [
    { rel: 'oauth2-token', href: `${base}/oauth/token`, title: 'OAuth 2.0 token endpoint', type: 'application/json' },
    // RFC 8631: the machine-readable description of the service; its UI is /documentation.
    { rel: 'service-desc', href: `${base}/documentation/json`, title: 'OpenAPI 3.1 document', type: 'application/json' }
  ]
}, rootPage)
