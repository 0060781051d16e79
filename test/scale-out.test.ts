import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { decodeProtectedHeader } from 'jose'
import t, { type Test } from 'tap'
import { basic, BOOTSTRAP, feedPositionsAt, freshSchema, POSTGRES_PASS } from './helper.ts'
import { lineOf, send, spawnTs, type SocketResponse } from './local/helper.ts'
import { openStream } from './sse.ts'

/*
 * Two instances of the service as separate processes, behind a (pretend) load balancer, on one
 * PostgreSQL database and one Redis: every guarantee of the contract must hold across them. They
 * run in the PostgreSQL pass (POSTGRES_PASS): the SQLite pass has no database two processes can share.
 */

const REDIS = process.env.ZOO_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

// Two instances started for each test, and the CLI run beside them: 25 s with the machine to
// itself, 87 s beside other test files on a busy machine, near .taprc's 120 s for a file.
t.setTimeout(300_000)

interface Instance {
  port: number
  request: (method: string, path: string, headers?: Record<string, string>, body?: unknown) => Promise<SocketResponse>
}

/** The environment both instances share: the database (a fresh schema), Redis, the bootstrap client. */
async function sharedEnvironment (t: Test, settings: Record<string, string>): Promise<Record<string, string>> {
  return {
    DATABASE_URL: freshSchema(t, 'scale_out'),
    REDIS_URL: REDIS,
    TLS: 'proxy',
    HOST: '127.0.0.1',
    PORT: '0',
    LOCAL_PORT: '0',
    ALLOWED_DIRS: '',
    LOG_LEVEL: 'info',
    BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id,
    BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret,
    // Behind one balancer every instance issues and accepts the tokens of the URL clients use.
    PUBLIC_URL: 'https://zoo.example.com',
    ...settings
  }
}

/**
 * One instance, started on `env`. Requests come as the balancer forwards them: over HTTPS, from
 * the client address `client` (a fresh one per test, so that rate-limit counters kept in Redis by
 * earlier runs do not count).
 */
async function start (t: Test, env: Record<string, string>, client: string): Promise<Instance> {
  const child = spawnTs('server.ts', env)
  t.teardown(() => { child.kill('SIGKILL') })
  let stderr = ''
  child.stderr.on('data', chunk => { stderr += String(chunk) })
  const line = await lineOf(child.stdout, l => l.includes('"msg":"Server listening at ') && !l.includes('"name"'))
    .catch((err: Error) => { throw new Error(`${err.message}; stderr: ${stderr}`) })
  child.stdout.resume()
  const port = Number(/:(\d+)"}$/.exec(line)?.[1])
  return {
    port,
    request: async (method, path, headers = {}, body) => send(port, {
      method,
      path,
      headers: {
        host: 'zoo.example.com',
        'x-forwarded-proto': 'https',
        'x-forwarded-for': client,
        ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? FORM : 'application/json' }),
        ...headers
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) })
    })
  }
}

const FORM = 'application/x-www-form-urlencoded'

const randomAddress = (): string => `10.${[...randomBytes(3)].join('.')}`

async function token (instance: Instance): Promise<string> {
  const authorization = basic(BOOTSTRAP.id, BOOTSTRAP.secret)
  const res = await instance.request('POST', '/oauth/token', { authorization }, 'grant_type=client_credentials')
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`)
  return res.json().access_token as string
}

t.test('two instances on one database keep every guarantee', POSTGRES_PASS, async t => {
  const env = await sharedEnvironment(t, { RATE_LIMIT: '0' })
  const client = randomAddress()
  // Started together: the migrations and the bootstrap client happen once.
  const [a, b] = await Promise.all([start(t, env, client), start(t, env, client)]) as [Instance, Instance]
  const auth = { authorization: `Bearer ${await token(a)}` }

  const total = async (instance: Instance) => (await instance.request('GET', '/v1/zoos?city=Berlin', auth)).headers['x-total-count']
  t.same([await total(a), await total(b)], ['0', '0'])
  const created = await a.request('POST', '/v1/zoos', auth, { name: 'Berlin Zoo', city: 'Berlin' })
  t.equal(created.status, 201)
  t.equal(await total(b), '1', 'a total the other instance kept is counted again after the write')
  const id = created.json().id as number
  const read = await b.request('GET', `/v1/zoos/${id}`, auth)
  t.same([read.status, read.json(), read.headers.etag], [200, created.json(), created.headers.etag], 'written on one, read on the other')
  const stale = await b.request('PATCH', `/v1/zoos/${id}`, { ...auth, 'if-match': '"0"' }, { city: 'Berlin-Mitte' })
  t.equal(stale.status, 412, 'If-Match is checked against the record both share')
  await a.request('DELETE', `/v1/zoos/${id}`, auth)
  t.equal((await b.request('GET', `/v1/zoos/${id}`, auth)).status, 410, 'a delete on one is a 410 on the other')
  t.equal(await total(b), '0')

  const keyed = { ...auth, 'idempotency-key': 'once' }
  const first = await a.request('POST', '/v1/zoos', keyed, { name: 'Keyed', city: 'Rome' })
  const retry = await b.request('POST', '/v1/zoos', keyed, { name: 'Keyed', city: 'Rome' })
  t.same([retry.status, retry.headers['idempotent-replayed'], retry.json()], [201, 'true', first.json()],
    'a retry on the other instance replays')
  const other = await b.request('POST', '/v1/zoos', keyed, { name: 'Another', city: 'Rome' })
  t.equal(other.status, 422, 'the same key with another body, on the other instance')

  // A token for each kind of write, each accepted by the other instance before it is revoked.
  const target = (await a.request('POST', '/v1/zoos', auth, { name: 'Target', city: 'Kept' })).json().id as number
  const writes = [
    ['a create', 'POST', '/v1/zoos', { name: 'After', city: 'Revoked' }],
    ['an update', 'PATCH', `/v1/zoos/${target}`, { city: 'Revoked' }],
    ['a delete', 'DELETE', `/v1/zoos/${target}`, undefined]
  ] as const
  const revocables = await Promise.all(writes.map(() => token(a)))
  for (const revocable of revocables) {
    const bearer = { authorization: `Bearer ${revocable}` }
    t.equal((await b.request('GET', '/v1/zoos', bearer)).status, 200, 'verified, and cached, on the other instance')
    t.equal((await b.request('POST', '/v1/zoos', bearer, { name: 'Before', city: 'Revoked' })).status, 201,
      'a write there too: its standing accepted, and kept')
    const revoked = await a.request('POST', '/oauth/revoke', { authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret) }, `token=${revocable}`)
    t.equal(revoked.status, 200)
  }
  for (const [i, [what, method, path, body]] of writes.entries()) {
    const bearer = { authorization: `Bearer ${revocables[i] as string}` }
    // The write first: its instance still holds the standing it accepted before.
    const unwritten = await b.request(method, path, bearer, body)
    t.same([unwritten.status, unwritten.json().error], [401, 'Invalid access token: the access token was revoked'],
      `revoked on one, ${what} refused by the other`)
    const refused = await b.request('GET', '/v1/zoos', bearer)
    t.same([refused.status, refused.json().error], [401, 'Invalid access token: the access token was revoked'], 'a read too')
  }
  const written = await a.request('GET', '/v1/zoos?city=Revoked', auth)
  t.same(written.json().map((zoo: { name: string }) => zoo.name), ['Before', 'Before', 'Before'], 'and nothing was written for them')
  const kept = await a.request('GET', `/v1/zoos/${target}`, auth)
  t.same([kept.status, kept.json().city, kept.headers.etag], [200, 'Kept', '"1"'], 'neither updated nor deleted')

  // Jobs queued on both while both workers run: each runs once, on one of them.
  const names = Array.from({ length: 12 }, (_, i) => `Job ${i}`)
  const jobs = await Promise.all(names.map(async (name, i) => {
    const res = await (i % 2 === 0 ? a : b).request('POST', '/v1/zoos', { ...auth, prefer: 'respond-async' }, { name, city: 'Queue' })
    t.equal(res.status, 202)
    return String(res.headers.location).replace('https://zoo.example.com', '')
  }))
  for (const [i, path] of jobs.entries()) {
    let job: { status: string, result: { status: number } | null } = { status: 'queued', result: null }
    for (let tries = 0; tries < 200 && (job.status === 'queued' || job.status === 'running'); tries++) {
      job = (await (i % 2 === 0 ? b : a).request('GET', path, auth)).json()
      if (job.status === 'queued' || job.status === 'running') await new Promise(resolve => setTimeout(resolve, 50))
    }
    t.match(job, { status: 'succeeded', result: { status: 201 } }, `${names[i]}, seen from the instance that did not queue it`)
  }
  const queued = (await a.request('GET', '/v1/zoos?city=Queue&limit=100', auth)).json() as { name: string }[]
  t.same(queued.map(zoo => zoo.name).sort(), [...names].sort(), 'every job ran exactly once')
})

t.test('a client deleted with the CLI is refused at once on every instance, its writes as its reads', POSTGRES_PASS, async t => {
  const env = await sharedEnvironment(t, { RATE_LIMIT: '0' })
  const address = randomAddress()
  const [a, b] = await Promise.all([start(t, env, address), start(t, env, address)]) as [Instance, Instance]
  const made = await cliOn(env, ['client', 'create', '--scope', 'zoos:read zoos:write'])
  const { client_id: id, client_secret: secret } = JSON.parse(made) as { client_id: string, client_secret: string }
  const bearers = await Promise.all([0, 1, 2].map(async () => {
    const res = await a.request('POST', '/oauth/token', { authorization: basic(id, secret) }, 'grant_type=client_credentials')
    return { authorization: `Bearer ${res.json().access_token as string}` }
  }))
  const target = (await a.request('POST', '/v1/zoos', bearers[0], { name: 'Target', city: 'Kept' })).json().id as number
  for (const instance of [a, b]) {
    for (const bearer of bearers) {
      t.equal((await instance.request('GET', '/v1/zoos', bearer)).status, 200)
      t.equal((await instance.request('POST', '/v1/zoos', bearer, { name: 'Before', city: 'Deleted' })).status, 201,
        'a write: its standing accepted, and kept')
    }
  }
  await cliOn(env, ['client', 'delete', id])
  const error = 'Invalid access token: the client of the access token no longer exists'
  const writes = [
    ['POST', '/v1/zoos', { name: 'After', city: 'Deleted' }],
    ['PATCH', `/v1/zoos/${target}`, { city: 'Deleted' }],
    ['DELETE', `/v1/zoos/${target}`, undefined]
  ] as const
  for (const instance of [a, b]) {
    // The write first: each instance still holds the standing it accepted before, a token for each kind of write.
    for (const [i, [method, path, body]] of writes.entries()) {
      const refused = await instance.request(method, path, bearers[i] as { authorization: string }, body)
      t.same([refused.status, refused.json().error], [401, error], `${method} on either instance`)
    }
    const read = await instance.request('GET', '/v1/zoos', bearers[0] as { authorization: string })
    t.same([read.status, read.json().error], [401, error], 'GET on either instance')
  }
  const auth = { authorization: `Bearer ${await token(a)}` }
  const written = await b.request('GET', '/v1/zoos?city=Deleted', auth)
  t.same(written.json().map((zoo: { name: string }) => zoo.name), Array(6).fill('Before'), 'nothing was written once it was deleted')
  const kept = await b.request('GET', `/v1/zoos/${target}`, auth)
  t.same([kept.status, kept.json().city], [200, 'Kept'], 'the target neither updated nor deleted')
})

/** Runs the CLI on the instances' database; what it printed. */
async function cliOn (env: Record<string, string>, argv: string[]): Promise<string> {
  const cli = spawnTs('server.ts', env, argv)
  let out = ''
  cli.stdout.on('data', chunk => { out += String(chunk) })
  const [code] = await once(cli, 'exit') as [number]
  if (code !== 0) throw new Error(`the CLI ${argv.join(' ')} exited with ${code}`)
  return out
}

t.test('the rate limit counts a client\'s requests to both instances', POSTGRES_PASS, async t => {
  const env = await sharedEnvironment(t, { RATE_LIMIT: '10' })
  const client = randomAddress()
  const [a, b] = await Promise.all([start(t, env, client), start(t, env, client)]) as [Instance, Instance]
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) statuses.push((await (i % 2 === 0 ? a : b).request('GET', '/')).status)
  t.same(statuses, [...Array(10).fill(200), 429, 429], 'ten in all, whichever instance answered')
  const elsewhere = await start(t, env, randomAddress())
  t.equal((await elsewhere.request('GET', '/')).status, 200, 'another client has its own budget')
})

t.test('a key rotated with the CLI signs at once on every instance', POSTGRES_PASS, async t => {
  const env = await sharedEnvironment(t, { RATE_LIMIT: '0' })
  const client = randomAddress()
  const [a, b] = await Promise.all([start(t, env, client), start(t, env, client)]) as [Instance, Instance]
  const before = await token(a)
  const cli = spawnTs('server.ts', env, ['key', 'rotate'])
  let out = ''
  cli.stdout.on('data', chunk => { out += String(chunk) })
  t.same(await once(cli, 'exit'), [0, null])
  const { kid } = JSON.parse(out) as { kid: string }
  for (const instance of [a, b]) {
    const fresh = await token(instance)
    t.equal(decodeProtectedHeader(fresh).kid, kid, 'signed with the new key')
    for (const other of [a, b]) {
      for (const bearer of [before, fresh]) {
        t.equal((await other.request('GET', '/v1/zoos', { authorization: `Bearer ${bearer}` })).status, 200)
      }
    }
  }
})

t.test('a write on one instance reaches a change stream of the other, every change once, in one order', POSTGRES_PASS, async t => {
  const env = await sharedEnvironment(t, { RATE_LIMIT: '0' })
  const client = randomAddress()
  const [a, b] = await Promise.all([start(t, env, client), start(t, env, client)]) as [Instance, Instance]
  const auth = { authorization: `Bearer ${await token(a)}` }
  const follow = (instance: Instance) => openStream(t, `http://127.0.0.1:${instance.port}/v1/zoos/changes?after=0`, {
    ...auth, host: 'zoo.example.com', 'x-forwarded-proto': 'https', 'x-forwarded-for': client
  })
  const [onA, onB] = await Promise.all([follow(a), follow(b)])
  t.same([onA.status, onB.status], [200, 200])

  // Writes on both at once, singly and in batches: their transactions commit side by side.
  const names = Array.from({ length: 30 }, (_, i) => `Zoo ${i}`)
  const written = await Promise.all(names.map(async (name, i) => {
    const instance = i % 2 === 0 ? a : b
    if (i % 5 !== 4) return (await instance.request('POST', '/v1/zoos', auth, { name, city: 'Side' })).json().id as number
    const res = await instance.request('POST', '/v1/batch', auth, {
      operations: [
        { method: 'POST', path: '/v1/zoos', body: { name, city: 'Side' } },
        { method: 'PATCH', path: '/v1/zoos/{0.id}', body: { country: 'DE' } }
      ]
    })
    return res.json().results[0].body.id as number
  }))
  const expected = written.length + names.filter((_, i) => i % 5 === 4).length
  await Promise.all([onA, onB].map(stream => stream.until(() => stream.events.length >= expected, `${expected} events`)))
  t.same(onA.events.map(e => e.id), onB.events.map(e => e.id), 'both streams: the same changes in the same order')
  t.same([...new Set(onA.events.filter(e => e.event === 'created').map(e => e.data.id))].sort((x, y) => x - y),
    [...written].sort((x, y) => x - y), 'every write once')
  const told = await feedPositionsAt({ dataDir: '', databaseUrl: env.DATABASE_URL })
  const positions = onA.events.map(e => BigInt(told.read(e.id) ?? Number.NaN))
  t.ok(positions.every((p, i) => i === 0 || p > (positions[i - 1] as bigint)), 'the positions behind the events grow')
  const page = (await b.request('GET', '/v1/zoos/changes?limit=1000', auth)).json() as { position: string }[]
  t.same(page.map(c => c.position), onA.events.map(e => e.id), 'a page read on either instance agrees')
})
