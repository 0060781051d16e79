import type { FastifyRequest } from 'fastify'
import type { Principal } from '../auth/tokens.ts'
import { versionRoot } from '../http/links.ts'
import type { Resource } from '../model/resource.ts'

/*
 * A request to a collection as the stages after its route read it: made once from Fastify's
 * request (or from an operation of a batch), so that the planners and what runs their plans never
 * see Fastify's types, and their tests build it as it is.
 */

/** A collection as the URL tree serves it: what a route is, and what an operation of a batch may name. */
export interface Mount {
  /** The path segments of the collection under API_PREFIX: `v1`, `zoos`, `:zoo_id`, `animals`. */
  segments: string[]
  resource: Resource
  /** When nested: the parent, and the field (also the path parameter) that names it. */
  nesting: { parent: Resource, field: string } | undefined
}

/** Who asks and where the API is for them: what every request to a collection carries besides what it asks. */
export interface Asker {
  /** The principal of the request's token; null without one. */
  principal: Principal | null
  /** The API's version root as the client addressed it (`https://host/prefix/v1`): where every href it is answered starts. */
  root: string
  /** The collections the API serves: those whose access rules a write meets where it names their records. */
  served: readonly Resource[]
}

/** The asker of a Fastify request. */
export const askerOf = (request: FastifyRequest): Asker =>
  ({ principal: request.principal, root: versionRoot(request), served: request.server.collections.resources })

/** A request to a collection: where, by whom, with what. Its query and body are validated against the route's schemas. */
export interface CollectionRequest {
  mount: Mount
  asker: Asker
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

/** The href of a record, as the asker addressed the API. */
export const recordHref = (asker: Asker, resource: Resource, id: number): string => `${asker.root}/${resource.name}/${id}`
