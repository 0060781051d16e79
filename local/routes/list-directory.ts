import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyPluginAsync } from 'fastify'
import { unsupportedMediaType } from '../../http/errors.ts'
import { allowOnly } from '../../http/method-not-allowed.ts'
import { decodeCursor, type DirectoryLister } from '../directory-listing.ts'
import type { PathGuard } from '../path-guard.ts'
import { COMMON_ERRORS, DirectoryPageSchema, LIST_LIMIT, ListDirectoryBodySchema, localError } from '../schemas.ts'

export interface ListDirectoryOptions {
  guard: PathGuard
  lister: DirectoryLister
}

const listDirectory: FastifyPluginAsync<ListDirectoryOptions> = async (fastify, { guard, lister }) => {
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
  }, async (request) => {
    const { path, limit = LIST_LIMIT.default, cursor } = request.body
    const after = cursor === undefined ? undefined : decodeCursor(cursor)
    const target = await guard.check(path)
    const page = await lister.page(target.realPath, limit, after)
    return { path: target.path, entries: page.entries, next_cursor: page.nextCursor }
  })
}

export default listDirectory
