import fp from 'fastify-plugin'
import { componentsOf } from '../../schemas/responses.ts'

/**
 * The bodies route schemas name by `$ref` (schemas/responses.ts), shared before any route is
 * added: the OpenAPI document lists each once (the serializers resolve the same components
 * themselves: http/serialization.ts).
 */
export default fp(async function components (fastify) {
  for (const schema of componentsOf(fastify.collections.resources)) fastify.addSchema(schema)
}, { name: 'components' })
