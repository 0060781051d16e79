import { Type, type Static } from '@sinclair/typebox'
import { FieldErrorSchema, SafeInteger } from '../model/values.ts'

/** The body of every 4xx and 5xx answer. */
export const ErrorSchema = Type.Object({
  error: Type.String({ description: 'Human-readable message' }),
  errors: Type.Optional(Type.Array(FieldErrorSchema)),
  message: Type.Optional(Type.String()),
  documentation_url: Type.Optional(Type.String({ format: 'uri' })),
  request_id: Type.Optional(Type.String()),
  operation: Type.Optional(SafeInteger({ minimum: 0, description: 'In the answer of a batch: the index of the operation refused' }))
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
