import type { Resource } from '../model/resource.ts'

/*
 * A request to a collection as the stages after its route read it: made once from Fastify's
 * request (or from an operation of a batch), so that the planners and what runs their plans never
 * see Fastify's types, and their tests build it as it is. Who asks is the records view's
 * (store/bound.ts), which the route takes from the request's token.
 */

/** A collection as the URL tree serves it: what a route is, and what an operation of a batch may name. */
export interface Mount {
  /** The path segments of the collection under API_PREFIX: `v1`, `zoos`, `:zoo_id`, `animals`. */
  segments: string[]
  resource: Resource
  /** When nested: the parent, and the field (also the path parameter) that names it. */
  nesting: { parent: Resource, field: string } | undefined
}

/** A request to a collection: where and with what. Its query and body are validated against the route's schemas. */
export interface CollectionRequest {
  mount: Mount
  /** The API's version root as the client addressed it (`https://host/prefix/v1`): where every href it is answered starts. */
  root: string
  /** The parent's id of a nested path. */
  parentId: number | undefined
  /** The record's id of a record path; undefined for a collection path. */
  id: number | undefined
  query: Record<string, unknown>
  body: unknown
  ifMatch: string | undefined
  /** Prefer: what a route's request may ask of its answer (a batch's operations ask nothing). */
  prefer: string | string[] | undefined
}
