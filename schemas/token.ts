import { Type } from '@sinclair/typebox'
import { SafeInteger } from '../model/values.ts'

/** The answer of the token endpoint and of a sign-in (RFC 6749 §5.1). */
export const TokenSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: SafeInteger({ minimum: 1, description: 'Seconds the access token lives from now' }),
  scope: Type.String(),
  refresh_token: Type.Optional(Type.String())
})
