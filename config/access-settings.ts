// Who may call: tokens, clients, sign-in through a provider, and the local tool server: groups of
// the settings catalogue (config/settings.ts).
import {
  allowedDirectories, apiKey, clientId, host, integer, optional, port, providerName, secret, secureUrl, userScope
} from './parsers.ts'
import type { AnySetting } from './setting.ts'

/** Tokens and clients: the built-in authorization server and an external issuer. */
export const TOKENS = {
  accessTokenTtl: {
    env: 'ACCESS_TOKEN_TTL',
    description: 'access-token lifetime in seconds, 30 to 86400',
    default: '900',
    parse: integer(30, 86400, 'seconds')
  },
  refreshTokenTtl: {
    env: 'REFRESH_TOKEN_TTL',
    description: 'refresh-token lifetime in seconds, 60 to 31536000 (each rotation starts it again)',
    default: '2592000',
    parse: integer(60, 31536000, 'seconds')
  },
  bootstrapClientId: {
    env: 'BOOTSTRAP_CLIENT_ID',
    description: 'id of the client with every scope that a fresh data directory gets (3 to 100 characters among letters, digits ' +
      'and `- . _ ~`); generated when not set',
    default: '',
    parse: optional(clientId)
  },
  bootstrapClientSecret: {
    env: 'BOOTSTRAP_CLIENT_SECRET',
    description: 'its secret, 16 characters or more; when not set, generated and printed once at first start',
    default: '',
    parse: optional(secret)
  },
  oauthIssuer: {
    env: 'OAUTH_ISSUER',
    description: 'an external authorization server (Keycloak, Auth0, Entra ID, ...) whose JWT access tokens the API also accepts: ' +
      'exactly the `iss` of its tokens, trailing slash included when it has one. Needs OAUTH_JWKS_URI and ' +
      'OAUTH_AUDIENCE',
    default: '',
    parse: optional(secureUrl)
  },
  oauthJwksUri: {
    env: 'OAUTH_JWKS_URI',
    description: 'where the external issuer publishes its public keys (its metadata\'s `jwks_uri`); fetched and cached',
    default: '',
    parse: optional(secureUrl)
  },
  oauthAudience: {
    env: 'OAUTH_AUDIENCE',
    description: 'the `aud` the external tokens must carry to be accepted here',
    default: '',
    parse: optional((raw: string) => raw)
  }
} satisfies Record<string, AnySetting>

/** Sign-in through a provider: users who sign in with an OpenID Connect provider at /login/<name>. */
export const SIGN_IN = {
  loginProvider: {
    env: 'LOGIN_PROVIDER',
    description: 'a short name (lower-case letters, digits and `-`) for the OpenID Connect provider users sign in with at ' +
      '`/login/<name>`; needs LOGIN_ISSUER, LOGIN_CLIENT_ID and LOGIN_CLIENT_SECRET',
    default: '',
    parse: optional(providerName)
  },
  loginIssuer: {
    env: 'LOGIN_ISSUER',
    description: 'the provider\'s issuer URL, exactly as its ID tokens say; its endpoints are read from ' +
      '`<issuer>/.well-known/openid-configuration` at start-up',
    default: '',
    parse: optional(secureUrl)
  },
  loginClientId: {
    env: 'LOGIN_CLIENT_ID',
    description: 'this API\'s client id at the provider',
    default: '',
    parse: optional((raw: string) => raw)
  },
  loginClientSecret: {
    env: 'LOGIN_CLIENT_SECRET',
    description: 'this API\'s client secret at the provider',
    default: '',
    parse: optional((raw: string) => raw)
  },
  loginUserScope: {
    env: 'LOGIN_USER_SCOPE',
    description: 'the API scopes a user gets when first signing in; when not set, the read scope of every collection',
    default: '',
    parse: optional(userScope)
  }
} satisfies Record<string, AnySetting>

/** The local tool server: its listener, its key and the directories it may list. */
export const LOCAL = {
  localHost: {
    env: 'LOCAL_HOST',
    description: 'address the local tool server listens on (plain HTTP); anything but `localhost`, 127.0.0.0/8 or `::1` also needs ' +
      'LOCAL_API_KEY, else start-up stops',
    default: '127.0.0.1',
    parse: host
  },
  localPort: { env: 'LOCAL_PORT', description: 'port the local tool server listens on', default: '8000', parse: port },
  localApiKey: {
    env: 'LOCAL_API_KEY',
    description: 'when set, both operations of the local tool server need `Authorization: Bearer <key>`; at least 16 characters ' +
      'among letters, digits and `- . _ ~ + /` (`=` padding allowed)',
    default: '',
    parse: apiKey
  },
  allowedDirs: {
    env: 'ALLOWED_DIRS',
    flag: 'allow',
    description: 'directories the local tool server may list, separated by `:` (`;` on Windows), made absolute; each must exist ' +
      'and be a directory. The `--allow` flags, one directory each, replace the variable',
    default: '',
    parse: allowedDirectories
  }
} satisfies Record<string, AnySetting>
