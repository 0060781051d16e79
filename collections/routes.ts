import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { allowOnly, type Method } from '../http/method-not-allowed.ts'
import type { Resource } from '../model/resource.ts'
import { aggregateRoute } from './aggregate-route.ts'
import { changesRoute } from './changes.ts'
import { collectionOf } from './collection.ts'
import { listRoute } from './list-route.ts'
import { optionsRoute, readRoute } from './read-routes.ts'
import { writesServed } from './write-plan.ts'
import { bulkRoutes, createRoute, deleteRoute, updateRoutes } from './write-routes.ts'

/**
 * Every route of one collection, generated from its Resource: list, aggregate, create, read, replace,
 * update, delete, changes of many records and OPTIONS, with 405 for the rest. Given `within`,
 * the collection is nested under one record of that parent (`/zoos/:zoo_id/animals`) and serves
 * list, aggregate, create, read and delete of the records that belong to it, and changes of many of them
 * (PATCH and DELETE of the nested collection's path); the parent's field is the one of
 * `references` that names the parent collection.
 */
export function collectionRoutes (resource: Resource, options: { within?: Resource } = {}): FastifyPluginAsyncTypebox {
  return async function routes (fastify) {
    const collection = collectionOf(fastify, resource, options.within)
    const { mount, nesting } = collection
    fastify.mounts.push(mount)
    const allowed = (item: boolean): Method[] => ['GET', ...writesServed(mount, item), 'OPTIONS']
    const collectionAllow = allowOnly(fastify, '/', allowed(false))
    const itemAllow = allowOnly(fastify, '/:id', allowed(true))
    if (nesting === undefined) allowOnly(fastify, '/changes', ['GET'])
    allowOnly(fastify, '/aggregate', ['GET'])
    // Every route added from here on needs this collection's scope (the 405s above need none).
    fastify.addHook('onRoute', route => { route.config = { ...route.config, collection: resource.name } })

    listRoute(fastify, collection)
    aggregateRoute(fastify, collection)
    createRoute(fastify, collection)
    readRoute(fastify, collection)
    if (writesServed(mount, true).includes('PUT')) await updateRoutes(fastify, collection)
    deleteRoute(fastify, collection)
    await bulkRoutes(fastify, collection)
    if (nesting === undefined) changesRoute(fastify, resource)
    optionsRoute(fastify, collection, '/', collectionAllow)
    optionsRoute(fastify, collection, '/:id', itemAllow)
  }
}
