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

/** The `$id`s a schema names by `$ref` (`Error`), at any depth. */
function refsOf (schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) refsOf(item, into)
  } else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') into.add(value.split('#')[0] as string)
      else refsOf(value, into)
    }
  }
  return into
}

/**
 * The components `schema` reaches through `$ref`, and those they reach. fast-json-stringify
 * checks every external schema it is given against the JSON Schema meta-schema on each compile,
 * so given all the components, each route's serializers checked the same few schemas again
 * (docs/benchmarks.md#measurements-behind-the-code). What a schema does not name cannot change its
 * serializer, and a name left out fails the compile at once, not an answer later.
 */
function reachedFrom (schema: unknown, external: ReadonlyMap<string, TSchema>): Record<string, TSchema> {
  const reached: Record<string, TSchema> = {}
  const pending = [...refsOf(schema)]
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    const component = external.get(id)
    if (component === undefined || Object.hasOwn(reached, id)) continue
    reached[id] = component
    pending.push(...refsOf(component))
  }
  return reached
}

/**
 * Fastify's serializer compiler for response bodies, with `components` (schemas/responses.ts)
 * resolved by their `$id`.
 */
export function serializerCompilerFor (components: TSchema[]): FastifySerializerCompiler<unknown> {
  const external = new Map(components.map(schema => [schema.$id as string, schema]))
  const set = JSON.stringify(components)
  let ofSet = compiled.get(set)
  if (ofSet === undefined) compiled.set(set, ofSet = new Map())
  const serializers = ofSet
  return ({ schema }) => {
    const key = JSON.stringify(schema)
    let serializer = serializers.get(key)
    if (serializer === undefined) {
      serializer = compile(schema, { schema: reachedFrom(schema, external) })
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
