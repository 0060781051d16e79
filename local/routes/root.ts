import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allowOnly } from '../../http/method-not-allowed.ts'

const OPERATIONS = ['list_allowed_directories', 'list_directory'].map(name => ({ method: 'POST' as const, path: `/${name}` }))

const RootSchema = Type.Object({
  name: Type.String(),
  openapi: Type.String({ description: 'The OpenAPI document of the operations, for tool clients to import' }),
  mcp: Type.String({ description: 'The same operations as Model Context Protocol tools (Streamable HTTP)' }),
  operations: Type.Array(Type.Object({ method: Type.Literal('POST'), path: Type.String() }))
})

/**
 * `GET /`: what this server is and where its OpenAPI document and its MCP endpoint live, for whoever opens it in a
 * browser or probes it. It reveals nothing the document does not, so it needs no API key.
 */
const root: FastifyPluginAsyncTypebox = async (fastify) => {
  allowOnly(fastify, '/', ['GET'])
  fastify.get('/', {
    schema: { hide: true, response: { 200: RootSchema } }
  }, async () => ({ name: 'Zoo API local tool server', openapi: '/openapi.json', mcp: '/mcp', operations: OPERATIONS }))
}

export default root
