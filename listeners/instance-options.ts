import { randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { Writable } from 'node:stream'
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import PinoPretty from 'pino-pretty'
import type { Config } from '../config/index.ts'
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
 * Each request is logged once, when answered: method, path without the query (where secrets
 * could be), status and milliseconds, with the request's id (`reqId`) like every line a request
 * logs; Fastify's own "incoming request" line is left out. A route whose logLevel is `silent`
 * (the health checks) is not logged.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest (): void {}

  override requestCompleted (error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const query = request.url.indexOf('?')
    const line = {
      method: request.method,
      path: query === -1 ? request.url : request.url.slice(0, query),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10
    }
    if (error) request.log.error({ ...line, err: error }, 'request failed while answering')
    else request.log.info(line, 'request')
  }
}

/**
 * What every Fastify instance of the process shares (the API, the local tool server, the
 * redirect listener): its logger, named after it, how its requests are identified, and how long
 * a connection may stay idle or a request take. The log is JSON lines unless LOG_FORMAT (or, by
 * default, a terminal on stdout) asks for readable lines; tests hand a stream of their own.
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
          redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
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
