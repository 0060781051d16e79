import formbody from '@fastify/formbody'
import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { OAuthError, type TokenRequest } from '../../auth/authorization-server.js'
import { noStore } from '../../http/cache-control.js'
import { BODY_READ, errorResponses, errors } from '../../schemas/responses.js'
import { TokenSchema } from '../../schemas/token.js'

const Param = Type.Optional(Type.String())
const TokenBody = Type.Object({
  grant_type: Param, scope: Param, username: Param, password: Param, refresh_token: Param, client_id: Param, client_secret: Param
}, { additionalProperties: true, description: 'application/x-www-form-urlencoded (RFC 6749 §4)' })
const RevokeBody = Type.Object({ token: Param, token_type_hint: Param, client_id: Param, client_secret: Param }, { additionalProperties: true })
const OAuthErrorSchema = Type.Object({ error: Type.String(), error_description: Type.String() })
// Every failure the error handler below renders speaks RFC 6749; the HTTPS refusal of TLS=proxy does not.
const ERRORS = { ...errors(), ...errorResponses(OAuthErrorSchema, [...BODY_READ, 401, 406, 429, 500]) }

/** The built-in authorization server's endpoints: token (RFC 6749) and revoke (RFC 7009). */
const oauthRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(formbody)
  // Errors here speak RFC 6749: `error` is the code, `error_description` the reason.
  fastify.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const failure = error instanceof OAuthError
      ? error
      : error.validation !== undefined
        ? new OAuthError(400, 'invalid_request', `${error.message}; each parameter may be given once`)
        : error.statusCode === 415
          ? new OAuthError(415, 'invalid_request', 'send the parameters as application/x-www-form-urlencoded')
          : error.statusCode !== undefined && error.statusCode < 500
            ? new OAuthError(error.statusCode, 'invalid_request', error.message)
            : undefined
    if (failure === undefined) {
      request.log.error({ err: error }, 'token endpoint failed')
      return noStore(reply).code(500).send({ error: 'server_error', error_description: 'Internal server error' })
    }
    return noStore(reply).code(failure.statusCode).headers(failure.headers).send({ error: failure.code, error_description: failure.message })
  })

  fastify.post('/token', {
    schema: {
      operationId: 'issueToken',
      summary: 'Issue an access token: client_credentials, password or refresh_token grant',
      description: 'RFC 6749: parameters as application/x-www-form-urlencoded, the client authenticated by HTTP Basic or client_id and client_secret in the body. ' +
        'Answers a JWT access token (RFC 9068, ES256) and, for the password and refresh_token grants, a refresh token, rotated on every use. ' +
        'Errors carry an RFC 6749 code in error; a wrong client secret, user name or password is 401.',
      tags: ['oauth'],
      consumes: ['application/x-www-form-urlencoded'],
      body: TokenBody,
      response: { 200: { ...TokenSchema, description: 'The tokens, never to be cached' }, ...ERRORS }
    }
  }, async (request, reply) => {
    const body = request.body as TokenRequest
    const response = await fastify.oauth.authorizationServer.token({ ...body, authorization: request.headers.authorization })
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
      response: { 200: Type.Null({ description: 'Revoked, or nothing this client could revoke' }), ...ERRORS }
    }
  }, async (request, reply) => {
    await fastify.oauth.authorizationServer.revoke({ ...(request.body as { token?: string }), authorization: request.headers.authorization })
    return noStore(reply).code(200).send()
  })
}

export default oauthRoutes
