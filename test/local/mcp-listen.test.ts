import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import t, { type Test } from 'tap'
import { listeningLocal, makeTree, mcpMessages, send, type SocketResponse } from './helper.ts'

/*
 * subscriptions/listen, the 2026-07-28 revision's stream of change notifications, on /mcp over a
 * real socket. The SDK holds a listen open for as long as its client keeps it, with no idle
 * limit, up to 1,024 a handler, whenever it honors one of the notifications asked for; it honors
 * only those the server declares, and this server declares none (its two tools never change).
 */

const REVISION = '2026-07-28'
/** The SDK's default `maxSubscriptions`: with that many listens held open, a handler refuses the next. */
const SDK_SUBSCRIPTION_LIMIT = 1024
const EVERY_NOTIFICATION = {
  toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['file:///']
}

interface RpcMessage { method?: string, id?: number, result?: { resultType: string }, error?: { message: string } }

/** One listen for every notification there is, as the SDK's client sends it; resolves once the answer has ended. */
const listen = (port: number, id: number): Promise<SocketResponse> => send(port, {
  path: '/mcp',
  headers: {
    host: `127.0.0.1:${port}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': REVISION,
    'mcp-method': 'subscriptions/listen'
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': REVISION,
        'io.modelcontextprotocol/clientInfo': { name: 'zoo-test', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {}
      },
      notifications: EVERY_NOTIFICATION
    }
  })
})

/** The listen was acknowledged with nothing honored and completed, and nothing else came. */
function acknowledgedAndComplete (t: Test, res: SocketResponse, id: number): void {
  t.equal(res.status, 200, `listen ${id}: ${res.text}`)
  t.match(res.headers['content-type'], /^text\/event-stream/)
  const messages = mcpMessages(res.headers['content-type'], res.text)
  t.same(messages[0], {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: {}, _meta: { 'io.modelcontextprotocol/subscriptionId': id } }
  }, `listen ${id}: acknowledged, nothing honored`)
  t.match(messages[1], { jsonrpc: '2.0', id, result: { resultType: 'complete' } }, `listen ${id}: complete`)
  t.equal(messages.length, 2, `listen ${id}: nothing more`)
}

t.test('the server declares no notification a listen could wait for', async t => {
  // A change here (a tool list that changes, prompts, resources) makes the SDK hold listens open:
  // give them an idle limit and a small maxSubscriptions first.
  const root = makeTree(t, { a: {} })
  const { port } = await listeningLocal(t, { ALLOWED_DIRS: `${root}/a` })
  const client = new Client({ name: 'zoo-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: REVISION } } })
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
  t.teardown(() => client.close())
  t.equal(client.getNegotiatedProtocolVersion(), REVISION)
  t.same(client.getServerCapabilities(), { tools: { listChanged: false } })
})

t.test('a listen for every notification is acknowledged with none honored, and its answer ends at once', async t => {
  const root = makeTree(t, { a: {} })
  const { port } = await listeningLocal(t, { ALLOWED_DIRS: `${root}/a` })
  acknowledgedAndComplete(t, await listen(port, 1), 1)
})

t.test('more listens at once than the SDK would hold are all served: none is held, none refused', async t => {
  const root = makeTree(t, { a: {} })
  const { port } = await listeningLocal(t, { ALLOWED_DIRS: `${root}/a` })
  const ids = Array.from({ length: SDK_SUBSCRIPTION_LIMIT + 76 }, (_, i) => i + 1)
  // Sent together, each on its own connection that the client never closes: only the server ends them.
  const answers = await Promise.all(ids.map(id => listen(port, id)))
  const outcome = (res: SocketResponse): string => `${res.status} ` + mcpMessages(res.headers['content-type'], res.text)
    .map(message => {
      const { method, id, result, error } = message as RpcMessage
      return method ?? `${id ?? ''} ${result?.resultType ?? error?.message ?? ''}`
    }).join(', ')
  t.same(answers.map(outcome), ids.map(id => `200 notifications/subscriptions/acknowledged, ${id} complete`),
    'each acknowledged and complete, none refused with "Subscription limit reached"')
  const [first] = answers
  if (first !== undefined) acknowledgedAndComplete(t, first, 1)
})
