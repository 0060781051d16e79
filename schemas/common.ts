import { Type, type Static, type TSchema } from '@sinclair/typebox'

export const IdSchema = Type.Integer({
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'Identifier assigned by the server, ' +
    'never reused'
})
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

/** The body of every 4xx and 5xx answer. */
export const ErrorSchema = Type.Object({
  error: Type.String({ description: 'Human-readable message' }),
  errors: Type.Optional(Type.Array(FieldErrorSchema)),
  message: Type.Optional(Type.String()),
  documentation_url: Type.Optional(Type.String({ format: 'uri' })),
  request_id: Type.Optional(Type.String()),
  operation: Type.Optional(Type.Integer({ minimum: 0, description: 'In the answer of a batch: the index of the operation refused' }))
}, { additionalProperties: false })
export type ErrorBody = Static<typeof ErrorSchema>

/** A hypermedia link. */
export const LinkSchema = Type.Object({
  rel: Type.String(),
  href: Type.String({ format: 'uri' }),
  title: Type.String(),
  type: Type.String()
}, { additionalProperties: false })
export type Link = Static<typeof LinkSchema>

export const RootSchema = Type.Object({
  link: LinkSchema,
  links: Type.Array(LinkSchema)
}, { additionalProperties: false })

export const OptionsSchema = Type.Object({
  methods: Type.Array(Type.String()),
  writable: Type.Array(Type.String()),
  schema: Type.Unknown({ description: 'JSON Schema of the writable fields' })
}, { additionalProperties: false })

/** The querystring of a route that takes no parameter: any one is 400. */
export const NoQuerySchema = Type.Object({}, { additionalProperties: false })

/** Pagination and sorting parameters shared by every collection read. */
export const PAGE_SIZE = { default: 20, max: 100 } as const
