import formbody from '@fastify/formbody'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { BASIC_CHALLENGE, OAuthError } from '../../auth/authorization-server.ts'
import { noStore } from '../../http/cache-control.ts'
import { errorHandler, HttpError } from '../../http/errors.ts'
import { allowOnly } from '../../http/method-not-allowed.ts'
import { challengeFor } from '../../http/pages.ts'
import { BODY_READ, CLIENT_AUTHENTICATION, errorResponses, errors } from '../../schemas/responses.ts'
import { TokenSchema } from '../../schemas/token.ts'

const Param = Type.Optional(Type.String())
const TokenBody = Type.Object({
  grant_type: Param, scope: Param, username: Param, password: Param, refresh_token: Param, client_id: Param, client_secret: Param
}, { additionalProperties: true, description: 'application/x-www-form-urlencoded (RFC 6749 §4)' })
const RevokeBody = Type.Object(
  { token: Param, token_type_hint: Param, client_id: Param, client_secret: Param },
  { additionalProperties: true }
)
/** An error answer of RFC 6749 §5.2, its code one of `codes` when given. */
const oauthError = (codes?: string[]) => Type.Object({
  error: Type.String(codes === undefined ? {} : { enum: codes }),
  error_description: Type.String({ description: 'Why, in words' })
}, { additionalProperties: false })
// Every failure the error handler below renders speaks RFC 6749; the HTTPS refusal of TLS=proxy does not.
const ERRORS = { ...errors(), ...errorResponses(oauthError(), [...BODY_READ, 401, 406, 429, 500, 503]) }

/** The challenge of a client whose HTTP Basic credentials failed. */
const BasicChallengeSchema = Type.String({
  enum: [BASIC_CHALLENGE],
  description: 'Sent when the client tried HTTP Basic (RFC 7617); left out for a request a page\'s script made ' +
    '(Sec-Fetch-Dest: empty, or X-Requested-With: XMLHttpRequest), so that the browser puts up no sign-in dialog of its own'
})

/**
 * The 400 and 401 of an endpoint that authenticates its client: the codes each may carry besides
 * invalid_request (400) and invalid_client (401), the 401's with what each means.
 */
function clientErrors (refused: string[], unauthorized: Record<string, string> = {}) {
  return {
    400: {
      ...oauthError(['invalid_request', ...refused]),
      description: 'The form parameters (application/x-www-form-urlencoded) cannot be used, said as RFC 6749 §5.2 says: ' +
        'invalid_request for one missing or given twice, or a client authenticated both by HTTP Basic and by client_secret' +
        refused.map(code => `; ${code}`).join('')
    },
    401: {
      ...oauthError(['invalid_client', ...Object.keys(unauthorized)]),
      description: 'invalid_client: an unknown client, a wrong secret, or none sent' +
        Object.entries(unauthorized).map(([code, meaning]) => `; ${code}: ${meaning}`).join(''),
      headers: { 'WWW-Authenticate': BasicChallengeSchema }
    }
  }
}

/** The built-in authorization server's endpoints: token (RFC 6749) and revoke (RFC 7009). */
const oauthRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  await fastify.register(formbody)
  // Errors here speak RFC 6749: `error` is the code, `error_description` the reason.
  fastify.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // A method the path does not serve (405 with Allow, or a 406 before it) is answered like on every other path: that
    // route is no OAuth endpoint, and is left out of the document (http/method-not-allowed.ts).
    if (error instanceof HttpError && request.routeOptions.schema?.hide === true) return errorHandler(error, request, reply)
    const failure = error instanceof OAuthError
      ? error
      : error.validation !== undefined
        ? new OAuthError(400, 'invalid_request', `${error.message}; each parameter may be given once`)
        : error.statusCode === 415
          ? new OAuthError(415, 'invalid_request', 'send the parameters as application/x-www-form-urlencoded')
          : error.statusCode !== undefined && error.statusCode < 500
            ? new OAuthError(error.statusCode, 'invalid_request', error.message)
            // Overloaded (plugins/app/overload.ts): Retry-After is already set.
            : error.statusCode === 503 ? new OAuthError(503, 'temporarily_unavailable', error.message) : undefined
    if (failure === undefined) {
      request.log.error({ err: error }, 'token endpoint failed')
      return noStore(reply).code(500).send({ error: 'server_error', error_description: 'Internal server error' })
    }
    return noStore(reply).code(failure.statusCode).headers(challengeFor(request, failure.headers))
      .send({ error: failure.code, error_description: failure.message })
  })

  allowOnly(fastify, '/token', ['POST'])
  allowOnly(fastify, '/revoke', ['POST'])
  fastify.post('/token', {
    schema: {
      operationId: 'issueToken',
      summary: 'Issue an access token: client_credentials, password or refresh_token grant',
      description: 'How to get a token: a fresh data directory has a bootstrap client with every scope, whose id and secret the first ' +
        'start prints as an export line (CLIENT_ID, CLIENT_SECRET); more clients come from npm run cli -- client create --scope ' +
            '"zoos:read". ' +
        'POST grant_type=client_credentials here with the client\'s id and secret as HTTP Basic, then send the access_token as ' +
        'Authorization: Bearer <access_token> on every /v1 request. ' +
        'RFC 6749: parameters as application/x-www-form-urlencoded, the client authenticated by HTTP Basic or client_id and ' +
            'client_secret in the body. ' +
        'Answers a JWT access token (RFC 9068, ES256) and, for the password and refresh_token grants, a refresh token, rotated on every ' +
            'use. ' +
        'Errors carry an RFC 6749 code in error; a wrong client secret, user name or password is 401.',
      tags: ['oauth'],
      consumes: ['application/x-www-form-urlencoded'],
      body: TokenBody,
      security: CLIENT_AUTHENTICATION,
      response: {
        200: { ...TokenSchema, description: 'The tokens, never to be cached' },
        ...ERRORS,
        ...clientErrors(['unsupported_grant_type', 'unauthorized_client', 'invalid_scope'], {
          invalid_grant: 'a wrong user name or password, or a refresh token that is unknown, expired, revoked or another client\'s'
        })
      }
    }
  }, async (request, reply) => {
    const { authorization } = request.headers
    const response = await fastify.oauth.authorizationServer.token({ ...request.body, authorization, address: request.ip })
    return noStore(reply).send(response)
  })

  fastify.post('/revoke', {
    schema: {
      operationId: 'revokeToken',
      summary: 'Revoke an access or refresh token (RFC 7009)',
      description: 'The client that holds the token authenticates as for the token endpoint; 200 whether or not the token was known.',
      tags: ['oauth'],
      consumes: ['application/x-www-form-urlencoded'],
      body: RevokeBody,
      security: CLIENT_AUTHENTICATION,
      response: { 200: Type.Null({ description: 'Revoked, or nothing this client could revoke' }), ...ERRORS, ...clientErrors([]) }
    }
  }, async (request, reply) => {
    await fastify.oauth.authorizationServer.revoke({ ...request.body, authorization: request.headers.authorization, address: request.ip })
    return noStore(reply).code(200).send()
  })
}

export default oauthRoutes
