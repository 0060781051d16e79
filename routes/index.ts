import { hypermediaDocument } from '../lib/hypermedia.js'
import { API_VERSION, versionRoot } from '../lib/links.js'

/** The API root: where version 1 lives, and every collection. */
export default hypermediaDocument('getRoot', 'The API root: links to version 1 and its collections', request => ({
  rel: API_VERSION, href: versionRoot(request), title: 'Zoo API version 1', type: 'application/json'
}))
