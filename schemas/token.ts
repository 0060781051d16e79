import { Type } from '@sinclair/typebox'

/** The answer of the token endpoint and of a sign-in (RFC 6749 §5.1). */
export const TokenSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  scope: Type.String(),
  refresh_token: Type.Optional(Type.String())
})
