// How the process listens, what a request may hold, and its logs and stopping: groups of the
// settings catalogue (config/settings.ts).
import {
  count, host, integer, logFormat, logLevel, optional, origins, pathPrefix, port, proxies, readableFile, tlsMode, url
} from './parsers.ts'
import type { AnySetting } from './setting.ts'

/** Listening and TLS: where the API listens, how it speaks TLS and the URL clients know it by. */
export const LISTENING = {
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

/** Requests and their limits: what a request may be and how many a client may send. */
export const REQUESTS = {
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

/** Logs and stopping: what the process logs and how long a stop may take. */
export const PROCESS = {
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
