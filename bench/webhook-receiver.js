// A webhooks' receiver on loopback for the benches (webhooks.js, the write-power case `webhooks`):
// it answers every delivery 204 at once and keeps each one's delay from its change's timestamp.
import { once } from 'node:events'
import { createServer } from 'node:http'
import { send } from './targets.js'

const COLLECTIONS = ['zoos', 'animals', 'employees']

/** Starts a receiver: its `url`, the deliveries `received`, their `delays` in milliseconds, `drained(expected)` and `close()`. */
export async function hookReceiver () {
  const delays = []
  let received = 0
  const server = createServer((request, response) => {
    const chunks = []
    request.on('data', chunk => chunks.push(chunk))
    request.on('end', () => {
      received++
      delays.push(Date.now() - Date.parse(JSON.parse(Buffer.concat(chunks).toString()).timestamp))
      response.writeHead(204).end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    delays,
    get received () { return received },
    /** Resolves once `expected` deliveries have come (at most two minutes). */
    async drained (expected) {
      const until = Date.now() + 120_000
      // Counted by the server's callbacks meanwhile.
      const count = () => received
      while (count() < expected && Date.now() < until) await new Promise(resolve => setTimeout(resolve, 50))
      if (received < expected) throw new Error(`${received} deliveries received of ${expected}`)
    },
    close: () => server.close()
  }
}

/** Subscribes `url` to each collection's changes, one subscription each: their ids. */
export async function subscribeEach (target, url) {
  const headers = { ...target.headers, 'content-type': 'application/json' }
  return Promise.all(COLLECTIONS.map(async collection => {
    const made = await send(target, 'POST', '/v1/webhooks', { headers, body: JSON.stringify({ url, collections: [collection] }) })
    if (made.status !== 201) throw new Error(`subscribe: ${made.status} ${made.body}`)
    return JSON.parse(made.body).id
  }))
}

export async function unsubscribe (target, ids) {
  for (const id of ids) {
    const deleted = await send(target, 'DELETE', `/v1/webhooks/${id}`, { headers: target.headers })
    if (deleted.status !== 204) throw new Error(`unsubscribe: ${deleted.status} ${deleted.body}`)
  }
}
