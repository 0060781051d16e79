import { once } from 'node:events'
import type { Socket } from 'node:net'
import { PassThrough } from 'node:stream'

/** A stream to hand an instance for its log, and what was written to it. */
export function captured (): { stream: PassThrough, text: () => string } {
  const stream = new PassThrough()
  let text = ''
  stream.on('data', chunk => { text += String(chunk) })
  return { stream, text: () => text }
}

/**
 * Whether `secret` is anywhere in `log`: as text, or as the bytes of a Buffer, which a JSON line
 * writes as a list of numbers.
 */
export const holds = (log: string, secret: string): boolean => log.includes(secret) || log.includes(Buffer.from(secret).join(','))

/** Writes `bytes` on a connected `socket` and resolves with everything read until the server closes it. */
export async function untilClosed (socket: Socket, bytes: string): Promise<string> {
  let text = ''
  socket.setEncoding('utf8')
  socket.on('data', chunk => { text += chunk })
  socket.on('error', () => {})
  socket.write(bytes)
  await once(socket, 'close')
  return text
}
