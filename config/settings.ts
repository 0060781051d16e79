// The settings catalogue, grouped by concern. Each group is an object of settings; SETTINGS is all
// of them, which config/load.ts reads, usage (`--help`) lists and `npm run docs` writes into
// docs/configuration.md, group by group.
import { join } from 'node:path'
import {
  allowedDirectories, apiKey, clientId, count, databaseUrl, directory, host, integer, logFormat, logLevel, optional, origins,
  pathPrefix, port, providerName, proxies, readableFile, redisUrl, secret, secureUrl, tlsMode, url, userScope
} from './parsers.ts'

export interface Setting<T> {
  /** Environment variable; the CLI flag is the same name in lower case with dashes (`--data-dir`). */
  env: string
  description: string
  default: string
  parse: (raw: string, env: string) => T
}

/**
 * A setting that holds several values: the environment variable separates them with the
 * platform's path delimiter (`:`, or `;` on Windows); the CLI flag is repeated, one value each
 * time, so a value may contain the delimiter. Flags given at all replace the variable.
 */
export interface ListSetting<T> {
  env: string
  flag: string
  description: string
  default: string
  parse: (items: string[], source: string) => T
}

export type AnySetting = Setting<unknown> | ListSetting<unknown>

/** Listening and TLS: where the API listens, how it speaks TLS and the URL clients know it by. */
const LISTENING = {
  host: { env: 'HOST', description: 'address the API listens on', default: '127.0.0.1', parse: host },
  port: { env: 'PORT', description: 'port the API listens on', default: '8443', parse: port },
  apiPrefix: {
    env: 'API_PREFIX',
    description: 'path prefix the whole API is mounted under, such as `/api`; hrefs and the documentation include it',
    default: '',
    parse: pathPrefix
  },
  tls: {
    env: 'TLS',
    description: '`on`: the API serves HTTPS only (HTTP/2, and HTTP/1.1 through ALPN); `proxy`: plain HTTP behind a ' +
      'TLS-terminating proxy, refusing requests whose `X-Forwarded-Proto` is not `https`',
    default: 'on',
    parse: tlsMode
  },
  tlsCert: {
    env: 'TLS_CERT',
    description: 'PEM certificate file (leaf first, then the chain); without it and TLS_KEY, a self-signed certificate is made in ' +
      '`DATA_DIR/tls/`',
    default: '',
    parse: optional(readableFile)
  },
  tlsKey: {
    env: 'TLS_KEY',
    description: 'PEM private key file of TLS_CERT, unencrypted; set both or neither',
    default: '',
    parse: optional(readableFile)
  },
  httpRedirectPort: {
    env: 'HTTP_REDIRECT_PORT',
    description: 'when set, a plain-HTTP listener on this port (same HOST) answers every request with 308 to the `https://` URL',
    default: '',
    parse: optional(port)
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    description: 'the URL clients use to reach the API: the `iss` of its tokens and the base of the OAuth metadata; when not set, ' +
      '`https://localhost:PORT` plus API_PREFIX. Set it behind a proxy or on another host name',
    default: '',
    parse: optional(url)
  }
} satisfies Record<string, AnySetting>

/** Storage: where the data live: SQLite in the data directory, or PostgreSQL shared by several instances. */
const STORAGE = {
  dataDir: {
    env: 'DATA_DIR',
    description: 'directory of the SQLite database `zoo.db`, the token signing key and the self-signed certificate (`tls/`); ' +
      'created if missing',
    default: './data',
    parse: directory
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    description: 'a PostgreSQL database (`postgres://user:password@host:5432/database`, libpq parameters such as `sslmode` and ' +
      '`options` allowed) to keep everything in instead of SQLite in DATA_DIR: several instances may then share it',
    default: '',
    parse: optional(databaseUrl)
  },
  databasePoolSize: {
    env: 'DATABASE_POOL_SIZE',
    description: 'connections each instance keeps open to DATABASE_URL at most',
    default: '10',
    parse: integer(1, 1000, 'connections')
  },
  databaseStatementTimeout: {
    env: 'DATABASE_STATEMENT_TIMEOUT',
    description: 'milliseconds a statement may run on DATABASE_URL before PostgreSQL cancels it (the request then answers 500)',
    default: '10000',
    parse: integer(100, 600000, 'milliseconds')
  },
  redisUrl: {
    env: 'REDIS_URL',
    description: 'a Redis server (`redis://host:6379`, `rediss://` for TLS) that keeps the rate-limit counters, so that every ' +
      'instance counts a client\'s requests to all of them; without it each instance counts its own',
    default: '',
    parse: optional(redisUrl)
  },
  unpackDir: {
    env: 'UNPACK_DIR',
    description: 'single binary only: the folder it unpacks what must be on disk into (the SQLite addon, the documentation ' +
      'UI); created 0700, it must be this user\'s alone and on a file system that allows executing code. Default `DATA_DIR/unpacked`',
    default: '',
    parse: optional(directory)
  }
} satisfies Record<string, AnySetting>

/** Requests and their limits: what a request may be and how many a client may send. */
const REQUESTS = {
  bodyLimit: {
    env: 'BODY_LIMIT',
    description: 'largest request body accepted, in bytes; a larger one is answered 413',
    default: '1048576',
    parse: integer(1024, 104857600, 'bytes')
  },
  headersTimeout: {
    env: 'HEADERS_TIMEOUT',
    description: 'seconds an HTTP/1.1 client has to send the headers of a request before its connection is closed',
    default: '10',
    parse: integer(1, 600, 'seconds')
  },
  requestTimeout: {
    env: 'REQUEST_TIMEOUT',
    description: 'seconds an HTTP/1.1 client has to send a whole request, body included, before it is answered 408 and its ' +
      'connection closed',
    default: '30',
    parse: integer(1, 3600, 'seconds')
  },
  lingerTimeout: {
    env: 'LINGER_TIMEOUT',
    description: 'seconds an HTTP/1.1 connection stays open, half-closed, after an answer given while the client is still ' +
      'sending its body (a 413 for a body over BODY_LIMIT, or a refusal given before the body is read): what the client ' +
      'still sends is read and dropped, so that the client reads the answer rather than a reset',
    default: '5',
    parse: integer(1, 60, 'seconds')
  },
  lingerBytes: {
    env: 'LINGER_BYTES',
    description: 'bytes of such a body read and dropped at most before the connection is closed: a client that sends no ' +
      'more than that after the answer, within LINGER_TIMEOUT, reads it even if it reads only once it has sent everything',
    default: '16777216',
    parse: integer(0, 1073741824, 'bytes')
  },
  keepAliveTimeout: {
    env: 'KEEP_ALIVE_TIMEOUT',
    description: 'seconds an idle connection (HTTP/1.1 keep-alive, or an HTTP/2 session) stays open; longer than the idle ' +
      'timeout of a load balancer in front, so that the balancer closes first',
    default: '72',
    parse: integer(1, 3600, 'seconds')
  },
  maxHeaderSize: {
    env: 'MAX_HEADER_SIZE',
    description: 'largest header block of a request, in bytes (HTTP/1.1 answers 431 beyond it; HTTP/2 refuses the stream)',
    default: '16384',
    parse: integer(1024, 1048576, 'bytes')
  },
  http2MaxStreams: {
    env: 'HTTP2_MAX_STREAMS',
    description: 'requests one HTTP/2 connection may have in flight at once',
    default: '100',
    parse: integer(1, 10000, 'streams')
  },
  maxEventLoopDelay: {
    env: 'MAX_EVENT_LOOP_DELAY',
    description: 'milliseconds of event-loop delay beyond which the API answers 503 with `Retry-After` (overloaded) until it ' +
      'recovers; `0` turns the check off. `/health` always answers',
    default: '1000',
    parse: integer(0, 60000, 'milliseconds')
  },
  trustProxy: {
    env: 'TRUST_PROXY',
    description: 'with TLS=proxy, the proxies trusted to say the client address in `X-Forwarded-For` (what the rate limit ' +
      'counts): how many stand in front of the API (`1`: the address is the one the proxy the API hears from saw), or ' +
      'their addresses and networks, comma-separated (`10.0.0.0/8, 127.0.0.1`)',
    default: '1',
    parse: proxies
  },
  rateLimit: {
    env: 'RATE_LIMIT',
    description: 'requests a minute one client address may make (429 beyond, with `Retry-After`); `0` turns the limit off',
    default: '1200',
    parse: count
  },
  corsOrigins: {
    env: 'CORS_ORIGINS',
    description: 'browser origins allowed to call the API (CORS), comma-separated (`https://app.example.com`), or `*`; preflights ' +
      'are answered before the bearer check',
    default: '',
    parse: origins
  }
} satisfies Record<string, AnySetting>

/** Batches and the change feed: how much one batch may do, and how changes are kept and streamed. */
const WRITES = {
  batchMaxOperations: {
    env: 'BATCH_MAX_OPERATIONS',
    description: 'operations one `POST /v1/batch` may hold; a larger batch is answered 422',
    default: '100',
    parse: integer(1, 1000, 'operations')
  },
  writeMaxRecords: {
    env: 'WRITE_MAX_RECORDS',
    description: 'records one request may create, change or delete: a POST of an array, a change of many records (`PATCH` or ' +
      '`DELETE` of a collection\'s path), or the operations of a batch together; more is answered 422 before anything is ' +
      'written, and a change reads no more than one record beyond it. On SQLite a write holds the database, and the ' +
      'requests of the process wait, for as long as it takes: at the default, under a second on two cores ' +
      '([operations](operations.md#what-one-request-may-write)). At most 999999, what the change feed ranks in one transaction',
    default: '5000',
    parse: integer(1, 999999, 'records')
  },
  changesRetention: {
    env: 'CHANGES_RETENTION',
    description: 'seconds a change stays in the change feed (`/v1/<collection>/changes`); resuming from a position older than ' +
      'that is answered 410',
    default: '604800',
    parse: integer(60, 315360000, 'seconds')
  },
  changesHeartbeat: {
    env: 'CHANGES_HEARTBEAT',
    description: 'seconds between the comments that keep an idle change stream open; the stream\'s access token is checked again ' +
      'at each, and a revoked one ends the stream',
    default: '15',
    parse: integer(1, 300, 'seconds')
  },
  changesPollInterval: {
    env: 'CHANGES_POLL_INTERVAL',
    description: 'milliseconds between two looks for changes written by another process (another instance on DATABASE_URL), ' +
      'while a change stream is open; the writes of this process are streamed as they commit',
    default: '50',
    parse: integer(5, 60000, 'milliseconds')
  },
  changesStreamsPerUser: {
    env: 'CHANGES_STREAMS_PER_USER',
    description: 'change streams one user may hold open through one client on one instance (a token\'s subject with its client: ' +
      'under client_credentials the client itself); one more is answered 429',
    default: '10',
    parse: integer(1, 10000, 'streams')
  },
  changesStreamsPerClient: {
    env: 'CHANGES_STREAMS_PER_CLIENT',
    description: 'change streams the users of one client may hold open together on one instance, so that one client cannot ' +
      'open streams for any number of users; one more is answered 429',
    default: '1000',
    parse: integer(1, 100000, 'streams')
  }
} satisfies Record<string, AnySetting>

/** Tokens and clients: the built-in authorization server and an external issuer. */
const TOKENS = {
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
const SIGN_IN = {
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
const LOCAL = {
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

/** Logs and stopping: what the process logs and how long a stop may take. */
const PROCESS = {
  logLevel: {
    env: 'LOG_LEVEL',
    description: 'pino log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
    default: 'info',
    parse: logLevel
  },
  logFormat: {
    env: 'LOG_FORMAT',
    description: '`auto`: readable lines when standard output is a terminal, JSON lines otherwise; `json`; or `pretty`',
    default: 'auto',
    parse: logFormat
  },
  shutdownTimeout: {
    env: 'SHUTDOWN_TIMEOUT',
    description: 'seconds a stop (SIGTERM, SIGINT) may take to finish the requests and the job in progress before the process ' +
      'exits anyway, with status 1; a second signal exits at once',
    default: '10',
    parse: integer(1, 600, 'seconds')
  }
} satisfies Record<string, AnySetting>

/** The groups in the order `--help` and docs/configuration.md show them. */
export const SETTING_GROUPS: readonly { title: string, settings: Record<string, AnySetting> }[] = [
  { title: 'Listening and TLS', settings: LISTENING },
  { title: 'Storage', settings: STORAGE },
  { title: 'Requests and their limits', settings: REQUESTS },
  { title: 'Batches and the change feed', settings: WRITES },
  { title: 'Tokens and clients', settings: TOKENS },
  { title: 'Sign-in through a provider', settings: SIGN_IN },
  { title: 'The local tool server', settings: LOCAL },
  { title: 'Logs and stopping', settings: PROCESS }
]

/** Every setting of the service, with its default. */
export const SETTINGS = { ...LISTENING, ...STORAGE, ...REQUESTS, ...WRITES, ...TOKENS, ...SIGN_IN, ...LOCAL, ...PROCESS }

type Settings = typeof SETTINGS
type Parsed = { readonly [K in keyof Settings]: ReturnType<Settings[K]['parse']> }
/** The settings as the service uses them; `publicUrl` and `unpackDir` always have a value once loaded. */
export type Config = Omit<Parsed, 'publicUrl' | 'unpackDir'> & { readonly publicUrl: string, readonly unpackDir: string }

/** UNPACK_DIR as given (`raw`), else its default under the data directory. */
export const unpackDirOf = (dataDir: string, raw: string | undefined): string =>
  SETTINGS.unpackDir.parse(raw ?? '', 'UNPACK_DIR') ?? join(dataDir, 'unpacked')

/** A setting's command-line flag: its own (`--allow`), else the variable in lower case with dashes. */
export const flagOf = (setting: AnySetting): string =>
  'flag' in setting ? setting.flag : setting.env.toLowerCase().replaceAll('_', '-')
