import { OAuth2Server } from 'oauth2-mock-server'

/**
 * A real OAuth 2.0 / OpenID Connect server on loopback (oauth2-mock-server): discovery, authorize,
 * token endpoint, JWKS, and JWTs signed RS256 with a key of its own.
 */
export async function startProvider (options: { trailingSlash?: boolean } = {}): Promise<OAuth2Server> {
  const server = new OAuth2Server(undefined, undefined, { shouldIssuerUrlBeSuffixedWithATralingSlash: options.trailingSlash ?? false })
  await server.issuer.keys.generate('RS256')
  await server.start(0, '127.0.0.1')
  // The address rather than the mock's default "localhost", which may resolve to ::1 first.
  server.issuer.url = `http://127.0.0.1:${server.address().port}`
  return server
}
