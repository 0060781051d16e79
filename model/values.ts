import { Type, type IntegerOptions, type Static, type TSchema } from '@sinclair/typebox'

/**
 * An integer as JSON keeps it exact, within ±(2^53 − 1): the 64-bit integers of both engines
 * (SQLite's INTEGER, PostgreSQL's bigint) that a double holds. `options` narrow the range.
 */
export const SafeInteger = (options: IntegerOptions = {}) =>
  Type.Integer({ format: 'int64', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...options })

export const IdSchema = SafeInteger({ minimum: 1, description: 'Identifier assigned by the server, never reused' })
export const DateSchema = Type.String({ format: 'date', description: 'Calendar date, YYYY-MM-DD' })
export const TimestampSchema = Type.String({ format: 'date-time', description: 'RFC 3339 UTC timestamp' })

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const FieldErrorSchema = Type.Object({
  field: Type.String({ description: 'Dotted path of the offending member; "" for the body or parameter as a whole' }),
  code: Type.String({
    description: 'Machine-readable reason: required, unknown, type, format, length, range, pattern, enum, not_found, ' +
      'unique, ...'
  }),
  message: Type.String()
}, { additionalProperties: false })
export type FieldError = Static<typeof FieldErrorSchema>

/** Pagination and sorting parameters shared by every collection read. */
export const PAGE_SIZE = { default: 20, max: 100 } as const
