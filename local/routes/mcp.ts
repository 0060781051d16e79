import { toNodeHandler } from '@modelcontextprotocol/node'
import {
  createMcpHandler, fromJsonSchema, McpServer, type CallToolResult, type JsonSchemaType, type JsonSchemaValidator, type jsonSchemaValidator
} from '@modelcontextprotocol/server'
import type { TSchema } from '@sinclair/typebox'
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify'
import { HttpError } from '../../http/errors.ts'
import { allowOnly } from '../../http/method-not-allowed.ts'
import { programVersion } from '../../packaging/shipped.ts'
import { AllowedDirectoriesSchema, DirectoryPageSchema, ListAllowedDirectoriesBodySchema, ListDirectoryBodySchema } from '../schemas.ts'
import type { LocalTools, ToolsOptions } from '../tools.ts'

/**
 * The arguments pass as they came: each tool checks them as its route checks its body
 * (LocalTools), so that both faces refuse the same input with the same message. The SDK's own
 * check would put its words before ours.
 */
const ARGUMENTS_AS_SENT: jsonSchemaValidator = {
  getValidator<T> (): JsonSchemaValidator<T> {
    return input => ({ valid: true, data: input as T, errorMessage: undefined })
  }
}

/**
 * A schema of local/schemas.ts as the tool declares it: the JSON Schema the OpenAPI document
 * holds, copied as plain JSON (TypeBox marks its schemas with symbol keys, which are no JSON).
 */
const toolSchema = (schema: TSchema, validator?: jsonSchemaValidator) =>
  fromJsonSchema(JSON.parse(JSON.stringify(schema)) as JsonSchemaType, validator)

/**
 * Made once, for every server of every request: the SDK's validator compiles an output schema
 * once per schema object and keeps it for the life of the process, so a copy per request would
 * compile again each time and never be let go.
 */
const SCHEMAS = {
  listAllowedDirectories: {
    input: toolSchema(ListAllowedDirectoriesBodySchema, ARGUMENTS_AS_SENT),
    output: toolSchema(AllowedDirectoriesSchema)
  },
  listDirectory: { input: toolSchema(ListDirectoryBodySchema, ARGUMENTS_AS_SENT), output: toolSchema(DirectoryPageSchema) }
}

/** Nothing here writes, and nothing reaches beyond the allowed directories of this machine. */
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true })

/**
 * What a tool answers: the JSON the route answers, as structured content and as text; a refusal
 * with the route's message (an HttpError's message is written for the client). Any other fault
 * is logged and answered as the route answers one, in words that name nothing: the SDK would
 * otherwise send the error's own message, which may hold a path.
 */
export async function toolResult (work: () => object | Promise<object>, log: FastifyBaseLogger): Promise<CallToolResult> {
  try {
    const result = await work()
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> }
  } catch (err) {
    if (err instanceof HttpError) return toolError(err.message)
    log.error({ err }, 'mcp tool failed')
    return toolError('Internal server error')
  }
}

/** One MCP server per request, over the one set of tools: nothing of a request outlives it. */
function serverOf (tools: LocalTools, version: string, log: FastifyBaseLogger): McpServer {
  // The two tools are all there is, for the server's whole life: no list_changed will ever come.
  // Said explicitly (registerTool would declare listChanged: true), it also keeps the SDK from
  // holding 2026-07-28 subscriptions/listen streams open, which it would do with no idle limit
  // (test/local/mcp-listen.test.ts).
  const server = new McpServer(
    { name: 'zoo-local-tools', title: 'Zoo API local tool server', version },
    { capabilities: { tools: { listChanged: false } } }
  )
  server.registerTool('list_allowed_directories', {
    title: 'List allowed directories',
    description: 'The directories that list_directory may be asked about, absolute, as configured.',
    inputSchema: SCHEMAS.listAllowedDirectories.input,
    outputSchema: SCHEMAS.listAllowedDirectories.output,
    annotations: ANNOTATIONS
  }, async (args) => toolResult(() => {
    tools.checkListAllowedDirectories(args)
    return tools.listAllowedDirectories()
  }, log))
  server.registerTool('list_directory', {
    title: 'List a directory',
    description: 'One page of a directory: entries sorted by name in code-point order, with type, size and modification time; ' +
      'symbolic links are listed, never followed. Pass next_cursor as cursor for the next page.',
    inputSchema: SCHEMAS.listDirectory.input,
    outputSchema: SCHEMAS.listDirectory.output,
    annotations: ANNOTATIONS
  }, async (args) => toolResult(async () => tools.listDirectory(tools.checkListDirectory(args)), log))
  return server
}

/**
 * `POST /mcp`: the same two operations as Model Context Protocol tools, over Streamable HTTP. The
 * SDK's handler serves the 2026-07-28 revision, and the 2025 ones (2025-11-25, 2025-06-18,
 * 2025-03-26) statelessly: every request gets a fresh server and transport, so that no client
 * ever shares one. Stateless, it opens no stream for GET and keeps no session to DELETE: both are
 * 405, as the transport allows. The loopback guard and the API key of this server apply as to
 * every route.
 */
const mcp: FastifyPluginAsync<ToolsOptions> = async (fastify, { tools }) => {
  const version = programVersion()
  const handler = createMcpHandler(() => serverOf(tools, version, fastify.log), {
    // A request the SDK refused (a bad revision or envelope, say) or one it failed to answer.
    onerror: err => { fastify.log.warn({ err }, 'mcp request refused or failed') }
  })
  const serve = toNodeHandler(handler, { onerror: err => { fastify.log.error({ err }, 'mcp handler failed') } })
  // Before the listener waits for requests in flight to end: a 2026-07-28 subscriptions/listen
  // stream would otherwise keep shutdown waiting until its timeout.
  fastify.addHook('preClose', async () => handler.close())
  allowOnly(fastify, '/mcp', ['POST'])
  fastify.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    // The SDK writes the answer to the socket itself, so Fastify must not. Its adapter answers
    // its own faults with a 500; the catch is for a fault of the adapter itself, so that a
    // hijacked reply always ends.
    reply.hijack()
    try {
      await serve(request.raw, reply.raw, request.body)
    } catch (err) {
      request.log.error({ err }, 'mcp handler failed')
      if (reply.raw.headersSent) {
        reply.raw.end()
      } else {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
        reply.raw.end(JSON.stringify({ error: 'Internal server error', request_id: request.id }))
      }
    }
  })
}

export default mcp
