import fastJson from 'fast-json-stringify'
import type { TSchema } from '@sinclair/typebox'
import type { FastifySerializerCompiler } from 'fastify'

type Serializer = (data: unknown) => string

/** fast-json-stringify, typed for the JSON Schemas TypeBox writes (its own types take a narrower shape). */
const compile = fastJson as unknown as (schema: unknown, options: { schema: Record<string, unknown> }) => Serializer

/**
 * Compiled serializers by the text of their components and of their schema. Compiling is the
 * costly part of building an instance: every route has a response schema per status, most of
 * them alike (the error body, a record), and each compile walks the shared components again. A
 * serializer is a function of its schema, the components it names by `$ref` and the options
 * alone (the options are constants of this module), so the same texts always compile to the same
 * serializer, which every route and every instance of the process can share. The routes are
 * finite, and so is this map.
 */
const compiled = new Map<string, Map<string, Serializer>>()

/**
 * Fastify's serializer compiler for response bodies, with `components` (schemas/responses.ts)
 * resolved by their `$id`.
 */
export function serializerCompilerFor (components: TSchema[]): FastifySerializerCompiler<unknown> {
  const external = Object.fromEntries(components.map(schema => [schema.$id, schema]))
  const set = JSON.stringify(components)
  let ofSet = compiled.get(set)
  if (ofSet === undefined) compiled.set(set, ofSet = new Map())
  const serializers = ofSet
  return ({ schema }) => {
    const key = JSON.stringify(schema)
    let serializer = serializers.get(key)
    if (serializer === undefined) {
      serializer = compile(schema, { schema: external })
      serializers.set(key, serializer)
    }
    return serializer
  }
}

/**
 * The serializer of `schema` with `components`, for a route that answers in more than one shape
 * and picks one per request (reply.serializer): compiled once, as the route's own are.
 */
export const serializerFor = (components: TSchema[], schema: TSchema): Serializer =>
  serializerCompilerFor(components)({ schema, method: 'GET', url: '', httpStatus: '200' })
