import type { Static } from '@sinclair/typebox'
import type { FastifySchemaValidationError } from 'fastify'
import type { AllowedDirectory } from '../config/index.ts'
import { HttpError } from '../http/errors.ts'
import { fieldErrors, validatorCompiler } from '../http/validation.ts'
import { decodeCursor, DirectoryLister } from './directory-listing.ts'
import { PathGuard } from './path-guard.ts'
import {
  AllowedDirectoriesSchema, DirectoryPageSchema, LIST_LIMIT, ListAllowedDirectoriesBodySchema, ListDirectoryBodySchema,
  type ListDirectoryBody
} from './schemas.ts'

/** Every malformed request is a 400 here, with one message naming each problem. */
export function invalidRequest (errors: FastifySchemaValidationError[], part: string): HttpError {
  return new HttpError(400, [...new Set(fieldErrors(errors, part).map(f => f.message))].join('; '))
}

type Check = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null }

/** The check Fastify makes of a route's body, and the refusal it answers with. */
function bodyCheck<T> (schema: object): (body: unknown) => T {
  const check = validatorCompiler({ schema, method: 'POST', url: '', httpPart: 'body' }) as Check
  return body => {
    if (!check(body)) throw invalidRequest(check.errors ?? [], 'body')
    return body as T
  }
}

/** What each face's plugin is given: the one set of tools. */
export interface ToolsOptions {
  tools: LocalTools
}

/**
 * The local tool server's two operations, one implementation behind both of its faces: the
 * OpenAPI routes (local/routes) and the MCP tools (local/routes/mcp.ts). A refusal is an
 * HttpError, whose status the routes answer with and whose message both faces give.
 */
export class LocalTools {
  readonly #directories: string[]
  readonly #guard: PathGuard
  readonly #lister: DirectoryLister
  /** The routes' checks of their bodies, for arguments that did not come through a route. */
  readonly checkListAllowedDirectories = bodyCheck<Static<typeof ListAllowedDirectoriesBodySchema>>(ListAllowedDirectoriesBodySchema)
  readonly checkListDirectory = bodyCheck<ListDirectoryBody>(ListDirectoryBodySchema)

  constructor (dirs: readonly AllowedDirectory[]) {
    this.#directories = dirs.map(d => d.path)
    this.#guard = new PathGuard(dirs)
    this.#lister = new DirectoryLister({ guard: this.#guard })
  }

  listAllowedDirectories (): Static<typeof AllowedDirectoriesSchema> {
    return { directories: [...this.#directories] }
  }

  async listDirectory ({ path, limit = LIST_LIMIT.default, cursor }: ListDirectoryBody): Promise<Static<typeof DirectoryPageSchema>> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor)
    const target = await this.#guard.check(path)
    const page = await this.#lister.page(target.realPath, limit, after)
    return { path: target.path, entries: page.entries, next_cursor: page.nextCursor }
  }
}
