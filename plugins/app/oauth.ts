import fp from 'fastify-plugin'
import { AuthorizationServer } from '../../auth/authorization-server.ts'
import { ensureBootstrapClient } from '../../auth/bootstrap.ts'
import { SigningKeys } from '../../auth/keys.ts'
import { scopesOf } from '../../auth/scopes.ts'
import { TokenService } from '../../auth/tokens.ts'

declare module 'fastify' {
  interface FastifyInstance {
    oauth: { authorizationServer: AuthorizationServer, tokens: TokenService, keys: SigningKeys }
  }
}

/**
 * The built-in authorization server (its endpoints are routes/oauth), the tokens it issues and
 * the external issuer whose tokens are also accepted, all checked by plugins/app/bearer-guard.ts.
 * The first signing key and the bootstrap client are made once, however many instances start
 * together on one database.
 */
export default fp(async function oauth (fastify) {
  const { config, storage } = fastify
  const keys = await storage.exclusively(() =>
    SigningKeys.open(storage.signingKeys, storage.engine === 'sqlite' ? config.dataDir : undefined))
  const external = config.oauthIssuer === undefined
    ? undefined
    : { issuer: config.oauthIssuer, jwksUri: config.oauthJwksUri as string, audience: config.oauthAudience as string }
  const tokens = new TokenService(keys, {
    issuer: config.publicUrl,
    audience: `${config.publicUrl}/v1`,
    ttl: config.accessTokenTtl,
    external
  }, storage.accounts)
  await storage.accounts.forgetExpired()
  const scopes = scopesOf(fastify.collections.resources)
  await storage.exclusively(() => ensureBootstrapClient(storage.accounts, config, scopes, fastify.announce))
  const authorizationServer = new AuthorizationServer(storage.accounts, tokens, config.refreshTokenTtl, scopes)
  fastify.decorate('oauth', { authorizationServer, tokens, keys })
}, { name: 'oauth', dependencies: ['storage'] })
