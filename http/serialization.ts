import fastJson from 'fast-json-stringify'
import type { FastifySerializerCompiler } from 'fastify'
import { COMPONENTS } from '../schemas/responses.ts'

type Serializer = (data: unknown) => string

/** fast-json-stringify, typed for the JSON Schemas TypeBox writes (its own types take a narrower shape). */
const compile = fastJson as unknown as (schema: unknown, options: { schema: Record<string, unknown> }) => Serializer

/** The bodies response schemas name by `$ref`, by their `$id`, as fast-json-stringify resolves them. */
const external = Object.fromEntries(COMPONENTS.map(schema => [schema.$id, schema]))

/**
 * Compiled serializers by the text of their schema. Compiling is the costly part of building an
 * instance: every route has a response schema per status, most of them alike (the error body,
 * a record), and each compile walks the shared components again. A serializer is a function of
 * its schema, the components and the options alone, and the last two are constants of this
 * module, so one schema text always compiles to the same serializer and can be shared by every
 * route and every instance of the process. The routes are finite, and so is this map.
 */
const compiled = new Map<string, Serializer>()

/** Fastify's serializer compiler for response bodies, with the components resolved. */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const key = JSON.stringify(schema)
  let serializer = compiled.get(key)
  if (serializer === undefined) {
    serializer = compile(schema, { schema: external })
    compiled.set(key, serializer)
  }
  return serializer
}
