import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { scopesOf } from '../../auth/scopes.ts'
import { errors } from '../../schemas/responses.ts'

export const autoPrefix = '/.well-known'

/** Authorization-server metadata (RFC 8414) and the keys that sign access tokens. */
const wellKnown: FastifyPluginAsyncTypebox = async (fastify) => {
  const { config } = fastify
  fastify.get('/oauth-authorization-server', {
    schema: {
      operationId: 'getAuthorizationServerMetadata',
      summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
      description: 'The issuer, its endpoints, grants and scopes: what a client library needs to get tokens.',
      tags: ['oauth'],
      response: { 200: Type.Object({}, { additionalProperties: true, description: 'The metadata' }), ...errors() }
    }
  }, async () => ({
    issuer: config.publicUrl,
    token_endpoint: `${config.publicUrl}/oauth/token`,
    revocation_endpoint: `${config.publicUrl}/oauth/revoke`,
    jwks_uri: `${config.publicUrl}/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials', 'password', 'refresh_token'],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: scopesOf(fastify.collections.resources)
  }))

  fastify.get('/jwks.json', {
    schema: {
      operationId: 'getJwks',
      summary: 'The public keys that verify access tokens',
      description: 'A JSON Web Key Set (RFC 7517) holding the ES256 keys the access tokens are signed with: the newest signs, ' +
        'the others verify the tokens they signed before a rotation.',
      tags: ['oauth'],
      response: {
        200: Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) }, { description: 'The key set' }),
        ...errors()
      }
    }
  }, async () => {
    // Every instance's keys: one made or rotated elsewhere is published here at once.
    await fastify.oauth.keys.reload()
    return { keys: fastify.oauth.keys.publicJwks() }
  })
}

export default wellKnown
