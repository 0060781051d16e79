import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyPluginAsync } from 'fastify'
import { allowOnly } from '../../http/method-not-allowed.ts'
import { AllowedDirectoriesSchema, COMMON_ERRORS, ListAllowedDirectoriesBodySchema } from '../schemas.ts'
import type { ToolsOptions } from '../tools.ts'

const listAllowedDirectories: FastifyPluginAsync<ToolsOptions> = async (fastify, { tools }) => {
  allowOnly(fastify, '/list_allowed_directories', ['POST'])
  fastify.withTypeProvider<TypeBoxTypeProvider>().post('/list_allowed_directories', {
    schema: {
      operationId: 'list_allowed_directories',
      summary: 'List the directories that list_directory may be asked about',
      tags: ['files'],
      body: ListAllowedDirectoriesBodySchema,
      response: { 200: AllowedDirectoriesSchema, ...COMMON_ERRORS }
    },
    // "No body" is the documented request: it validates as the empty object.
    preValidation: async (request) => {
      if (request.body === undefined) request.body = {}
    }
  }, async () => tools.listAllowedDirectories())
}

export default listAllowedDirectories
