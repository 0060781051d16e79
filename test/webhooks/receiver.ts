import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import { Webhook } from 'standardwebhooks'

/** A delivery as the receiver got it. */
export interface Received {
  headers: IncomingHttpHeaders
  body: string
  json: { type: string, timestamp: string, data: Record<string, unknown> }
}

/**
 * A webhook receiver on loopback: answers each delivery as `answerWith` says, and keeps every
 * delivery it answered 2xx, in the order it answered them.
 */
export async function receiver (t: Test) {
  const received: Received[] = []
  const attempts: Received[] = []
  let answer: (delivery: Received) => number | 'hang' | { status: number, after: number } = () => 204
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', chunk => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      const delivery = { headers: request.headers, body, json: JSON.parse(body) }
      attempts.push(delivery)
      const decided = answer(delivery)
      if (decided === 'hang') return
      const { status, after } = typeof decided === 'number' ? { status: decided, after: 0 } : decided
      const reply = (): void => {
        if (status >= 200 && status < 300) received.push(delivery)
        response.writeHead(status).end('ok')
      }
      if (after === 0) reply()
      else setTimeout(reply, after)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return {
    url,
    received,
    attempts,
    /** How to answer: a status, 'hang', or a status sent `after` milliseconds (received once sent). */
    answerWith (decide: typeof answer) { answer = decide },
    /** Resolves once `count` deliveries were received, or throws after `seconds`. */
    async waitFor (count: number, seconds = 20): Promise<Received[]> {
      const until = Date.now() + seconds * 1000
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`${received.length} deliveries received of ${count}`)
        await new Promise(resolve => setTimeout(resolve, 50))
      }
      return received
    }
  }
}

/** Whether `secret` signs the delivery, as the Standard Webhooks library checks it. */
export function verifies (secret: string, delivery: Received): boolean {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)
    return true
  } catch {
    return false
  }
}
