import { Agent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Destinations } from './destination.ts'
import { signature } from './signing.ts'

/** What a receiver's answer may hold that is read (and dropped): more is not read. */
const READ_AT_MOST = 64 * 1024

/**
 * Connections kept open between deliveries, one pool for http and one for https. A connection is
 * opened through the lookup that checks its address (destination.ts), so one kept open is to an
 * address that was allowed when it was made: what a receiver's DNS says later is checked by the
 * next connection, and a connection closed by the receiver is opened again the same way.
 */
export function keptConnections (): { http: Agent, https: HttpsAgent } {
  return { http: new Agent({ keepAlive: true, maxSockets: 50 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 50 }) }
}

/** A receiver's answer to a delivery: its status code; or why there was none (refused, timed out, an address not allowed). */
export type Answer = { code: number } | { error: string }

/** Where a subscription's deliveries go, and the secrets that sign them (signed in the sending thread, beside the requests'). */
export interface Target {
  url: string
  secrets: string[]
}

/** A delivery's POST: to which of its round's targets, its `webhook-id` and its body. */
export interface Posting {
  to: number
  id: string
  body: string
}

/**
 * The POSTs of deliveries sent together, as the sending thread is asked them (webhooks/sender.ts):
 * each subscription's target told once however many of its deliveries go, `timeout` in seconds.
 */
export interface Round {
  timeout: number
  targets: Target[]
  postings: Posting[]
}

/**
 * POSTs a delivery's `body` to its target's `url`, signed as the Standard Webhooks specification says at the
 * moment it is sent, connecting only to an address `destinations` allows, and waits at most its
 * `timeout` seconds for the whole answer. A redirect is an answer like any other (not followed);
 * at most 64 KiB of the answer's body is read, and dropped.
 */
export async function post (
  { url, secrets }: Target, { id, body }: Posting, timeout: number, destinations: Destinations, agents: { http: Agent, https: HttpsAgent }
): Promise<Answer> {
  const refused = destinations.refusalOfUrl(url)
  if (refused !== undefined) return { error: `the URL is refused: ${refused}` }
  const target = new URL(url)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  const timestamp = Math.floor(Date.now() / 1000)
  return await new Promise<Answer>(resolve => {
    let settled = false
    // A connection whose answer was read to its end goes back to the pool; any other is closed.
    const settle = (answer: Answer, whole = false): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (!whole) outgoing.destroy()
      resolve(answer)
    }
    const timer = setTimeout(() => { settle({ error: `no answer within ${timeout} s` }) }, timeout * 1000)
    const outgoing = send(target, {
      method: 'POST',
      headers: {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(secrets, id, timestamp, body),
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body))
      },
      lookup: destinations.lookup,
      agent: target.protocol === 'https:' ? agents.https : agents.http
    }, response => {
      let read = 0
      response.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read >= READ_AT_MOST) settle({ code: response.statusCode ?? 0 })
      })
      response.on('end', () => { settle({ code: response.statusCode ?? 0 }, true) })
      response.on('error', () => { settle({ code: response.statusCode ?? 0 }) })
    })
    outgoing.on('error', err => {
      const refused = (err as NodeJS.ErrnoException).code === 'EREFUSED_ADDRESS'
      settle({ error: refused ? `the address is refused: ${err.message}` : err.message })
    })
    outgoing.end(body)
  })
}
