import { PassThrough } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { vary } from '../http/cache-control.ts'
import { HttpError } from '../http/errors.ts'
import { originOf } from '../http/links.ts'
import { serializerFor } from '../http/serialization.ts'
import { IdSchema, SafeInteger, TimestampSchema } from '../model/values.ts'
import { componentsOf, errors, GUARDED, recordRef, withHeaders } from '../schemas/responses.ts'
import { capitalize, type Resource } from '../model/resource.ts'
import { comparePositions, type ChangeEntry, type ChangeLog } from '../store/contract.ts'
import { accessNote } from './access-notes.ts'
import type { FeedPositions } from './feed-positions.ts'

type Instance = Parameters<FastifyPluginAsyncTypebox>[0]

/** The largest position a database can hold (PostgreSQL's bigint). */
const LAST_POSITION = 9223372036854775807n
const POSITION = '^(0|[A-Za-z0-9_-]{22})$'
const STREAM = 'text/event-stream'
/** Bytes a stream may hold unsent before its reader is deemed gone: it ends, and the client resumes from its last event. */
const MAX_UNSENT = 1 << 20
/** How long a client told its stream limit is asked to wait before trying again. */
const RETRY_AFTER_SECONDS = 5

const PositionSchema = Type.String({
  pattern: POSITION,
  description: 'A position in the feed, as the feed told it: 22 characters to hand back, which say nothing of how many ' +
    'changes come before it. 0 is the beginning'
})

/**
 * `GET /v1/<collection>/changes`: every committed change of the collection's records, in order,
 * as Server-Sent Events (Accept: text/event-stream) that follow each change as it commits, or as
 * one page of JSON for a client that polls. Resumes after a position (Last-Event-ID or `after`);
 * a position older than the feed keeps is 410, one it has not reached 400.
 */
export function changesRoute (fastify: Instance, resource: Resource): void {
  const log = fastify.storage.collections.feed
  const record = Type.Union([recordRef(resource), Type.Null()], { description: 'The record as the change left it; null once deleted' })
  const event = Type.String({ enum: ['created', 'updated', 'deleted'] })
  const Change = Type.Object({ position: PositionSchema, event, id: IdSchema, record, at: TimestampSchema },
    { additionalProperties: false })
  const { positions } = fastify.changeFeed
  const frameData = serializerFor(componentsOf(fastify.collections.resources),
    Type.Object({ id: IdSchema, record, at: TimestampSchema }, { additionalProperties: false }))
  /** Each change's event, written once however many streams send it. */
  const frames = new WeakMap<ChangeEntry, string>()
  const frame = (change: ChangeEntry): string => {
    let text = frames.get(change)
    if (text === undefined) {
      const data = frameData({ id: change.id, record: change.record, at: change.at })
      text = `id: ${positions.told(change.position)}\nevent: ${change.event}\ndata: ${data}\n\n`
      frames.set(change, text)
    }
    return text
  }
  const heartbeat = fastify.config.changesHeartbeat * 1000
  const { changesStreamsPerUser: perUser, changesStreamsPerClient: perClient } = fastify.config
  const { hub, userStreams, clientStreams, ends } = fastify.changeFeed

  fastify.get('/changes', {
    config: { stream: true },
    schema: {
      operationId: `follow${capitalize(resource.name)}Changes`,
      summary: `The changes of the ${resource.name}, as they commit`,
      description: `Every committed change of the ${resource.name}, in commit order, each once. ` +
        'With Accept: text/event-stream, Server-Sent Events: event created, updated or deleted, id the position, data ' +
        '{"id","record","at"}, following each change as it commits, with a comment every CHANGES_HEARTBEAT seconds; without a ' +
        'position, from the next change on. Otherwise one JSON page of changes and a Link to the next. Last-Event-ID (or after) ' +
        'resumes after a position: 410 when the feed no longer keeps what followed it. A stream ends when its access token ' +
        'expires or is revoked; a user holds at most CHANGES_STREAMS_PER_USER at once through one client, and the users of a ' +
        'client at most CHANGES_STREAMS_PER_CLIENT together (429).' + accessNote(resource, 'feed'),
      tags: [resource.name],
      querystring: Type.Object({
        after: Type.Optional(PositionSchema),
        limit: Type.Optional(SafeInteger({ minimum: 1, maximum: 1000, default: 100, description: 'Changes in a JSON page' }))
      }, { additionalProperties: false }),
      headers: Type.Object({
        'Last-Event-ID': Type.Optional(Type.String({ description: 'The id of the last event received: the stream resumes after it' }))
      }),
      response: {
        200: withHeaders({
          description: 'The changes: a stream of events, or a JSON page',
          content: {
            'application/json': { schema: Type.Array(Change) },
            [STREAM]: { schema: Type.String({ description: 'Server-Sent Events' }) }
          }
        }, 'Link'),
        ...errors(...GUARDED, 400, 410)
      }
    }
  }, async (request, reply) => {
    const streaming = request.accepts().type(['application/json', STREAM]) === STREAM
    vary(reply, 'Accept')
    const lastEventId = streaming ? request.headers['last-event-id'] : undefined
    const asked = lastEventId === undefined
      ? request.query.after === undefined ? undefined : positionOf(positions, request.query.after, 'after')
      : positionOf(positions, lastEventId, 'Last-Event-ID')
    // A client gone while the positions are checked gets no stream: nothing would end it.
    let gone = false
    reply.raw.once('close', () => { gone = true })
    const start = asked === undefined
      ? await (streaming ? log.head() : log.pruned(resource.name))
      : await kept(log, resource, asked)
    const records = request.records.collection(resource)
    if (!streaming) {
      const limit = request.query.limit ?? 100
      const { seen, next } = await records.changesAfter(start, limit)
      const url = `${originOf(request)}${request.url.split('?')[0] ?? ''}?after=${positions.told(next)}&limit=${limit}`
      const told = seen.map(change => ({ ...change, position: positions.told(change.position) }))
      return reply.header('Link', `<${url}>; rel="next"`).send(told)
    }

    const principal = request.principal
    if (principal === null) throw new Error('a change stream without a principal')
    if (gone) return reply.hijack()
    const client = JSON.stringify([principal.issuer, principal.clientId])
    // The users of one client (its password grant, an external issuer's shared azp) are counted apart, each by its subject.
    const user = JSON.stringify([principal.issuer, principal.clientId, principal.subject])
    const openByUser = userStreams.get(user) ?? 0
    if (openByUser >= perUser) {
      throw new HttpError(429, `This token's user has ${openByUser} change streams open through its client, the most one ` +
        'user may: close one first', {}, { 'Retry-After': String(RETRY_AFTER_SECONDS) })
    }
    const openByClient = clientStreams.get(client) ?? 0
    if (openByClient >= perClient) {
      throw new HttpError(429, `This token's client has ${openByClient} change streams open for its users, the most one ` +
        'client may: try again later', {}, { 'Retry-After': String(RETRY_AFTER_SECONDS) })
    }
    count(userStreams, user, 1)
    count(clientStreams, client, 1)
    const stream = new PassThrough()
    const token = bearerOf(request)
    let ended = false
    const end = (why: string): void => {
      if (ended) return
      ended = true
      subscription.close()
      clearInterval(beat)
      clearTimeout(expiry)
      ends.delete(stopping)
      count(userStreams, user, -1)
      count(clientStreams, client, -1)
      stream.end(`: ${why}\n\n`)
    }
    const stopping = (): void => end('the server is stopping')
    const send = (changes: readonly ChangeEntry[], catchingUp: boolean): void => {
      if (changes.length === 0 || ended) return
      // One write for all the changes of a read: each write to a stream costs a socket write.
      stream.write(changes.length === 1 ? frame(changes[0] as ChangeEntry) : changes.map(frame).join(''))
      // Catching up waits for the reader (drained); following, the changes of every stream come at once.
      if (!catchingUp && stream.writableLength > MAX_UNSENT) end('too far behind: resume with Last-Event-ID')
    }
    // A token bound by access rules is told of the changes they let it see (store/bound.ts),
    // which may ask the feed of a record's change before: in order, one read of the hub after another.
    let seeing: Promise<void> = Promise.resolve()
    const subscription = hub.subscribe(resource.name, start, {
      deliver: !records.bound
        ? send
        : (changes, catchingUp) => {
            seeing = seeing
              .then(() => records.seen(changes))
              .then(seen => send(seen, catchingUp), () => end('the feed could not be read: resume with Last-Event-ID'))
          },
      drained: () => !records.bound
        ? (stream.writableNeedDrain ? drainedOrClosed(stream) : undefined)
        : seeing.then(() => stream.writableNeedDrain ? drainedOrClosed(stream) : undefined),
      ended: () => end('the feed could not be read: resume with Last-Event-ID')
    })
    // The token is checked again at each heartbeat: a revoked one ends the stream within one.
    const beat = setInterval(() => {
      stream.write(': heartbeat\n\n')
      Promise.resolve().then(() => fastify.oauth.tokens.check(token)).catch(() => end('the access token no longer holds'))
    }, heartbeat)
    const expiry = setTimeout(() => end('the access token has expired'), Math.max(0, principal.expiresAt - Date.now()))
    ends.add(stopping)
    reply.raw.once('close', () => end('closed'))
    stream.once('close', () => end('closed'))
    stream.write(`: changes of ${resource.name} after position ${positions.told(start)}\n\n`)
    // A stream is sent as it is, not serialized: the schema of this answer is the JSON page's.
    return reply.type(`${STREAM}; charset=utf-8`).header('Cache-Control', 'no-cache').send(stream as unknown as string)
  })
}

/** The position a client handed back as `what`: a 400 for a text the feed did not tell. */
function positionOf (positions: FeedPositions, text: string, what: string): string {
  const position = positions.read(text)
  if (position === undefined) {
    throw new HttpError(400, `${what} must be a position this feed told: the id of an event, or the after of a next link`)
  }
  return position
}

/**
 * The position a client resumes after, once the feed is known to hold every change after it. The
 * refusals name no position: the feed's head and what it pruned are numbers too.
 */
async function kept (log: ChangeLog, resource: Resource, position: string): Promise<string> {
  const head = await log.head()
  if (BigInt(position) > LAST_POSITION || comparePositions(position, head) > 0) {
    throw new HttpError(400, 'The position is ahead of the feed: it was told by another database')
  }
  const pruned = await log.pruned(resource.name)
  if (comparePositions(position, pruned) < 0) {
    throw new HttpError(410, `The changes of the ${resource.name} after this position are no longer kept: ` +
      'read the collection again, then follow the feed from its head')
  }
  return position
}

/** Adds `by` to the open streams of `key`, forgetting a key left with none. */
function count (streams: Map<string, number>, key: string, by: 1 | -1): void {
  const open = (streams.get(key) ?? 0) + by
  if (open === 0) streams.delete(key)
  else streams.set(key, open)
}

/** Resolves once `stream` takes writes again, or is closed (its reader gone: nothing will drain it). */
function drainedOrClosed (stream: PassThrough): Promise<void> {
  return new Promise(resolve => {
    const done = (): void => {
      stream.off('drain', done)
      stream.off('close', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('close', done)
  })
}

/** The access token a guarded request carried (the guard has read it already). */
function bearerOf (request: FastifyRequest): string {
  return String(request.headers.authorization).replace(/^Bearer +/i, '').trim()
}
