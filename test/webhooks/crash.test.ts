import { Agent, request as httpRequest } from 'node:http'
import t from 'tap'
import { basic, BOOTSTRAP, ENGINE, freshSchema } from '../helper.ts'
import { start } from '../server-process.ts'
import { receiver } from './receiver.ts'

/*
 * Webhooks survive a process that dies: `npm start` as a real process takes writes while a slow
 * receiver is sent their changes, and is killed with SIGKILL five times, restarting on the same
 * data. Afterwards every change acknowledged has been delivered at least once, and the changes of
 * each record arrived in the order they were made (a change sent again after a crash may arrive
 * twice; it is counted once, where it first came).
 */

t.setTimeout(240_000)

const ROUNDS = 5
const WORKERS = 4
const SETTINGS = { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRIES: '0.2,0.2,0.2,0.2,0.2', WEBHOOK_TIMEOUT: '2' }

async function send (agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: string):
Promise<{ status: number, text: string }> {
  return await new Promise((resolve, reject) => {
    const options = { agent, host: '127.0.0.1', port, method, path, headers: { 'x-forwarded-proto': 'https', ...headers } }
    const req = httpRequest(options, res => {
      let text = ''
      res.on('data', chunk => { text += String(chunk) })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, text }) })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

t.test('every change acknowledged is delivered at least once, in order per record, across five SIGKILLs', async t => {
  const dataDir = t.testdir()
  const database: Record<string, string> = ENGINE === 'postgres' ? { DATABASE_URL: freshSchema(t, 'webhook_crash') } : {}
  const hook = await receiver(t)
  // Slow: deliveries are under way when the process dies.
  hook.answerWith(() => ({ status: 200, after: 30 }))
  /** What each acknowledged write left: `<id> created` or `<id> city <city>`. */
  const acknowledged = new Set<string>()
  let serial = 0

  for (let round = 0; round <= ROUNDS; round++) {
    const server = await start(t, dataDir, { ...database, ...SETTINGS })
    const agent = new Agent({ keepAlive: true })
    const token = await send(agent, server.port, 'POST', '/oauth/token', {
      authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret), 'content-type': 'application/x-www-form-urlencoded'
    }, 'grant_type=client_credentials')
    const auth = { authorization: `Bearer ${JSON.parse(token.text).access_token as string}`, 'content-type': 'application/json' }
    if (round === 0) {
      const made = await send(agent, server.port, 'POST', '/v1/webhooks', auth, JSON.stringify({ url: hook.url, collections: ['zoos'] }))
      t.equal(made.status, 201, 'subscribed')
    }
    if (round === ROUNDS) {
      agent.destroy()
      break
    }
    const ids: number[] = []
    const load = { stop: false }
    const worker = async (): Promise<void> => {
      while (!load.stop) {
        try {
          if (ids.length < 3 || Math.random() < 0.4) {
            const made = await send(agent, server.port, 'POST', '/v1/zoos', auth, JSON.stringify({ name: `Z${serial++}`, city: 'start' }))
            if (made.status !== 201) throw new Error(`create: ${made.status} ${made.text}`)
            const { id } = JSON.parse(made.text) as { id: number }
            ids.push(id)
            acknowledged.add(`${id} created`)
          } else {
            // Each record is written by one worker at a time: its changes' order is the order of their answers.
            const id = ids.splice(Math.floor(Math.random() * ids.length), 1)[0] as number
            const city = `c${serial++}`
            const changed = await send(agent, server.port, 'PATCH', `/v1/zoos/${id}`, auth, JSON.stringify({ city }))
            if (changed.status !== 201) throw new Error(`patch: ${changed.status} ${changed.text}`)
            acknowledged.add(`${id} city ${city}`)
            ids.push(id)
          }
        } catch (err) {
          if (load.stop) return
          throw err
        }
      }
    }
    const running = Promise.all(Array.from({ length: WORKERS }, worker))
    await new Promise(resolve => setTimeout(resolve, 300 + Math.random() * 700))
    load.stop = true
    server.child.kill('SIGKILL')
    await server.exit
    await running.catch(() => {})
    agent.destroy()
  }

  const told = (): Set<string> => new Set(hook.received.map(d => {
    const data = d.json.data as { id: number, city: string }
    return d.json.type === 'zoos.created' ? `${data.id} created` : `${data.id} city ${data.city}`
  }))
  const until = Date.now() + 60_000
  while ([...acknowledged].some(change => !told().has(change)) && Date.now() < until) await new Promise(resolve => setTimeout(resolve, 100))
  const missing = [...acknowledged].filter(change => !told().has(change))
  t.same(missing, [], `every acknowledged change delivered (${acknowledged.size} of them, ${hook.received.length} deliveries)`)

  // Per record, each change counted where it first came: their positions (webhook-id) only grow.
  const seen = new Set<string>()
  const last = new Map<number, bigint>()
  let outOfOrder = 0
  for (const delivery of hook.received) {
    const id = String(delivery.headers['webhook-id'])
    if (seen.has(id)) continue
    seen.add(id)
    const record = (delivery.json.data as { id: number }).id
    const position = BigInt(id)
    if ((last.get(record) ?? -1n) > position) outOfOrder++
    last.set(record, position)
  }
  t.equal(outOfOrder, 0, 'no change of a record arrived before one made earlier')
  t.ok(hook.received.length >= seen.size, `${hook.received.length - seen.size} sent again after a crash`)
})
