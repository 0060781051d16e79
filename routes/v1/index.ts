import { hypermediaDocument } from '../../http/hypermedia.ts'
import { versionRoot } from '../../http/links.ts'

/** The version-1 document: itself and its collections. */
export default hypermediaDocument({
  operationId: 'getVersion1',
  summary: 'Version 1: its collections',
  description: 'Needs a bearer token, with any scope.',
  bearer: true
}, request => ({
  rel: 'self', href: versionRoot(request), title: 'Zoo API version 1', type: 'application/json'
}))
