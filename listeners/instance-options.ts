import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http'
import type { Socket } from 'node:net'
import type { Writable } from 'node:stream'
import { LogController, type ConnectionError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import PinoPretty from 'pino-pretty'
import type { Config } from '../config/index.ts'
import { loggedPath } from '../http/links.ts'
import { answerBeforeBodyEnds } from './lingering-close.ts'

/** The settings every instance applies: its log, and how long and how much a client may take. */
export type InstanceSettings = Pick<Config,
  'logLevel' | 'logFormat' | 'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout' | 'maxHeaderSize' | 'lingerTimeout' |
  'lingerBytes'>

/**
 * An X-Request-Id a proxy in front may set, taken as the request's id so that its logs and ours
 * name the request alike: a UUID, a hex digest, or any 8 to 128 letters, digits and `. _ : -`.
 * Anything else (a header that could break a log line or pass for free text) gets an id of ours.
 */
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/

/** One readable stream for every instance of the process, when the log is for a person. */
let prettyStream: Writable | undefined

function readableLog (): Writable {
  prettyStream ??= PinoPretty({
    colorize: process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
    ignore: 'pid,hostname,name,method,path,status,ms',
    messageFormat: '{if name}{name}: {end}{msg}{if method} {method} {path} {status} {ms} ms{end}'
  })
  return prettyStream
}

/**
 * Each request is logged once, when answered: method, path (loggedPath), status and milliseconds,
 * with the request's id (`reqId`) like every line a request logs; Fastify's own "incoming
 * request" line is left out. A route whose logLevel is `silent` (the health checks) is not logged.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest (): void {}

  override requestCompleted (error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      path: loggedPath(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10
    }
    if (error) request.log.error({ ...line, err: error }, 'request failed while answering')
    else request.log.info(line, 'request')
  }
}

/** What the log keeps of an error besides its type, message and stack: what kind of failure it is, never what a request sent. */
const ERROR_MEMBERS = ['code', 'statusCode', 'errno', 'syscall'] as const

/**
 * An error as every line writes it: its type, message, stack and ERROR_MEMBERS, and its cause and
 * the errors it gathers alike. pino's own serializer writes every member an error has, and some
 * hold what a request sent: Node's parser errors the bytes received (`rawPacket`: an
 * Authorization header, a form's password), Ajv's the values refused (`data`), PostgreSQL's the
 * row refused (`detail`).
 */
function loggedError (err: Error, seen = new Set<Error>()): { type: string, message: string, stack: string } {
  seen.add(err)
  const members = err as unknown as Record<string, unknown>
  // Followed once each: an error may be its own cause, or its cause's.
  const inner = (error: unknown) => error instanceof Error && !seen.has(error) ? loggedError(error, seen) : undefined
  return {
    type: err.constructor.name,
    message: err.message,
    stack: err.stack ?? '',
    ...Object.fromEntries(ERROR_MEMBERS.filter(member => member in err).map(member => [member, members[member]])),
    ...(err.cause === undefined ? {} : { cause: inner(err.cause) }),
    ...(err instanceof AggregateError ? { aggregateErrors: (err.errors as unknown[]).map(inner) } : {})
  }
}

/** A request as a line writes it (Fastify's writes its target whole, query and all). */
const loggedRequest = (request: { method: string, url: string }) => ({ method: request.method, path: loggedPath(request.url) })

/** What a connection is answered when Node's HTTP/1.1 parser refuses its request or it is too slow to send it. */
function unreadable (err: ConnectionError, settings: InstanceSettings): { status: number, error: string } {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, error: 'The request did not arrive within the time this server allows' }
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, error: `The header block is larger than the ${settings.maxHeaderSize} bytes this server accepts` }
  }
  return { status: 400, error: 'The request is not valid HTTP/1.1' }
}

/**
 * Fastify's answer to such a connection (408, 431 or 400), with the `{"error"}` body of every
 * other refusal, and logged by the parser's code alone: Fastify's own handler logs the error
 * whole, whose `rawPacket` is the bytes received, credentials and all.
 */
function refuseUnreadable (settings: InstanceSettings) {
  return function (this: FastifyInstance, err: ConnectionError, socket: Socket): void {
    // A connection reset by the client, or already closed: nothing to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return
    const { status, error } = unreadable(err, settings)
    this.log.trace({ code: err.code, status }, 'client error')
    if (socket.writable) {
      const body = JSON.stringify({ error })
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
    }
    socket.destroy()
  }
}

/**
 * What every Fastify instance of the process shares (the API, the local tool server, the
 * redirect and metrics listeners): its logger, named after it, how its requests are identified
 * and logged, what a request it cannot parse is answered, and how long a connection may stay
 * idle or a request take. No line holds what a request carries as credentials, at any level. The
 * log is JSON lines unless LOG_FORMAT (or, by default, a terminal on stdout) asks for readable
 * lines; tests hand a stream of their own.
 */
export function instanceOptions (
  settings: InstanceSettings, name?: string, stream?: Writable, mixin?: (merged: object, level: number, logger: object) => object
) {
  const { logFormat, logLevel } = settings
  const pretty = stream === undefined && (logFormat === 'pretty' || (logFormat === 'auto' && process.stdout.isTTY))
  const destination = pretty ? readableLog() : stream
  return {
    logger: logLevel === 'silent'
      ? false as const
      : {
          level: logLevel,
          ...(name === undefined ? {} : { name }),
          serializers: { err: loggedError, req: loggedRequest },
          // With traces, each line says the trace and span it belongs to (telemetry/tracing.ts).
          ...(mixin === undefined ? {} : { mixin }),
          ...(destination === undefined ? {} : { stream: destination })
        },
    genReqId: (request: { headers: IncomingHttpHeaders }) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    // Fastify would take the header as it comes: genReqId checks it first.
    requestIdHeader: false as const,
    logController: new OneLinePerRequest(),
    clientErrorHandler: refuseUnreadable(settings),
    keepAliveTimeout: settings.keepAliveTimeout * 1000,
    http2SessionTimeout: settings.keepAliveTimeout * 1000,
    requestTimeout: settings.requestTimeout * 1000
  }
}

/** The parts of Node's HTTP servers that Fastify's options do not reach (the HTTPS server's HTTP/1.1 fallback least of all). */
interface ConnectionLimits {
  headersTimeout?: number
  requestTimeout?: number
  keepAliveTimeout?: number
  maxHeaderSize?: number
  connectionsCheckingInterval?: number
}

/**
 * What every instance does with each request and connection:
 *
 * - Every answer carries its request's id (X-Request-Id), refusals and errors included.
 * - An HTTP/1.1 client that is slow to send its headers or its request is cut off, and a header
 *   block larger than MAX_HEADER_SIZE is answered 431. Node checks for late requests every
 *   `connectionsCheckingInterval`, 30 s by default: a tenth of the headers timeout keeps a
 *   deadline within 10 % of what it says.
 * - An answer given while the client is still sending its request's body reaches the client
 *   (`answerBeforeBodyEnds`).
 */
export function equipInstance (fastify: FastifyInstance, settings: InstanceSettings): void {
  const server = fastify.server as ConnectionLimits
  server.headersTimeout = settings.headersTimeout * 1000
  server.requestTimeout = settings.requestTimeout * 1000
  server.keepAliveTimeout = settings.keepAliveTimeout * 1000
  server.maxHeaderSize = settings.maxHeaderSize
  server.connectionsCheckingInterval = Math.max(100, settings.headersTimeout * 100)
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id)
    done()
  })
  answerBeforeBodyEnds(fastify, settings)
}
