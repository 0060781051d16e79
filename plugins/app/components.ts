import fp from 'fastify-plugin'
import { COMPONENTS } from '../../schemas/responses.ts'

/**
 * The bodies route schemas name by `$ref` (schemas/responses.ts), shared before any route is
 * added: Fastify serializes with them, and the OpenAPI document lists each once.
 */
export default fp(async function components (fastify) {
  for (const schema of COMPONENTS) fastify.addSchema(schema)
}, { name: 'components' })
