import type { ChangeEntry, FeedEvent, Owner } from './contract.ts'
import { changesOf, rowOf, rowsOf, type DatabasePort } from './database.ts'
import { counted, list, raw, sql, type Sql } from './sql.ts'

/*
 * Webhooks' subscriptions and deliveries (migrations/<engine>/150_webhooks.sql), the same SQL on
 * either engine through its database port. A subscription is its owner's alone: every read and
 * change of one names the owner, so another's is not there (404).
 */

/** What a subscription says, as its owner writes it. */
export interface WebhookSettings {
  url: string
  collections: string[]
  events: FeedEvent[]
  /** The list grammar's filters (`country=DE&opened_on_gte=2000-01-01`); '' for none. */
  filter: string
  enabled: boolean
}

/** A subscription as its owner reads it (never its secret). */
export interface Webhook extends WebhookSettings {
  id: number
  created_at: string
  updated_at: string
}

/** A subscription as the deliverer reads it: whose it is, what it signs with and where its deliveries stand. */
export interface WebhookSubscription extends Webhook {
  owner: Owner
  scope: string
  claims: string
  secret: string
  previousSecret: string | null
  previousUntil: string | null
  /** The feed position up to which its changes have been made deliveries. */
  position: string
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'skipped'

/** A delivery as the log shows it. */
export interface Delivery {
  id: number
  /** The change's position in the feed: the delivery's `webhook-id`. */
  change: string
  collection: string
  record_id: number
  event: FeedEvent
  at: string
  status: DeliveryStatus
  attempts: number
  last_status: number | null
  last_error: string | null
  next_attempt_at: string | null
}

/** A delivery taken to be sent, with its change and its subscription. */
export interface DueDelivery extends Delivery {
  entry: ChangeEntry
  webhook: WebhookSubscription
}

/**
 * A change a subscription wants, to keep as a delivery: with the outcome of its first attempt, sent
 * straight from the feed, or with none (`attempt` undefined), to be sent in its turn.
 */
export interface Kept { entry: ChangeEntry, attempt: Attempt | undefined }

/** A subscription's changes after `from` up to `to`, and those of them it wants, to keep as deliveries. */
export interface Move { id: number, from: string, to: string, kept: readonly Kept[] }

/** How a record is named among the records with a delivery waiting (`queued`). */
export const recordKey = (collection: string, id: number): string => `${collection}/${id}`

/** What an attempt came to: sent (any 2xx), to try again at `next`, given up, or skipped (outside what the owner may read). */
export interface Attempt {
  status: DeliveryStatus
  /** The receiver's status code, when it answered. */
  code: number | null
  error: string | null
  next: string | null
}

interface WebhookRow {
  id: number
  owner_issuer: string
  owner_client_id: string
  owner_subject: string
  scope: string
  claims: string
  url: string
  collections: string
  events: string
  filter: string
  enabled: number
  secret: string
  previous_secret: string | null
  previous_until: string | null
  position: string
  created_at: string
  updated_at: string
}

/** A delivery as the table holds it: its change's position and record as the feed had them. */
type DeliveryRow = Omit<Delivery, 'change'> & { position: string, record: string | null }

const WEBHOOK = raw('id, owner_issuer, owner_client_id, owner_subject, scope, claims, url, collections, events, filter, enabled, ' +
  'secret, previous_secret, previous_until, CAST(position AS TEXT) AS position, created_at, updated_at')
const DELIVERY = raw('id, CAST(position AS TEXT) AS position, collection, record_id, event, record, at, status, attempts, ' +
  'last_status, last_error, next_attempt_at')

function subscriptionOf (row: WebhookRow): WebhookSubscription {
  return {
    id: Number(row.id),
    url: row.url,
    collections: JSON.parse(row.collections),
    events: JSON.parse(row.events),
    filter: row.filter,
    enabled: Number(row.enabled) === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    owner: { issuer: row.owner_issuer, clientId: row.owner_client_id, subject: row.owner_subject },
    scope: row.scope,
    claims: row.claims,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousUntil: row.previous_until,
    position: row.position
  }
}

/** What the owner reads of a subscription. */
export const shownWebhook = ({ id, url, collections, events, filter, enabled, created_at: created, updated_at: updated }: Webhook):
Webhook => ({ id, url, collections, events, filter, enabled, created_at: created, updated_at: updated })

function deliveryOf (row: DeliveryRow): Delivery {
  return {
    id: Number(row.id),
    change: row.position,
    collection: row.collection,
    record_id: Number(row.record_id),
    event: row.event,
    at: row.at,
    status: row.status,
    attempts: Number(row.attempts),
    last_status: row.last_status === null ? null : Number(row.last_status),
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at
  }
}

const entryOf = (row: DeliveryRow): ChangeEntry => ({
  position: row.position,
  collection: row.collection,
  id: Number(row.record_id),
  event: row.event,
  record: row.record === null ? null : JSON.parse(row.record),
  at: row.at
})

const owned = (owner: Owner): Sql =>
  sql`owner_issuer = ${owner.issuer} AND owner_client_id = ${owner.clientId} AND owner_subject = ${owner.subject}`

/** A page of the delivery log: its deliveries of one status, or all, in an order. */
export interface DeliveryPage {
  status?: DeliveryStatus | undefined
  sort: keyof typeof DELIVERY_ORDERS
  descending: boolean
  limit: number
  offset: number
}

/** The orders the delivery log may be read in. */
export const DELIVERY_ORDERS = { id: raw('id'), next_attempt_at: raw('next_attempt_at') } as const

/**
 * The deliveries of a move, written by one statement of one text however many they are: their
 * values as one JSON array (`DatabasePort.jsonRows`), each row `[position, collection, record_id,
 * event, record, at, status, attempts, last_status, last_error, next_attempt_at]`. An INSERT of
 * one row of placeholders each was built, hashed and bound value by value at every run (a tenth of
 * what the deliveries cost the requests' thread, counted); the JSON's text is parsed by the
 * database. (`WHERE true` before the ON CONFLICT of an INSERT from a SELECT: SQLite's parser would
 * take the ON for a join's.)
 */
const KEPT = raw(`CAST(value ->> 0 AS BIGINT), value ->> 1, CAST(value ->> 2 AS BIGINT), value ->> 3, value ->> 4, value ->> 5,
  value ->> 6, CAST(value ->> 7 AS INTEGER), CAST(value ->> 8 AS INTEGER), value ->> 9, value ->> 10`)

export class SqlWebhookStore {
  readonly db: DatabasePort
  /** What passes over the rows another instance is taking (nothing where one process serves the database). */
  readonly skip: Sql

  /** Whether other processes send deliveries of the same database (PostgreSQL). */
  readonly shared: boolean

  /** `skip`: the engine's lease's (store/jobs.ts), where several processes serve the database. */
  constructor (db: DatabasePort, skip: Sql | undefined) {
    this.db = db
    this.shared = skip !== undefined
    this.skip = skip ?? raw('')
  }

  /** A new subscription of `owner`, whose deliveries start after the feed position `position`. */
  async create (owner: Owner, scope: string, claims: string, settings: WebhookSettings, secret: string, position: string):
  Promise<Webhook> {
    const now = new Date().toISOString()
    return subscriptionOf(await this.db.row<WebhookRow>(sql`INSERT INTO webhooks (owner_issuer, owner_client_id, owner_subject,
      scope, claims, url, collections, events, filter, enabled, secret, position, created_at, updated_at)
      VALUES (${owner.issuer}, ${owner.clientId}, ${owner.subject}, ${scope}, ${claims}, ${settings.url},
      ${JSON.stringify(settings.collections)}, ${JSON.stringify(settings.events)}, ${settings.filter}, ${settings.enabled ? 1 : 0},
      ${secret}, CAST(${position} AS BIGINT), ${now}, ${now}) RETURNING ${WEBHOOK}`) as WebhookRow)
  }

  async list (owner: Owner, limit: number, offset: number): Promise<{ items: Webhook[], total: number }> {
    const rows = await this.db.rows<WebhookRow>(sql`SELECT ${WEBHOOK} FROM webhooks WHERE ${owned(owner)}
      ORDER BY id LIMIT ${counted(limit)} OFFSET ${offset}`)
    const total = await this.db.row<{ total: number }>(sql`SELECT count(*) AS total FROM webhooks WHERE ${owned(owner)}`)
    return { items: rows.map(subscriptionOf), total: Number(total?.total) }
  }

  /** One of `owner`'s subscriptions; undefined for one that is not there or not theirs. */
  async find (id: number, owner: Owner): Promise<WebhookSubscription | undefined> {
    const row = await this.db.row<WebhookRow>(sql`SELECT ${WEBHOOK} FROM webhooks WHERE id = ${id} AND ${owned(owner)}`)
    return row === undefined ? undefined : subscriptionOf(row)
  }

  async update (id: number, owner: Owner, settings: WebhookSettings): Promise<Webhook | undefined> {
    const row = await this.db.row<WebhookRow>(sql`UPDATE webhooks SET url = ${settings.url},
      collections = ${JSON.stringify(settings.collections)}, events = ${JSON.stringify(settings.events)}, filter = ${settings.filter},
      enabled = ${settings.enabled ? 1 : 0}, updated_at = ${new Date().toISOString()}
      WHERE id = ${id} AND ${owned(owner)} RETURNING ${WEBHOOK}`)
    return row === undefined ? undefined : subscriptionOf(row)
  }

  /** Deletes a subscription and its deliveries; whether there was one. */
  async remove (id: number, owner: Owner): Promise<boolean> {
    return await this.db.run(sql`DELETE FROM webhooks WHERE id = ${id} AND ${owned(owner)}`) > 0
  }

  /** Gives a subscription a new secret, the one before signing too until `previousUntil`. */
  async rotate (id: number, owner: Owner, secret: string, previousUntil: string): Promise<boolean> {
    return await this.db.run(sql`UPDATE webhooks SET previous_secret = secret, previous_until = ${previousUntil}, secret = ${secret},
      updated_at = ${new Date().toISOString()} WHERE id = ${id} AND ${owned(owner)}`) > 0
  }

  /** Every enabled subscription, for the deliverer. */
  async enabled (): Promise<WebhookSubscription[]> {
    return (await this.db.rows<WebhookRow>(sql`SELECT ${WEBHOOK} FROM webhooks WHERE enabled = 1 ORDER BY id`)).map(subscriptionOf)
  }

  /**
   * Holds a subscription's changes after `from` for this instance to send until `until`, where
   * several serve the database: whether it holds them (none moved the subscription on, and no
   * other holds it). Where one process does, its one deliverer holds them all.
   */
  async hold (id: number, from: string, now: string, until: string): Promise<boolean> {
    if (!this.shared) return true
    return await this.db.run(sql`UPDATE webhooks SET leased_until = ${until} WHERE id = ${id} AND position = CAST(${from} AS BIGINT)
      AND (leased_until IS NULL OR leased_until < ${now})`) > 0
  }

  /** Of the records `entries` changed, those with a delivery to subscription `id` waiting to be sent (their `recordKey`s). */
  async queued (id: number, entries: readonly ChangeEntry[]): Promise<Set<string>> {
    if (entries.length === 0) return new Set()
    // Not DISTINCT: SQLite then marks the subscription's placeholder as one whose value may change
    // the plan, and the statement compiled again at every run (store/sql.ts `counted`); the Set is distinct.
    const rows = await this.db.rows<{ collection: string, record_id: number }>(sql`SELECT collection, record_id
      FROM webhook_deliveries WHERE webhook_id = ${id} AND collection IN (${list([...new Set(entries.map(e => e.collection))])})
      AND record_id IN (${list([...new Set(entries.map(e => e.id))])}) AND status = 'pending'`)
    return new Set(rows.map(row => recordKey(row.collection, Number(row.record_id))))
  }

  /**
   * For each move, keeps the changes it wants (after `from`, up to `to`) as deliveries of its
   * subscription, each with the outcome of its first attempt or waiting to be sent, and moves the
   * subscription to `to`, letting it go, all in one transaction (one wait for the disk on SQLite);
   * a move whose subscription is no longer at `from` (another instance moved it first) keeps
   * nothing. A delivery's change is kept only while it may be sent again (pending, failed).
   */
  async advance (moves: readonly Move[]): Promise<void> {
    if (moves.length === 0) return
    const port = this.db
    await this.db.transaction(function * () {
      for (const { id, from, to, kept } of moves) {
        const moved = yield * changesOf(sql`UPDATE webhooks SET position = CAST(${to} AS BIGINT), leased_until = NULL
          WHERE id = ${id} AND position = CAST(${from} AS BIGINT)`)
        if (moved === 0 || kept.length === 0) continue
        const rows = kept.map(({ entry: e, attempt }) => {
          const status = attempt?.status ?? 'pending'
          const record = e.record === null || status === 'succeeded' || status === 'skipped' ? null : JSON.stringify(e.record)
          const [attempts, next] = attempt === undefined ? [0, e.at] : [1, attempt.next]
          const outcome = [attempt?.code ?? null, attempt?.error ?? null, next]
          return [e.position, e.collection, e.id, e.event, record, e.at, status, attempts, ...outcome]
        })
        const values = port.jsonRows(JSON.stringify(rows))
        yield * changesOf(sql`INSERT INTO webhook_deliveries (webhook_id, position, collection, record_id, event, record, at, status,
          attempts, last_status, last_error, next_attempt_at) SELECT CAST(${id} AS BIGINT), ${KEPT} FROM ${values}
          WHERE true ON CONFLICT DO NOTHING`)
      }
    }())
  }

  /**
   * Takes up to `limit` deliveries due at `now`, held until `until`: of enabled subscriptions,
   * oldest first, and each only once no earlier change of its record waits to be delivered to the
   * same subscription, so that a record's changes arrive in the order they were made.
   */
  async take (now: string, until: string, limit: number): Promise<DueDelivery[]> {
    // One table read, so that the lease's lock takes the deliveries' rows alone, not their subscriptions'.
    const due = sql`SELECT d.id FROM webhook_deliveries d
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND (d.leased_until IS NULL OR d.leased_until < ${now})
      AND d.webhook_id IN (SELECT id FROM webhooks WHERE enabled = 1)
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id AND e.collection = d.collection
        AND e.record_id = d.record_id AND e.position < d.position AND e.status = 'pending')
      ORDER BY d.id LIMIT ${counted(limit)}${this.skip}`
    // Where one process serves the database (SQLite), its one deliverer takes the next deliveries
    // only once it has kept the outcomes of the last ones, and a delivery under way when the process
    // died is still pending at the next start: a lease would hold nothing from anyone, and cost a
    // transaction a cycle.
    const taken = !this.shared
      ? (await this.db.rows<{ id: number }>(due)).map(row => Number(row.id))
      : await this.db.transaction(function * () {
        const ids = (yield * rowsOf<{ id: number }>(due)).map(row => Number(row.id))
        for (const id of ids) yield * changesOf(sql`UPDATE webhook_deliveries SET leased_until = ${until} WHERE id = ${id}`)
        return ids
      }())
    if (taken.length === 0) return []
    const rows = await this.db.rows<DeliveryRow & { webhook_id: number }>(sql`SELECT ${DELIVERY}, webhook_id
      FROM webhook_deliveries WHERE id IN (${list(taken)}) ORDER BY id`)
    const webhooks = new Map<number, WebhookSubscription>()
    for (const id of new Set(rows.map(r => Number(r.webhook_id)))) {
      const row = await this.db.row<WebhookRow>(sql`SELECT ${WEBHOOK} FROM webhooks WHERE id = ${id}`)
      if (row !== undefined) webhooks.set(id, subscriptionOf(row))
    }
    return rows.flatMap(row => {
      const webhook = webhooks.get(Number(row.webhook_id))
      return webhook === undefined ? [] : [{ ...deliveryOf(row), entry: entryOf(row), webhook }]
    })
  }

  /**
   * Lets go of the deliveries held when this process started, to be sent again at once, where one
   * process serves the database: its deliveries are taken without a lease (take), so one held was
   * leased by an earlier version of the program, under way when it stopped. Where several do, a
   * lease passes only once its time is out.
   */
  async releaseAbandoned (): Promise<void> {
    if (!this.shared) await this.db.run(sql`UPDATE webhook_deliveries SET leased_until = NULL WHERE leased_until IS NOT NULL`)
  }

  /**
   * Records the attempts of deliveries taken together, and lets them go, in one transaction: on
   * SQLite each statement alone would be a transaction of its own, each waiting for the disk.
   */
  async attempted (attempts: readonly (readonly [number, Attempt])[]): Promise<void> {
    if (attempts.length === 0) return
    await this.db.transaction(function * () {
      for (const [id, attempt] of attempts) {
        yield * changesOf(sql`UPDATE webhook_deliveries SET status = ${attempt.status}, attempts = attempts + 1,
          last_status = ${attempt.code}, last_error = ${attempt.error}, next_attempt_at = ${attempt.next}, leased_until = NULL
          WHERE id = ${id}`)
      }
    }())
  }

  /** Turns a subscription off (its receiver said 410 Gone). */
  async disable (id: number): Promise<void> {
    await this.db.run(sql`UPDATE webhooks SET enabled = 0, updated_at = ${new Date().toISOString()} WHERE id = ${id}`)
  }

  /** A page of the delivery log of one of `owner`'s subscriptions, and how many match. */
  async deliveries (webhook: number, owner: Owner, { status, sort, descending, limit, offset }: DeliveryPage):
  Promise<{ items: Delivery[], total: number } | undefined> {
    if (await this.find(webhook, owner) === undefined) return undefined
    const where = sql`webhook_id = ${webhook}${status === undefined ? raw('') : sql` AND status = ${status}`}`
    const direction = raw(descending ? 'DESC' : 'ASC')
    const rows = await this.db.rows<DeliveryRow>(sql`SELECT ${DELIVERY} FROM webhook_deliveries WHERE ${where}
      ORDER BY ${DELIVERY_ORDERS[sort]} ${direction}, id ${direction} LIMIT ${counted(limit)} OFFSET ${offset}`)
    const total = await this.db.row<{ total: number }>(sql`SELECT count(*) AS total FROM webhook_deliveries WHERE ${where}`)
    return { items: rows.map(deliveryOf), total: Number(total?.total) }
  }

  /** Sends a failed delivery of one of `owner`'s subscriptions again, now: the delivery, or undefined when there is no such one. */
  async retry (webhook: number, delivery: number, owner: Owner): Promise<Delivery | 'not failed' | undefined> {
    return await this.db.transaction(function * () {
      const row = yield * rowOf<DeliveryRow>(sql`SELECT ${DELIVERY} FROM webhook_deliveries d
        WHERE d.id = ${delivery} AND d.webhook_id = ${webhook}
        AND EXISTS (SELECT 1 FROM webhooks WHERE id = ${webhook} AND ${owned(owner)})`)
      if (row === undefined) return undefined
      if (row.status !== 'failed') return 'not failed' as const
      const now = new Date().toISOString()
      yield * changesOf(sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ${now}, leased_until = NULL
        WHERE id = ${delivery}`)
      return deliveryOf({ ...row, status: 'pending', next_attempt_at: now })
    }())
  }

  /** Forgets the deliveries sent or skipped whose change was made before `done`, and those given up before `failed`. */
  async prune (done: Date, failed: Date): Promise<number> {
    return await this.db.run(sql`DELETE FROM webhook_deliveries WHERE (status IN ('succeeded', 'skipped') AND at < ${done.toISOString()})
      OR (status = 'failed' AND at < ${failed.toISOString()})`)
  }

  /**
   * When the first delivery waiting to be sent (again) falls due, in milliseconds since the epoch
   * (Infinity for none): one step along the due index.
   */
  async nextDue (): Promise<number> {
    const row = await this.db.row<{ next: string | null }>(sql`SELECT min(next_attempt_at) AS next FROM webhook_deliveries
      WHERE status = 'pending'`)
    return row?.next === null || row?.next === undefined ? Infinity : Date.parse(row.next)
  }

  /** Deliveries waiting to be sent, and when the oldest of them was made (for the metrics). */
  async waiting (): Promise<{ pending: number, oldest: string | null }> {
    const row = await this.db.row<{ pending: number, oldest: string | null }>(sql`SELECT count(*) AS pending, min(at) AS oldest
      FROM webhook_deliveries WHERE status = 'pending'`)
    return { pending: Number(row?.pending), oldest: row?.oldest ?? null }
  }
}
