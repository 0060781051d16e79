import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyPluginAsync } from 'fastify'
import { unsupportedMediaType } from '../../http/errors.ts'
import { allowOnly } from '../../http/method-not-allowed.ts'
import { COMMON_ERRORS, DirectoryPageSchema, ListDirectoryBodySchema, localError } from '../schemas.ts'
import type { ToolsOptions } from '../tools.ts'

const listDirectory: FastifyPluginAsync<ToolsOptions> = async (fastify, { tools }) => {
  allowOnly(fastify, '/list_directory', ['POST'])
  fastify.withTypeProvider<TypeBoxTypeProvider>().post('/list_directory', {
    schema: {
      operationId: 'list_directory',
      summary: 'List one page of a directory: entries sorted by name, symbolic links not followed',
      tags: ['files'],
      body: ListDirectoryBodySchema,
      response: {
        200: DirectoryPageSchema,
        ...COMMON_ERRORS,
        400: localError('Bad body or cursor; path missing, empty, relative, with a null byte, or not a directory'),
        403: localError('Outside the allowed directories (also through a symbolic link or by letter case), no permission, the path ' +
            'changed while it was being listed, or not a loopback request'),
        404: localError('No such directory')
      }
    },
    // A request without any body never meets the content-type parser that answers 415.
    preValidation: async (request) => {
      if (request.headers['content-type'] === undefined) throw unsupportedMediaType(request)
    }
  }, async (request) => tools.listDirectory(request.body))
}

export default listDirectory
