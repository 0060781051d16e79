import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { basic, BOOTSTRAP, ENGINE, feedPositionsAt, freshSchema } from '../helper.ts'
import { start } from '../server-process.ts'
import { openStream, type Event, type Stream } from '../sse.ts'

/*
 * The durability claim of every write, tested end to end on the engine of the pass (SQLite's group
 * commit, store/sqlite/group-commit.ts; PostgreSQL's transactions): `npm start` as a real process
 * takes concurrent writes over real sockets (single records, arrays, batches) and is killed with
 * SIGKILL while some are in flight, at several moments, restarting on the same data each time.
 * Every write answered 2xx must be there after the restart; a write never answered may or may not
 * be, but never in part: a batch is all there or not at all. Two rounds stop it with SIGTERM
 * instead: a graceful stop in the middle of the writes, which must exit 0 and lose nothing it
 * acknowledged either. The change feed, replayed from its start, must make exactly the records the
 * API serves, and every event a stream received before the kill must still be in it.
 */

// Ten starts of the server, a load and a verification of everything written so far after each:
// about 40 s on SQLite and 60 on PostgreSQL with the machine to itself, beside other test files
// (tap runs several at once) up to twice that, over .taprc's 120 s for a file.
t.setTimeout(300_000)

/**
 * When each round stops the server and with which signal, in this order: `after` milliseconds
 * from the start of the load (the first rounds, before any answer), or from its first answer
 * (`answered`: the rounds that must stop it while writes are being answered, which the start of
 * the load would not promise on a machine busy with other test files, where the first answers
 * may take longer than 300 ms).
 */
const STOPS: { after: number, signal: 'SIGKILL' | 'SIGTERM', answered?: true }[] = [
  { after: 2, signal: 'SIGKILL' },
  { after: 15, signal: 'SIGKILL' },
  { after: 60, signal: 'SIGKILL' },
  { after: 150, signal: 'SIGTERM' },
  { after: 20, signal: 'SIGKILL', answered: true },
  { after: 150, signal: 'SIGKILL', answered: true },
  { after: 500, signal: 'SIGKILL', answered: true },
  { after: 500, signal: 'SIGTERM', answered: true },
  { after: 900, signal: 'SIGKILL', answered: true }
]
/** When a round stops the server, in words. */
const when = (stop: typeof STOPS[number]): string =>
  `${stop.after} ms ${stop.answered === true ? "after the load's first answer" : 'into the load'}`

/** Writes kept in flight, each on its own keep-alive connection. */
const CONCURRENCY = 20

interface Fields { name: string, city: string, country: string | null, opened_on: string | null }
const FIELD_NAMES = ['name', 'city', 'country', 'opened_on'] as const
const RECORD_KEYS = ['city', 'country', 'created_at', 'id', 'name', 'opened_on', 'updated_at']

/** A write sent and not answered when the process died: it may or may not have been committed. */
type Pending = { kind: 'patch', city: string } | { kind: 'delete' }

/** What the acknowledged writes say a zoo is. */
interface Known {
  id: number
  fields: Fields
  /** The version of the last acknowledged write (its ETag). */
  version: number
  deleted: boolean
  /** A PATCH or DELETE on it is in flight: no other write is sent to it meanwhile. */
  busy: boolean
  pending?: Pending
}

/**
 * A create that was sent and not acknowledged: its records may exist, all of them or none, each
 * with `fields` at `version` (2 for the records of a batch, which patches each after creating it).
 */
interface SentCreate { fields: Fields, batch: string[], version: number }

/** A request that got no complete answer: the connection failed. */
class Unanswered extends Error {}

interface Answer { status: number, headers: IncomingHttpHeaders, text: string }

/**
 * One request over `agent`'s keep-alive connections, as a TLS-terminating proxy would forward it;
 * `onSent` is called once the whole request is handed to the connection.
 */
async function request (
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  onSent?: () => void
): Promise<Answer> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      agent,
      host: '127.0.0.1',
      port,
      method,
      path,
      headers: {
        'x-forwarded-proto': 'https',
        ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
        ...headers
      }
    }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', chunk => { text += chunk })
      res.on('error', err => { reject(new Unanswered(`${method} ${path}: ${err.message}`)) })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, text }) })
    })
    if (onSent !== undefined) req.on('finish', onSent)
    req.on('error', err => { reject(new Unanswered(`${method} ${path}: ${err.message}`)) })
    req.end(payload)
  })
}

const versionOf = (answer: Answer): number => Number(/^"(\d+)"$/.exec(String(answer.headers.etag))?.[1] ?? NaN)

/** Runs `work` on every item, `width` at a time. */
async function pool<T> (items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++] as T)
  }))
}

const COUNTRIES = ['DE', 'FR', 'GB', 'US', 'JP', null]

t.test('every write answered 2xx survives a SIGKILL of the server at any moment, and none is ever half there', async t => {
  const dataDir = t.testdir()
  const dbFile = join(dataDir, 'zoo.db')
  const database: Record<string, string> = ENGINE === 'postgres' ? { DATABASE_URL: freshSchema(t, 'crash') } : {}
  /** The events a stream received in the round before the restart being verified. */
  let streamed: Event[] = []
  const known = new Map<number, Known>()
  /** Records whose last acknowledged write left them in place: PATCH and DELETE pick from these. */
  let live: number[] = []
  let sent = new Map<string, SentCreate>()
  const figures: {
    round: number
    stop: typeof STOPS[number]
    acknowledged: Record<string, number>
    streamed: number
    inFlight: number
    sent: number
    found: { creates: number, patches: number, deletes: number }
  }[] = []
  let serial = 0

  /** Every zoo of the database, page by page through the next links. */
  async function listAll (agent: Agent, port: number, auth: Record<string, string>): Promise<Map<number, Record<string, unknown>>> {
    const all = new Map<number, Record<string, unknown>>()
    let path: string | undefined = '/v1/zoos?limit=100'
    while (path !== undefined) {
      const page = await request(agent, port, 'GET', path, auth)
      if (page.status !== 200) throw new Error(`GET ${path}: ${page.status} ${page.text}`)
      for (const record of JSON.parse(page.text) as Record<string, unknown>[]) all.set(record.id as number, record)
      const next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link))?.[1]
      path = next === undefined ? undefined : new URL(next).pathname + new URL(next).search
    }
    return all
  }

  /**
   * Through the API of a fresh start: every acknowledged write is there, every record there was
   * written whole by a create that was sent. Then what was found becomes the known state (what
   * the restarted server reads is in the database file). Returns the writes found committed
   * although never answered, and whether all was well.
   */
  async function verify (round: number, agent: Agent, port: number, auth: Record<string, string>) {
    const problems: string[] = []
    const found = { creates: 0, patches: 0, deletes: 0 }
    const listed = await listAll(agent, port, auth)
    const byName = new Map<string, Record<string, unknown>>()
    for (const [id, record] of listed) {
      if (Object.keys(record).sort().join() !== RECORD_KEYS.join()) {
        problems.push(`zoo ${id} has the keys ${Object.keys(record).sort().join()}`)
      }
      if (known.has(id)) continue
      const name = String(record.name)
      const create = sent.get(name)
      if (create === undefined) {
        problems.push(`zoo ${id} (${name}) was never sent, or its create was refused`)
        continue
      }
      const got = Object.fromEntries(FIELD_NAMES.map(f => [f, record[f]]))
      if (JSON.stringify(got) !== JSON.stringify(create.fields)) {
        problems.push(`zoo ${id} is not as sent: ${JSON.stringify(got)} != ${JSON.stringify(create.fields)}`)
      }
      byName.set(name, record)
    }
    // A create never answered is all there or not at all.
    for (const create of new Set(sent.values())) {
      const present = create.batch.filter(name => byName.has(name))
      if (present.length > 0 && present.length < create.batch.length) {
        problems.push(`of the array ${create.batch.join(', ')} only ${present.join(', ')} exist`)
      }
    }
    for (const record of byName.values()) {
      const id = record.id as number
      found.creates++
      const fields = Object.fromEntries(FIELD_NAMES.map(f => [f, record[f]])) as unknown as Fields
      known.set(id, { id, fields, version: (sent.get(String(record.name)) as SentCreate).version, deleted: false, busy: false })
    }

    await pool([...known.values()], CONCURRENCY, async zoo => {
      const res = await request(agent, port, 'GET', `/v1/zoos/${zoo.id}`, auth)
      const deletedNote = zoo.deleted ? ', deleted' : ''
      const pendingNote = zoo.pending === undefined ? '' : `, ${zoo.pending.kind} in flight at the kill`
      const where = `zoo ${zoo.id} (last acknowledged version ${zoo.version}${deletedNote}${pendingNote})`
      if (res.status === 410) {
        if (listed.has(zoo.id)) problems.push(`${where}: 410, yet listed`)
        if (zoo.deleted) return
        if (zoo.pending?.kind === 'delete') {
          found.deletes++
          zoo.deleted = true
          zoo.pending = undefined
          return
        }
        problems.push(`${where}: 410 ${res.text}`)
        return
      }
      if (res.status !== 200) {
        problems.push(`${where}: ${res.status} ${res.text}`)
        return
      }
      if (zoo.deleted) {
        problems.push(`${where}: the acknowledged DELETE is undone, 200 ${res.text}`)
        return
      }
      const record = JSON.parse(res.text) as Record<string, unknown>
      const version = versionOf(res)
      const got = Object.fromEntries(FIELD_NAMES.map(f => [f, record[f]])) as unknown as Fields
      if (JSON.stringify(record) !== JSON.stringify(listed.get(zoo.id))) {
        problems.push(`${where}: GET ${res.text} but listed ${JSON.stringify(listed.get(zoo.id))}`)
      }
      if (Object.keys(record).sort().join() !== RECORD_KEYS.join()) {
        problems.push(`${where} has the keys ${Object.keys(record).sort().join()}`)
      }
      if (!(version >= zoo.version)) problems.push(`${where}: ETag ${String(res.headers.etag)}, older than acknowledged`)
      const pending = zoo.pending
      zoo.pending = undefined
      // No other write is sent to a record while one is in flight: the only versions possible are
      // the acknowledged one and, with a PATCH in flight at the kill, the one after it.
      if (pending?.kind === 'patch' && version === zoo.version + 1) {
        const patched = { ...zoo.fields, city: pending.city }
        if (JSON.stringify(got) !== JSON.stringify(patched)) {
          problems.push(`${where}: version ${version} holds ${JSON.stringify(got)}, not the patched ${JSON.stringify(patched)}`)
        }
        found.patches++
        zoo.fields = patched
        zoo.version = version
      } else if (version !== zoo.version) {
        problems.push(`${where}: version ${version}`)
      } else if (JSON.stringify(got) !== JSON.stringify(zoo.fields)) {
        problems.push(`${where}: holds ${JSON.stringify(got)}, acknowledged ${JSON.stringify(zoo.fields)}`)
      }
    })
    for (const id of listed.keys()) if (!known.has(id)) problems.push(`zoo ${id} is listed and was never verified`)
    problems.push(...await replayFeed(agent, port, auth, listed))
    live = [...known.values()].filter(zoo => !zoo.deleted).map(zoo => zoo.id)
    sent = new Map()
    const ok = t.same(problems, [], `round ${round}: after the restart, every acknowledged write is there and every record is whole ` +
      `(${listed.size} zoos listed, ${known.size} ids known)`)
    return { found, ok }
  }

  /**
   * The whole change feed, replayed from its start: each created id new, each updated or deleted
   * one live, positions growing; what it makes must be exactly the records listed, and every event
   * streamed before the restart must be in it as it was sent.
   */
  async function replayFeed (
    agent: Agent, port: number, auth: Record<string, string>, listed: Map<number, Record<string, unknown>>
  ): Promise<string[]> {
    const problems: string[] = []
    const made = new Map<number, Record<string, unknown> | null>()
    const byPosition = new Map<string, string>()
    const told = await feedPositionsAt({ dataDir, databaseUrl: database.DATABASE_URL })
    const numberOf = (position: string): bigint => BigInt(told.read(position) ?? Number.NaN)
    let after = '0'
    for (;;) {
      const page = await request(agent, port, 'GET', `/v1/zoos/changes?after=${after}&limit=1000`, auth)
      if (page.status !== 200) throw new Error(`GET changes: ${page.status} ${page.text}`)
      type Change = { position: string, event: string, id: number, record: Record<string, unknown> | null, at: string }
      const changes = JSON.parse(page.text) as Change[]
      for (const change of changes) {
        if (numberOf(change.position) <= numberOf(after)) problems.push(`change ${change.position} after ${after}`)
        after = change.position
        byPosition.set(change.position, JSON.stringify([change.event, change.id, change.record, change.at]))
        const before = made.get(change.id)
        if (change.event === 'created' ? before !== undefined : before == null) {
          const was = before === undefined ? 'never made' : 'deleted'
          problems.push(`change ${change.position}: ${change.event} of zoo ${change.id}, which was ${was}`)
        }
        made.set(change.id, change.record)
      }
      if (changes.length < 1000) break
    }
    const live = [...made].filter(([, record]) => record !== null)
    if (live.length !== listed.size) problems.push(`the feed makes ${live.length} zoos, the API lists ${listed.size}`)
    for (const [id, record] of live) {
      if (JSON.stringify(record) !== JSON.stringify(listed.get(id))) {
        problems.push(`the feed makes zoo ${id} ${JSON.stringify(record)}, the API lists ${JSON.stringify(listed.get(id))}`)
      }
    }
    for (const event of streamed) {
      if (byPosition.get(event.id) !== JSON.stringify([event.event, event.data.id, event.data.record, event.data.at])) {
        const held = byPosition.get(event.id) ?? 'nothing'
        problems.push(`event ${event.id} (${event.event} of zoo ${event.data.id}) was streamed, and the feed holds ${held} there`)
      }
    }
    return problems
  }

  for (let round = 0; round <= STOPS.length; round++) {
    const server = await start(t, dataDir, database)
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
    t.teardown(() => { agent.destroy() })
    const { port } = server
    const token = await request(agent, port, 'POST', '/oauth/token', {
      authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret),
      'content-type': 'application/x-www-form-urlencoded'
    }, 'grant_type=client_credentials')
    if (token.status !== 200) throw new Error(`token: ${token.status} ${token.text}`)
    const auth = { authorization: `Bearer ${(JSON.parse(token.text) as { access_token: string }).access_token}` }

    if (round > 0) {
      const { found, ok } = await verify(round - 1, agent, port, auth)
      ;(figures[round - 1] as typeof figures[number]).found = found
      // What is known is wrong from here on: the next rounds would only repeat the failure.
      if (!ok) break
    }
    const stop = STOPS[round]
    if (stop === undefined) {
      agent.destroy()
      server.child.kill('SIGTERM')
      t.same(await server.exit, [0, null], 'the last start stops cleanly')
      break
    }

    // A stream follows the feed through the load, until the server dies under it.
    const stream: Stream = await openStream(t, `http://127.0.0.1:${port}/v1/zoos/changes`, { ...auth, 'x-forwarded-proto': 'https' })
    if (stream.status !== 200) throw new Error(`stream: ${stream.status}`)
    await stream.until(() => stream.comments.length > 0, 'the stream to open')

    // The load: CONCURRENCY writes in flight at all times until the kill.
    const load = { killed: false, inFlight: 0, sent: 0 }
    let firstAnswer = (): void => {}
    const answered = new Promise<void>(resolve => { firstAnswer = resolve })
    const acknowledged = { create: 0, array: 0, batch: 0, patch: 0, delete: 0 }
    const unexpected: string[] = []
    /** Every answer but `status` is a failure, except what a gracefully stopping server answers 503: not acknowledged. */
    const expectStatus = (res: Answer, status: number, what: string): void => {
      if (res.status === status) return
      if (load.killed && stop.signal === 'SIGTERM' && res.status === 503) throw new Unanswered(`${what}: 503, the server is stopping`)
      throw new Error(`${what}: ${res.status} ${res.text}`)
    }
    const fieldsFor = (name: string): Fields => ({
      name,
      city: `City ${serial % 97}`,
      country: COUNTRIES[serial % COUNTRIES.length] ?? null,
      opened_on: serial % 3 === 0 ? null : `19${String(serial % 100).padStart(2, '0')}-0${1 + (serial % 9)}-1${serial % 10}`
    })
    const pickLive = (): Known | undefined => {
      for (let tries = 0; tries < 5 && live.length > 0; tries++) {
        const zoo = known.get(live[Math.floor(Math.random() * live.length)] as number)
        if (zoo !== undefined && !zoo.busy && !zoo.deleted) return zoo
      }
      return undefined
    }
    const write = async (): Promise<void> => {
      const n = ++serial
      const dice = Math.random()
      const target = dice < 0.45 ? undefined : pickLive()
      let whole = false
      const onSent = (): void => { whole = true; load.sent++ }
      let send: () => Promise<void>
      if (target === undefined && dice < 0.2) {
        const fields = fieldsFor(`crash r${round} w${n}`)
        sent.set(fields.name, { fields, batch: [fields.name], version: 1 })
        send = async () => {
          const res = await request(agent, port, 'POST', '/v1/zoos', auth, fields, onSent)
          expectStatus(res, 201, 'POST')
          const record = JSON.parse(res.text) as Record<string, unknown> & { id: number }
          known.set(record.id, { id: record.id, fields, version: versionOf(res), deleted: false, busy: false })
          live.push(record.id)
          sent.delete(fields.name)
          acknowledged.create++
        }
      } else if (target === undefined && dice < 0.35) {
        // A batch: creates, then a PATCH of each record it created, in one transaction.
        const created = Array.from({ length: 1 + (n % 3) }, (_, i) => fieldsFor(`crash r${round} w${n} b${i}`))
        const patched = created.map(fields => ({ ...fields, city: `Batched ${fields.name}` }))
        const create = { batch: created.map(f => f.name), version: 2 }
        for (const fields of patched) sent.set(fields.name, { fields, ...create })
        const operations = [
          ...created.map(fields => ({ method: 'POST', path: '/v1/zoos', body: fields })),
          ...patched.map((fields, i) => ({ method: 'PATCH', path: `/v1/zoos/{${i}.id}`, body: { city: fields.city } }))
        ]
        send = async () => {
          const res = await request(agent, port, 'POST', '/v1/batch', auth, { operations }, onSent)
          expectStatus(res, 200, 'POST /v1/batch')
          type Results = { results: { status: number, body: Record<string, unknown> & { id: number } }[] }
          const { results } = JSON.parse(res.text) as Results
          patched.forEach((fields, i) => {
            const record = results[created.length + i]?.body
            if (record?.city !== fields.city) {
              throw new Error(`POST /v1/batch: operation ${created.length + i} answered ${JSON.stringify(record)}`)
            }
            known.set(record.id, { id: record.id, fields, version: 2, deleted: false, busy: false })
            live.push(record.id)
            sent.delete(fields.name)
          })
          acknowledged.batch++
        }
      } else if (target === undefined) {
        const batch = Array.from({ length: 2 + (n % 4) }, (_, i) => fieldsFor(`crash r${round} w${n} i${i}`))
        const create = { batch: batch.map(f => f.name), version: 1 }
        for (const fields of batch) sent.set(fields.name, { fields, ...create })
        send = async () => {
          const res = await request(agent, port, 'POST', '/v1/zoos', auth, batch, onSent)
          expectStatus(res, 201, 'POST []')
          const records = JSON.parse(res.text) as (Record<string, unknown> & { id: number })[]
          if (records.length !== batch.length) throw new Error(`POST []: ${records.length} records for ${batch.length}`)
          records.forEach((record, i) => {
            const fields = batch[i] as Fields
            if (record.name !== fields.name) throw new Error(`POST []: record ${i} is ${String(record.name)}, sent ${fields.name}`)
            known.set(record.id, { id: record.id, fields, version: 1, deleted: false, busy: false })
            live.push(record.id)
            sent.delete(fields.name)
          })
          acknowledged.array++
        }
      } else if (dice < 0.8) {
        const city = `Patched r${round} w${n}`
        target.busy = true
        target.pending = { kind: 'patch', city }
        send = async () => {
          const res = await request(agent, port, 'PATCH', `/v1/zoos/${target.id}`, auth, { city }, onSent)
          expectStatus(res, 201, `PATCH ${target.id}`)
          target.pending = undefined
          const version = versionOf(res)
          if (version !== target.version + 1) throw new Error(`PATCH ${target.id}: version ${version} after ${target.version}`)
          target.fields = { ...target.fields, city }
          target.version = version
          acknowledged.patch++
        }
      } else {
        target.busy = true
        target.pending = { kind: 'delete' }
        send = async () => {
          const res = await request(agent, port, 'DELETE', `/v1/zoos/${target.id}`, auth, undefined, onSent)
          expectStatus(res, 204, `DELETE ${target.id}`)
          target.pending = undefined
          target.deleted = true
          live.splice(live.indexOf(target.id), 1)
          acknowledged.delete++
        }
      }
      load.inFlight++
      try {
        await send()
        firstAnswer()
      } catch (err) {
        // After the kill, a write without its complete answer is simply unacknowledged (and its
        // PATCH or DELETE stays pending); any other failure is one.
        if (!load.killed || !(err instanceof Unanswered)) unexpected.push((err as Error).message)
        if (!(err instanceof Unanswered) && target !== undefined) target.pending = undefined
      } finally {
        load.inFlight--
        if (whole) load.sent--
        if (target !== undefined && target.pending === undefined) target.busy = false
      }
    }
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (!load.killed && unexpected.length === 0) await write()
    })
    // Workers that end before any answer (a write refused unexpectedly) end the wait too.
    if (stop.answered === true) await Promise.race([answered, Promise.all(workers)])
    await new Promise(resolve => setTimeout(resolve, stop.after))
    const atKill = { inFlight: load.inFlight, sent: load.sent }
    load.killed = true
    server.child.kill(stop.signal)
    await Promise.all(workers)
    await stream.until(() => stream.ended, 'the stream to end with the server')
    streamed = stream.events
    agent.destroy()
    const graceful = stop.signal === 'SIGTERM'
    t.same(await server.exit, graceful ? [0, null] : [null, 'SIGKILL'], `round ${round}: ${stop.signal} ${when(stop)}`)
    t.same(unexpected, [], `round ${round}: every write answered before the ${stop.signal} was answered 2xx`)
    figures.push({ round, stop, acknowledged, streamed: streamed.length, ...atKill, found: { creates: 0, patches: 0, deletes: 0 } })

    // The file as the crash left it: opening it runs the WAL recovery.
    if (ENGINE === 'sqlite') {
      const db = new Database(dbFile)
      try {
        t.equal(db.pragma('integrity_check', { simple: true }), 'ok', `round ${round}: integrity_check after the ${stop.signal}`)
      } finally {
        db.close()
      }
    }
    if (unexpected.length > 0) break
  }

  for (const f of figures) {
    const total = Object.values(f.acknowledged).reduce((a, b) => a + b, 0)
    t.comment(`round ${f.round}: ${f.stop.signal} ${when(f.stop)}; ${total} writes acknowledged ` +
      `(${f.acknowledged.create} POST, ${f.acknowledged.array} POST [], ${f.acknowledged.batch} batches, ${f.acknowledged.patch} PATCH, ` +
      `${f.acknowledged.delete} DELETE), ${f.streamed} events streamed, ` +
      `${f.inFlight} in flight at the signal (${f.sent} of them sent whole); ` +
      `found committed though unanswered: ${f.found.creates} created, ${f.found.patches} patched, ${f.found.deletes} deleted`)
  }
  // The kills must have landed inside the stream of writes, else this proves nothing.
  if (figures.length < STOPS.length) return
  t.ok(figures.every(f => f.inFlight > 0), 'every stop came with writes in flight')
  const midStream = figures.filter(f => f.sent > 0 && Object.values(f.acknowledged).some(n => n > 0))
  t.ok(
    midStream.length >= Math.ceil(STOPS.length / 2),
    `${midStream.length} of ${STOPS.length} stops came while writes were being answered and others had been sent whole`
  )
})
