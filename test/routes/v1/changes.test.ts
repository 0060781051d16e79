import type { FastifyInstance } from 'fastify'
import { SignJWT } from 'jose'
import t, { type Test } from 'tap'
import { SigningKeys } from '../../../auth/keys.ts'
import {
  addClient, addUser, apiOf, basic, bearer, BOOTSTRAP, build, buildBeside, call, cli, create, query, storageOf, tokenRequest,
  withStorage
} from '../../helper.ts'
import { openStream, type Stream } from '../../sse.ts'

/*
 * The change feed, GET /v1/<collection>/changes: Server-Sent Events over a real socket (inject()
 * waits for the end of an answer, and a stream has none), and JSON pages through inject(), on
 * the engine of the pass.
 */

const listening = new WeakMap<FastifyInstance, Promise<string>>()

/** The app's address on 127.0.0.1, listening from the first call on (the app closes at teardown). */
function addressOf (app: FastifyInstance): Promise<string> {
  let address = listening.get(app)
  if (address === undefined) {
    address = app.listen({ host: '127.0.0.1', port: 0 })
    listening.set(app, address)
  }
  return address
}

/** Opens a stream of `path` on the app, as the bootstrap client unless `headers` say otherwise. */
async function follow (t: Test, app: FastifyInstance, path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return openStream(t, `${await addressOf(app)}${path}`, { authorization: await bearer(app), ...headers })
}

const ZOO = { name: 'Tierpark', city: 'Berlin' }

/** The number behind a position the app told, as its feed keeps it. */
const numberOf = (app: FastifyInstance, told: string): bigint => BigInt(apiOf(app).changeFeed.positions.read(told) ?? Number.NaN)

/** A position as the feed tells it: 22 characters, no number. */
const TOLD = /^[A-Za-z0-9_-]{22}$/

/**
 * Waits (5 s at most) until the JSON page of `path` holds `count` changes. On PostgreSQL a change
 * is read once its position is final, once every transaction of the database that began before
 * its own has ended (store/postgres/feed.ts): a transaction of another session (a test file run
 * beside this one, another suite on the same server) can hold that back a moment after the write
 * was answered. The assertions then read the feed as it is.
 */
async function untilFinal (app: FastifyInstance, path: string, count: number): Promise<void> {
  for (let waited = 0; (await call(app, 'GET', path)).json().length < count && waited < 5000; waited += 10) {
    await new Promise(resolve => setTimeout(resolve, 10))
  }
}

t.test('a stream sends each committed change of its collection once, in commit order, as it commits', async t => {
  const app = await build(t)
  const before = await create(app, 'zoos', { name: 'Before', city: 'Bonn' })
  // A stream without a position starts after the last final one: the write before it must be.
  await untilFinal(app, '/v1/zoos/changes', 1)
  const stream = await follow(t, app, '/v1/zoos/changes')
  t.equal(stream.status, 200)
  t.match(stream.headers.get('content-type'), /^text\/event-stream/)
  t.equal(stream.headers.get('cache-control'), 'no-cache')
  await stream.until(() => stream.comments.length > 0, 'the opening comment')

  const zoo = await create(app, 'zoos', ZOO)
  await create(app, 'animals', { name: 'Knut', species: 'bear', animal_type_id: 1 })
  await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { country: 'DE' })
  await call(app, 'PATCH', '/v1/zoos?city=Berlin', { opened_on: '1955-07-02' })
  await call(app, 'POST', '/v1/batch', {
    operations: [{ method: 'POST', path: '/v1/zoos', body: { name: 'Hellabrunn', city: 'Munich' } },
      { method: 'DELETE', path: '/v1/zoos/{0.id}' }]
  })
  await call(app, 'DELETE', `/v1/zoos/${before.id}`)
  await stream.until(() => stream.events.length >= 6, 'six events')
  t.same(stream.events.map(e => `${e.event} ${e.data.id}`),
    [`created ${zoo.id}`, `updated ${zoo.id}`, `updated ${zoo.id}`, 'created 3', 'deleted 3', `deleted ${before.id}`])
  t.ok(stream.events.every(e => TOLD.test(e.id)), 'each event\'s id is a position as the feed tells it')
  const positions = stream.events.map(e => numberOf(app, e.id))
  t.ok(positions.every((p, i) => i === 0 || p > (positions[i - 1] as bigint)), 'the positions behind them grow')
  const current = (await call(app, 'GET', `/v1/zoos/${zoo.id}`)).json()
  t.same(stream.events[2]?.data, { id: zoo.id, record: current, at: current.updated_at }, 'the record as the change left it')
  t.same(stream.events[5]?.data.record, null)
  t.match(stream.events[5]?.data.at, /^\d{4}-\d\d-\d\dT/)

  await call(app, 'POST', '/v1/zoos', { city: 'Nowhere' })
  await call(app, 'PATCH', '/v1/zoos?city=Berlin', { country: 'AT' }, { prefer: 'tx=rollback' })
  await call(app, 'DELETE', '/v1/zoos/999')
  await create(app, 'zoos', { name: 'After', city: 'Basel' })
  await stream.until(() => stream.events.length >= 7, 'the next event')
  t.same(stream.events.slice(6).map(e => `${e.event} ${e.data.record?.name as string}`), ['created After'],
    'refused writes and dry runs leave nothing in the feed')
})

t.test('Last-Event-ID or after resumes right after a position; without either, a stream starts at the next change', async t => {
  const app = await build(t)
  for (const name of ['A', 'B', 'C']) await create(app, 'zoos', { name, city: 'X' })
  await untilFinal(app, '/v1/zoos/changes', 3)
  const all = (await call(app, 'GET', '/v1/zoos/changes')).json() as { position: string }[]
  t.equal(all.length, 3)
  const [first, second] = all.map(c => c.position)

  const resumed = await follow(t, app, '/v1/zoos/changes', { 'last-event-id': String(first) })
  const after = await follow(t, app, `/v1/zoos/changes?after=${String(second)}`)
  const both = await follow(t, app, `/v1/zoos/changes?after=${String(second)}`, { 'last-event-id': '0' })
  const fresh = await follow(t, app, '/v1/zoos/changes')
  await fresh.until(() => fresh.comments.length > 0, 'the opening comment')
  await create(app, 'zoos', { name: 'D', city: 'X' })
  await resumed.until(() => resumed.events.length >= 3, 'three events')
  await after.until(() => after.events.length >= 2, 'two events')
  await both.until(() => both.events.length >= 4, 'four events')
  await fresh.until(() => fresh.events.length >= 1, 'one event')
  const names = (stream: Stream) => stream.events.map(e => e.data.record?.name)
  t.same(names(resumed), ['B', 'C', 'D'])
  t.same(names(after), ['C', 'D'])
  t.same(names(both), ['A', 'B', 'C', 'D'], 'Last-Event-ID wins over after')
  t.same(names(fresh), ['D'])

  for (const bad of ['99999999999999', '2', 'x7', `${String(first).slice(0, 21)}${String(first).endsWith('A') ? 'Q' : 'A'}`]) {
    const refused = await follow(t, app, '/v1/zoos/changes', { 'last-event-id': bad })
    t.equal(refused.status, 400, bad)
  }
})

t.test('a JSON page of changes for a client that polls, with a Link to the next', async t => {
  const app = await build(t)
  for (const name of ['A', 'B', 'C']) await create(app, 'zoos', { name, city: 'X' })
  await create(app, 'animals', { name: 'Knut', species: 'bear', animal_type_id: 1 })
  await untilFinal(app, '/v1/animals/changes', 1)
  const seen: string[] = []
  let url = '/v1/zoos/changes?limit=2'
  for (let page = 0; page < 3; page++) {
    const res = await call(app, 'GET', url)
    t.equal(res.statusCode, 200)
    t.equal(res.headers.vary?.includes('Accept'), true)
    seen.push(...(res.json() as { record: { name: string } }[]).map(c => c.record.name))
    url = new URL(String(/<([^>]+)>; rel="next"/.exec(String(res.headers.link))?.[1])).pathname +
      new URL(String(/<([^>]+)>; rel="next"/.exec(String(res.headers.link))?.[1])).search
  }
  t.same(seen, ['A', 'B', 'C'], 'every change once, in order, then an empty page')
  const [change] = (await call(app, 'GET', '/v1/animals/changes')).json()
  t.match(change, { position: TOLD, event: 'created', id: 1, record: { name: 'Knut' }, at: String })
  for (const bad of ['after=-1', 'after=01', 'after=1', 'after=x', 'after=99999999999999999999', 'after=AAAAAAAAAAAAAAAAAAAAAA',
    'limit=0', 'limit=1001', 'since=1']) {
    const res = await call(app, 'GET', `/v1/zoos/changes?${bad}`)
    t.equal(res.statusCode, 400, bad)
    t.match(res.json(), { error: String })
  }
  t.equal((await call(app, 'GET', '/v1/zoos/changes', undefined, { accept: 'text/html' })).statusCode, 406)
  t.equal((await call(app, 'POST', '/v1/zoos/changes', {})).statusCode, 405)
})

t.test('a position tells nothing of the changes before it: told enciphered, alike by every instance, refused when made up', async t => {
  const app = await build(t)
  await create(app, 'zoos', { name: 'A', city: 'X' })
  for (let i = 0; i < 5; i++) await create(app, 'animals', { name: `Animal ${i}`, species: 'bear', animal_type_id: 1 })
  await create(app, 'zoos', { name: 'B', city: 'X' })
  await untilFinal(app, '/v1/zoos/changes', 2)
  const page = await call(app, 'GET', '/v1/zoos/changes')
  const told = (page.json() as { position: string }[]).map(c => c.position)
  t.equal(told.length, 2)
  t.ok(told.every(position => TOLD.test(position) && !/^\d+$/.test(position)), 'no number')
  const between = await query(app, 'SELECT count(*) AS n FROM changes WHERE position > ? AND position < ?',
    told.map(position => String(numberOf(app, position))))
  t.equal(Number(between[0]?.n), 5, 'the animals\' five changes came between them in the feed, which the texts do not show')
  t.match(String(page.headers.link), `after=${told[1] as string}&`, 'the next page starts after the last, told alike')
  const beside = await buildBeside(t, app)
  t.same((await call(beside, 'GET', '/v1/zoos/changes')).json().map((c: { position: string }) => c.position), told,
    'another instance on the same database tells the same positions')

  const other = await build(t)
  await create(other, 'zoos', { name: 'Elsewhere', city: 'Y' })
  await untilFinal(other, '/v1/zoos/changes', 1)
  const foreign = (await call(other, 'GET', '/v1/zoos/changes')).json()[0].position as string
  for (const bad of [foreign, `${(told[0] as string).slice(0, 10)}${(told[1] as string).slice(10)}`]) {
    const refused = await call(app, 'GET', `/v1/zoos/changes?after=${bad}`)
    t.equal(refused.statusCode, 400, bad)
    t.notMatch(refused.json().error, /\d/, 'the refusal names no position of the feed')
  }
})

t.test('changes older than CHANGES_RETENTION are pruned; resuming before them is 410', async t => {
  const app = await build(t)
  for (const name of ['A', 'B', 'C']) await create(app, 'zoos', { name, city: 'X' })
  await untilFinal(app, '/v1/zoos/changes', 3)
  const all = (await call(app, 'GET', '/v1/zoos/changes')).json() as { position: string }[]
  const [first, second] = all.map(c => c.position)
  await query(app, 'UPDATE changes SET at = ? WHERE position <= ?', ['2020-01-01T00:00:00.000Z', String(numberOf(app, String(second)))])
  // Another instance on the same data prunes at start-up, as this one does every hour.
  await buildBeside(t, app)
  const gone = await call(app, 'GET', `/v1/zoos/changes?after=${String(first)}`)
  t.equal(gone.statusCode, 410)
  t.match(gone.json().error, /no longer kept/)
  t.notMatch(gone.json().error, /\d/, 'naming no position, not even the one pruned')
  const stream = await follow(t, app, '/v1/zoos/changes', { 'last-event-id': '0' })
  t.equal(stream.status, 410)
  const kept = (await call(app, 'GET', `/v1/zoos/changes?after=${String(second)}`)).json()
  t.same(kept.map((c: { record: { name: string } }) => c.record.name), ['C'])
  t.same((await call(app, 'GET', '/v1/zoos/changes')).json().map((c: { record: { name: string } }) => c.record.name), ['C'],
    'without a position, a page starts at the oldest kept')
  t.equal((await call(app, 'GET', `/v1/animals/changes?after=${String(first)}`)).statusCode, 200, 'another collection pruned nothing')
})

t.test('a stream needs the collection\'s read scope, and a token that still holds', async t => {
  const app = await build(t, { CHANGES_HEARTBEAT: '1' })
  const animalsOnly = await addClient(app, 'animals:read')
  const token = (await tokenRequest(app, { grant_type: 'client_credentials' }, basic(animalsOnly.client_id, animalsOnly.client_secret)))
    .json().access_token as string
  const refused = await follow(t, app, '/v1/zoos/changes', { authorization: `Bearer ${token}` })
  t.equal(refused.status, 403)
  t.equal((await follow(t, app, '/v1/zoos/changes', { authorization: '' })).status, 401)

  const stream = await follow(t, app, '/v1/animals/changes', { authorization: `Bearer ${token}` })
  t.equal(stream.status, 200)
  await stream.until(() => stream.comments.includes('heartbeat'), 'a heartbeat')
  t.equal(stream.ended, false)
  t.equal((await cli(app, ['client', 'delete', animalsOnly.client_id])).code, 0)
  await stream.until(() => stream.ended, 'the stream to end')
  t.match(stream.comments.at(-1), /no longer holds/)
})

t.test('a stream ends when its access token expires', async t => {
  const app = await build(t)
  const key = await withStorage(app, async storage => (await SigningKeys.open(storage.signingKeys)).signing())
  const now = Math.floor(Date.now() / 1000)
  const token = await new SignJWT({ client_id: BOOTSTRAP.id, scope: 'zoos:read', jti: 'short-lived' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
    .setIssuer(app.config.publicUrl).setAudience(`${app.config.publicUrl}/v1`).setSubject(BOOTSTRAP.id)
    .setIssuedAt(now).setExpirationTime(now + 2)
    .sign(key.privateKey)
  const stream = await follow(t, app, '/v1/zoos/changes', { authorization: `Bearer ${token}` })
  t.equal(stream.status, 200)
  await stream.until(() => stream.ended, 'the stream to end')
  t.match(stream.comments.at(-1), /expired/)
})

t.test('a client on its own (client_credentials) holds at most CHANGES_STREAMS_PER_USER streams at once', async t => {
  const app = await build(t, { CHANGES_STREAMS_PER_USER: '2' })
  const streams = [await follow(t, app, '/v1/zoos/changes'), await follow(t, app, '/v1/animals/changes')]
  const third = await follow(t, app, '/v1/zoos/changes')
  t.equal(third.status, 429)
  t.equal(third.headers.get('retry-after'), '5')
  const other = await follow(t, app, '/v1/zoos/changes', { authorization: await bearerOfNewClient(app) })
  t.equal(other.status, 200, 'another client has its own')
  streams[0]?.close()
  let reopened: Stream | undefined
  for (let tries = 0; tries < 100 && reopened?.status !== 200; tries++) {
    await new Promise(resolve => setTimeout(resolve, 20))
    reopened = await follow(t, app, '/v1/zoos/changes')
  }
  t.equal(reopened?.status, 200, 'a stream closed frees its place')
})

t.test('the stream limit counts each user of a client apart: one user at the limit leaves the others theirs', async t => {
  const app = await build(t)
  const alice = await passwordBearer(app, 'alice')
  const bob = await passwordBearer(app, 'bob')
  // The defaults: the client's ceiling stands far above a user's limit.
  for (let i = 0; i < app.config.changesStreamsPerUser; i++) {
    t.equal((await follow(t, app, '/v1/zoos/changes', { authorization: alice })).status, 200)
  }
  const more = await follow(t, app, '/v1/zoos/changes', { authorization: alice })
  t.equal(more.status, 429, 'alice is at her limit')
  t.equal(more.headers.get('retry-after'), '5')
  const other = await follow(t, app, '/v1/zoos/changes', { authorization: bob })
  t.equal(other.status, 200, 'bob, a user of the same client, still gets a stream')
})

t.test('the users of one client hold at most CHANGES_STREAMS_PER_CLIENT streams together', async t => {
  const app = await build(t, { CHANGES_STREAMS_PER_USER: '2', CHANGES_STREAMS_PER_CLIENT: '3' })
  const alice = await passwordBearer(app, 'alice')
  const bob = await passwordBearer(app, 'bob')
  const alices = [
    await follow(t, app, '/v1/zoos/changes', { authorization: alice }),
    await follow(t, app, '/v1/zoos/changes', { authorization: alice })
  ]
  t.same(alices.map(stream => stream.status), [200, 200])
  t.equal((await follow(t, app, '/v1/zoos/changes', { authorization: bob })).status, 200)
  const refused = await follow(t, app, '/v1/zoos/changes', { authorization: bob })
  t.equal(refused.status, 429, 'bob is under his own limit, but the client is at its ceiling')
  t.equal(refused.headers.get('retry-after'), '5')
  t.equal((await follow(t, app, '/v1/zoos/changes', { authorization: await bearerOfNewClient(app) })).status, 200,
    'another client has its own')
  alices[0]?.close()
  let reopened: Stream | undefined
  for (let tries = 0; tries < 100 && reopened?.status !== 200; tries++) {
    await new Promise(resolve => setTimeout(resolve, 20))
    reopened = await follow(t, app, '/v1/zoos/changes', { authorization: bob })
  }
  t.equal(reopened?.status, 200, 'a stream closed frees its place in its client\'s count too')
})

t.test('many streams of one collection each get every change; closing the app ends them', async t => {
  const app = await build(t)
  const streams = await Promise.all(Array.from({ length: 8 }, (_, i) => follow(t, app, '/v1/zoos/changes', { 'last-event-id': '0' })
    .then(async stream => {
      if (i % 2 === 0) await create(app, 'zoos', { name: `Z${i}`, city: 'X' })
      return stream
    })))
  await Promise.all(streams.map(stream => stream.until(() => stream.events.length >= 4, 'four events')))
  const orders = new Set(streams.map(stream => stream.events.map(e => e.id).join(',')))
  t.equal(orders.size, 1, 'the same changes in the same order, whether read catching up or live')
  t.equal(streams[0]?.events.length, 4)
  await app.close()
  await Promise.all(streams.map(stream => stream.until(() => stream.ended, 'the stream to end')))
  t.match(streams[0]?.comments.at(-1), /stopping/)
})

/** `Bearer <token>` of a new user with the zoos' read scope, through the password grant of the bootstrap client. */
async function passwordBearer (app: FastifyInstance, username: string): Promise<string> {
  await addUser(app, username, 'correct horse battery', 'zoos:read')
  const res = await tokenRequest(app, { grant_type: 'password', username, password: 'correct horse battery' })
  return `Bearer ${res.json().access_token as string}`
}

async function bearerOfNewClient (app: FastifyInstance): Promise<string> {
  const client = await addClient(app, 'zoos:read')
  const res = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret))
  return `Bearer ${res.json().access_token as string}`
}

t.test('a stream catching up on more than it can hold unsent waits for its reader instead of ending', async t => {
  const app = await build(t)
  for (let i = 0; i < 6; i++) {
    const many = Array.from({ length: 1000 }, (_, j) => ({ name: `Zoo ${i * 1000 + j} ${'x'.repeat(150)}`, city: 'Catch-up City' }))
    t.equal((await call(app, 'POST', '/v1/zoos', many)).statusCode, 201)
  }
  const stream = await follow(t, app, '/v1/zoos/changes', { 'last-event-id': '0' })
  await stream.until(() => stream.events.length >= 6000 || stream.ended, 'every change, or the end')
  t.equal(stream.events.length, 6000)
  t.equal(stream.ended, false, 'still following')
})

t.test('a stream whose catching up fails ends, saying so, and frees its place', async t => {
  const app = await build(t, { CHANGES_STREAMS_PER_CLIENT: '1' })
  await create(app, 'zoos', ZOO)
  const feed = storageOf(app).collections.feed
  const after = feed.after.bind(feed)
  t.teardown(() => { delete (feed as Partial<typeof feed>).after })
  let failing = true
  feed.after = async (...args) => {
    if (failing) throw new Error('the database is gone for a moment')
    return after(...args)
  }
  const stream = await follow(t, app, '/v1/zoos/changes', { 'last-event-id': '0' })
  await stream.until(() => stream.ended, 'the stream to end')
  t.match(stream.comments.at(-1), /could not be read: resume with Last-Event-ID/)
  failing = false
  const again = await follow(t, app, '/v1/zoos/changes', { 'last-event-id': '0' })
  t.equal(again.status, 200)
  await again.until(() => again.events.length === 1, 'the change')
})

t.test('a client gone before its stream starts holds no place', async t => {
  const app = await build(t, { CHANGES_STREAMS_PER_CLIENT: '1' })
  await create(app, 'zoos', ZOO)
  const feed = storageOf(app).collections.feed
  const pruned = feed.pruned.bind(feed)
  t.teardown(() => { delete (feed as Partial<typeof feed>).pruned })
  feed.pruned = async (...args) => {
    await new Promise(resolve => setTimeout(resolve, 300))
    return pruned(...args)
  }
  const abort = new AbortController()
  const leaving = fetch(`${await addressOf(app)}/v1/zoos/changes`, {
    headers: { accept: 'text/event-stream', authorization: await bearer(app), 'last-event-id': '0' }, signal: abort.signal
  }).catch(() => undefined)
  await new Promise(resolve => setTimeout(resolve, 100))
  abort.abort()
  await leaving
  await new Promise(resolve => setTimeout(resolve, 400))
  const stream = await follow(t, app, '/v1/zoos/changes', { 'last-event-id': '0' })
  t.equal(stream.status, 200, 'not 429: the client that left holds no stream')
})

t.test('a record is in the feed exactly as the API answers it, whatever its text holds', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'O\'Brien\'s "Zoo" \\ back\\slash E\'x\' ü 🦁 $1 $$', city: '\\\\' })
  await untilFinal(app, '/v1/zoos/changes', 1)
  const [change] = (await call(app, 'GET', '/v1/zoos/changes')).json()
  t.same(change.record, zoo)
})
