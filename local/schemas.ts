import { Type, type Static } from '@sinclair/typebox'
import { Nullable, TimestampSchema } from '../model/values.ts'

/** `limit` of list_directory. */
export const LIST_LIMIT = { default: 1000, max: 10000 } as const

export const ListAllowedDirectoriesBodySchema = Type.Object({}, {
  additionalProperties: false,
  description: 'No members: send {} (a request without a body is taken as {})'
})

export const AllowedDirectoriesSchema = Type.Object({
  directories: Type.Array(Type.String(), {
    description: 'Absolute, as configured; list_directory accepts them and paths under them, with the same letter case'
  })
}, { additionalProperties: false, description: 'The directories that may be listed' })

export const ListDirectoryBodySchema = Type.Object({
  path: Type.String({
    minLength: 1,
    maxLength: 32767,
    description: 'Absolute path of a directory: an allowed directory or one under it, letter case as listed by list_allowed_directories'
  }),
  limit: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: LIST_LIMIT.max,
    default: LIST_LIMIT.default,
    description: 'Most entries in this page'
  })),
  cursor: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 2048,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'next_cursor of the previous page, to get the page after it'
  }))
}, { additionalProperties: false })
export type ListDirectoryBody = Static<typeof ListDirectoryBodySchema>

export const ENTRY_TYPES = ['file', 'directory', 'symlink', 'other'] as const

export const EntrySchema = Type.Object({
  name: Type.String(),
  type: Type.Unsafe<typeof ENTRY_TYPES[number]>({
    type: 'string',
    enum: [...ENTRY_TYPES],
    description: 'What the entry itself is: a symbolic link is "symlink" and is not followed'
  }),
  size: Nullable(Type.Integer({ minimum: 0, description: 'Bytes of a regular file; null for anything else' })),
  modified: TimestampSchema
}, { additionalProperties: false })
export type Entry = Static<typeof EntrySchema>

export const DirectoryPageSchema = Type.Object({
  path: Type.String({ description: 'The requested path, normalized' }),
  entries: Type.Array(EntrySchema, { description: 'Sorted by name in Unicode code point order' }),
  next_cursor: Nullable(Type.String({ description: 'Send it as cursor to get the next page; null on the last page' }))
}, { additionalProperties: false, description: 'One page of the directory' })

/** The body of every error; the description says when the status is answered. */
export const localError = (description: string) => Type.Object({
  error: Type.String({ description: 'What went wrong; a 403 reads "Access denied - <reason>"' }),
  request_id: Type.Optional(Type.String({ description: 'On a 500: the request id in the server log' }))
}, { additionalProperties: false, description })

/** The answers to errors every operation may get. */
export const COMMON_ERRORS = {
  400: localError('The body is not JSON or not what the operation takes'),
  401: localError('LOCAL_API_KEY is set and Authorization does not carry it'),
  403: localError('Not a loopback request (Host or Origin), or access denied'),
  413: localError('The body is larger than the 64 KiB this server accepts'),
  415: localError('Content-Type is not application/json'),
  500: localError('Server fault')
} as const
