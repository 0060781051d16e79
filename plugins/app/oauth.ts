import fp from 'fastify-plugin'
import { AuthorizationServer } from '../../auth/authorization-server.js'
import { ensureBootstrapClient } from '../../auth/bootstrap.js'
import { loadOrCreateSigningKey, type SigningKey } from '../../auth/keys.js'
import { TokenService } from '../../auth/tokens.js'
import { OAuthStore } from '../../store/oauth.js'

declare module 'fastify' {
  interface FastifyInstance {
    oauth: { authorizationServer: AuthorizationServer, tokens: TokenService, key: SigningKey, store: OAuthStore }
  }
}

/**
 * The built-in authorization server (its endpoints are routes/oauth), the tokens it issues and
 * the external issuer whose tokens are also accepted, all checked by plugins/app/bearer-guard.ts.
 */
export default fp(async function oauth (fastify) {
  const config = fastify.config
  const store = new OAuthStore(fastify.db)
  const key = await loadOrCreateSigningKey(config.dataDir)
  const external = config.oauthIssuer === undefined
    ? undefined
    : { issuer: config.oauthIssuer, jwksUri: config.oauthJwksUri as string, audience: config.oauthAudience as string }
  const tokens = new TokenService(key, {
    issuer: config.publicUrl,
    audience: `${config.publicUrl}/v1`,
    ttl: config.accessTokenTtl,
    external
  }, store.revokedAccessTokens())
  await ensureBootstrapClient(store, config, fastify.announce)
  fastify.decorate('oauth', { authorizationServer: new AuthorizationServer(store, tokens, config.refreshTokenTtl), tokens, key, store })
}, { name: 'oauth', dependencies: ['sqlite'] })
