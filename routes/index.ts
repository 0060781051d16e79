import { hypermediaDocument } from '../lib/hypermedia.js'
import { API_VERSION, originOf, versionRoot } from '../lib/links.js'

/** The API root: where version 1 lives, every collection, and where to get a token. */
export default hypermediaDocument('getRoot', 'The API root: links to version 1, its collections and the token endpoint', request => ({
  rel: API_VERSION, href: versionRoot(request), title: 'Zoo API version 1', type: 'application/json'
}), request => [
  { rel: 'oauth2-token', href: `${originOf(request)}${request.server.config.apiPrefix}/oauth/token`, title: 'OAuth 2.0 token endpoint', type: 'application/json' }
])
