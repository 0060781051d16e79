import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { constants, Http2ServerRequest, type ServerHttp2Stream } from 'node:http2'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config/index.ts'

export type LingerSettings = Pick<Config, 'lingerTimeout' | 'lingerBytes'>

const announcesBody = (headers: IncomingHttpHeaders): boolean =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')

/**
 * An answer given while the client is still sending its request's body (a 413 for a body over
 * the limit, or a refusal given before the body is read, such as a 401) reaches the client
 * before the request is cut short:
 *
 * - HTTP/1.1: the answer says `Connection: close`, and the connection is closed gently after it
 *   (`lingerOnClose`), so the client's system never receives a reset before it has read it.
 * - HTTP/2: once the answer is sent, the stream is reset with NO_ERROR, which asks the client to
 *   stop sending and keep the answer (RFC 9113 §8.1). Node.js does so itself for a body not read
 *   at all, not for one read up to the limit, which it would go on reading to its end.
 */
export function answerBeforeBodyEnds (fastify: FastifyInstance, settings: LingerSettings): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const { raw } = request
    if (raw instanceof Http2ServerRequest) resetOnceAnswered(raw.stream)
    // An injected request (inject()) has no `complete`: it is all there.
    else if (announcesBody(request.headers) && raw.complete === false) {
      reply.header('connection', 'close')
      lingerOnClose(raw, settings)
    }
    done(null, payload)
  })
}

/**
 * A turn after the answer is handed over (`finish`), as Node.js resets a stream whose body it did
 * not read: reset on `finish` itself, Node.js's own client reads the whole answer but never
 * closes its stream, which keeps its session open.
 */
function resetOnceAnswered (stream: ServerHttp2Stream): void {
  const clientSending = (): boolean => stream.state.remoteClose === 0
  if (!clientSending()) return
  stream.once('finish', () => {
    setImmediate(() => {
      if (clientSending()) stream.close(constants.NGHTTP2_NO_ERROR)
    })
  })
}

/**
 * Node.js ends a connection whose answer says `Connection: close` once the answer is written, by
 * calling its `destroySoon`: the socket is closed while the client is still sending, and the
 * server's system answers what arrives next with a reset, which can reach the client before it
 * has read the answer (it then sees `EPIPE` or `ECONNRESET`, and loses the answer). This closes it
 * as RFC 9112 §9.6 says: the answer, then the server's half of the connection, while the rest of
 * the body is read and dropped until the client closes its half, for at most LINGER_TIMEOUT
 * seconds and LINGER_BYTES bytes. The body is read through the request, as Node.js would drop it:
 * reading the socket itself would take it from Node.js's parser, which then stops reading it.
 */
function lingerOnClose (request: IncomingMessage, settings: LingerSettings): void {
  const socket = request.socket
  let dropped = 0
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > settings.lingerBytes) socket.destroy()
  })
  socket.destroySoon = function lingeringClose () {
    if (socket.writable) socket.end()
    const timer = setTimeout(() => socket.destroy(), settings.lingerTimeout * 1000)
    socket.once('close', () => clearTimeout(timer))
  }
}
