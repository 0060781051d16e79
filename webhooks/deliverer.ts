import { channel } from 'node:diagnostics_channel'
import { context, ROOT_CONTEXT, SpanStatusCode, trace, type Span } from '@opentelemetry/api'
import type { FastifyBaseLogger } from 'fastify'
import { filterOfText, matcher, termOf, type Filter, type Matcher } from '../model/filters.ts'
import { fieldComparator, type Resource } from '../model/resource.ts'
import { BoundStores, type Bearer } from '../store/bound.ts'
import type { ChangeEntry, ChangeLog, CollectionStores, FeedEvent } from '../store/contract.ts'
import { recordKey, type Attempt, type Move, type SqlWebhookStore, type WebhookSubscription } from '../store/webhooks.ts'
import type { Answer, Posting, Round, Target } from './sending.ts'

/** Each attempt's outcome, for whoever listens (the metrics): `{ outcome }`, succeeded, retried, failed or skipped. */
export const webhookAttempts = channel('zoo-api:webhook.attempt')

/** Changes of the feed made deliveries at a time, and deliveries sent at a time. */
const PAGE = 500
const SENT_TOGETHER = 50
/** What an attempt comes to when the record is outside what the subscription's account may read. */
const SKIPPED: Attempt = {
  status: 'skipped', code: null, error: 'outside what the subscription\'s account may read now (its scopes and access rules)', next: null
}
/** How often the deliverer looks for changes other instances wrote, and for retries that fell due. */
const POLL_MS = 1000
/** How long the log keeps a delivery sent or skipped, and one given up (which may be sent again until then); how often it is pruned. */
const KEPT_DONE_MS = 7 * 24 * 3600 * 1000
const KEPT_FAILED_MS = 30 * 24 * 3600 * 1000
const PRUNE_MS = 3600 * 1000

/**
 * A delivery to attempt: a change to a subscription (its position the `webhook-id`), the attempts
 * made before, and its id once kept (one sent again).
 */
interface Outgoing { webhook: WebhookSubscription, entry: ChangeEntry, attempts: number, id?: number }

/** What a subscription's deliveries of one round are made with: what its account may read now, and the stores within it. */
interface Sender { bearer: Bearer, stores: BoundStores }

/** An attempt's key among a run's: subscriptions at the same position are sent the same changes, each its own attempt. */
const sentTo = (webhook: number, entry: ChangeEntry): string => `${webhook} ${entry.position}`

/** What the deliverer works with: `grant` is what a subscription's account may read now (auth/grants.ts). */
export interface DelivererOptions {
  store: SqlWebhookStore
  log: ChangeLog
  stores: CollectionStores
  resources: readonly Resource[]
  grant: (webhook: WebhookSubscription) => Promise<Bearer>
  settings: DelivererSettings
  logger: FastifyBaseLogger
}

export interface DelivererSettings {
  timeout: number
  retries: readonly number[]
  /** Sends a round's POSTs, answered in the order of its postings: on a thread of its own (webhooks/sender.ts), beside the requests'. */
  send: (round: Round) => Promise<Answer[]>
}

/**
 * The filters of a subscription's filter text (the list grammar: `country=DE&opened_on_gte=2000-01-01`)
 * for one collection; throws the reason a filter is refused (a field the collection lacks, a value
 * of the wrong type).
 */
export function filtersOf (resource: Resource, text: string): Filter[] {
  const columns = new Map(resource.columns.map(c => [c.name, c]))
  return [...new URLSearchParams(text)].map(([name, value]) => {
    const term = termOf(columns, name)
    if (term === undefined) throw new Error(`${name} names no field of ${resource.name} and an operator it takes`)
    return filterOfText(term.column, term.op, value)
  })
}

/**
 * Delivers each change to the subscriptions that want it (docs/webhooks.md), in two steps that
 * survive any stop: the changes of the feed after a subscription's position are sent, within what
 * the subscription's account may read at that moment, and kept as deliveries with their outcomes,
 * the position moved past them, in one transaction (a subscription's next page held by one
 * instance on a shared database); then the deliveries kept to be sent again that are due are
 * taken (held by a lease on a shared database), sent, and their outcome kept. Woken by every
 * commit of this process, and every second for the others' writes and the retries that fell due.
 */
export class Deliverer {
  readonly #store: SqlWebhookStore
  readonly #log: ChangeLog
  readonly #stores: CollectionStores
  readonly #resources: readonly Resource[]
  readonly #byName: ReadonlyMap<string, Resource>
  readonly #grant: (webhook: WebhookSubscription) => Promise<Bearer>
  readonly #settings: DelivererSettings
  readonly #logger: FastifyBaseLogger
  #timer: NodeJS.Timeout | undefined
  #stopListening: (() => void) | undefined
  #running: Promise<void> | undefined
  #again = false
  #started = false
  #stopped = false
  /**
   * Whether the last look found an enabled subscription: a commit, and on SQLite the poll, wake
   * the deliverer only then, so that a service without webhooks pays a write nothing for them and
   * sends the database nothing while idle. A route that writes a subscription wakes it; on a
   * shared database the poll looks every second whatever it found, for another instance's.
   */
  #busy = true
  /**
   * From when a delivery kept to be sent again may be due (ms since the epoch): the look for them
   * (a statement a run, a hundred runs a second under writes) is made only from then. Set by the
   * look itself (the first due after it; Infinity when none waits), lowered by each delivery this
   * process keeps to be sent again; the poll and a route's wake (a delivery sent again on request)
   * make it look at once, and with it for what other instances kept.
   */
  #dueFrom = 0
  /** The matchers of each enabled subscription, by its collections and filter (#matchers). */
  readonly #compiled = new Map<number, { key: string, matchers: Map<string, Matcher> }>()
  #pruned = 0

  constructor (options: DelivererOptions) {
    this.#store = options.store
    this.#log = options.log
    this.#stores = options.stores
    this.#resources = options.resources
    this.#byName = new Map(options.resources.map(r => [r.name, r]))
    this.#grant = options.grant
    this.#settings = options.settings
    this.#logger = options.logger
  }

  async start (): Promise<void> {
    await this.#store.releaseAbandoned()
    this.#started = true
    this.#stopListening = this.#log.onCommit(() => { if (this.#busy) this.#wake() })
    this.#timer = setInterval(() => { if (this.#busy || this.#store.shared) this.wake() }, POLL_MS).unref()
    this.wake()
  }

  /** Stops taking work; resolves once the deliveries under way are sent and kept. */
  async stop (): Promise<void> {
    this.#stopped = true
    clearInterval(this.#timer)
    this.#stopListening?.()
    await this.#running
  }

  /** Runs the deliverer soon, looking for every delivery due too (a subscription or a delivery changed, the poll). */
  wake (): void {
    this.#dueFrom = 0
    this.#wake()
  }

  #wake (): void {
    if (!this.#started || this.#stopped) return
    if (this.#running !== undefined) {
      this.#again = true
      return
    }
    // Apart from the request whose commit woke it: its deliveries' spans and statements are theirs, not that request's.
    this.#running = context.with(ROOT_CONTEXT, async () => await this.#run())
      .catch(err => { this.#logger.error({ err }, 'webhook deliveries failed; tried again shortly') })
      .finally(() => { this.#running = undefined })
  }

  async #run (): Promise<void> {
    do {
      this.#again = false
      const enabled = await this.#store.enabled()
      this.#busy = enabled.length > 0
      // A delivery is sent only for an enabled subscription: without one there is nothing to take.
      if (!this.#busy) return
      await this.#dispatch(enabled)
      if (Date.now() >= this.#dueFrom) {
        // Lowered meanwhile by the deliveries kept to be sent again, and by a wake.
        this.#dueFrom = Infinity
        while (!this.#stopped && await this.#sendDue() === SENT_TOGETHER);
        this.#dueFrom = Math.min(this.#dueFrom, await this.#store.nextDue())
      }
      if (Date.now() - this.#pruned > PRUNE_MS) {
        this.#pruned = Date.now()
        await this.#store.prune(new Date(this.#pruned - KEPT_DONE_MS), new Date(this.#pruned - KEPT_FAILED_MS))
      }
    } while (this.#again && !this.#stopped)
  }

  /**
   * Sends the changes after each subscription's position that it wants, a page of the feed for each
   * (read once for the subscriptions at the same position), straight from the feed (#sendFirst),
   * then keeps them as deliveries with their outcomes, the subscriptions moved past them, in one
   * transaction: a change sent when the process stops before that commit is sent again (at least
   * once). Where several instances serve the database, each page is sent by the one holding its
   * subscription. Another run follows when a page was full.
   */
  async #dispatch (enabled: readonly WebhookSubscription[]): Promise<void> {
    const ids = new Set(enabled.map(webhook => webhook.id))
    for (const id of this.#compiled.keys()) if (!ids.has(id)) this.#compiled.delete(id)
    const pages = new Map<string, Promise<ChangeEntry[]>>()
    const moves: Array<Omit<Move, 'kept'> & { webhook: WebhookSubscription, wanted: ChangeEntry[] }> = []
    const now = Date.now()
    for (const webhook of enabled) {
      let page = pages.get(webhook.position)
      if (page === undefined) pages.set(webhook.position, page = this.#log.after(webhook.position, undefined, PAGE))
      const read = await page
      if (read.length === 0) continue
      if (read.length === PAGE) this.#again = true
      const matchers = this.#matchers(webhook)
      const wanted: ChangeEntry[] = []
      for (const entry of read) {
        const wants = this.#wants(webhook, matchers, entry)
        if (wants === true || (wants !== false && await wants)) wanted.push(entry)
      }
      if (wanted.length > 0 && !await this.#store.hold(webhook.id, webhook.position, new Date(now).toISOString(), this.#leasedUntil(now))) {
        continue
      }
      moves.push({ id: webhook.id, from: webhook.position, to: (read.at(-1) as ChangeEntry).position, webhook, wanted })
    }
    const attempts = await this.#sendFirst(moves)
    await this.#store.advance(moves.map(({ id, from, to, wanted }) =>
      ({ id, from, to, kept: wanted.map(entry => ({ entry, attempt: attempts.get(sentTo(id, entry)) })) })))
    // A change kept unsent is due at once; one whose first attempt failed, at its next.
    if (moves.some(({ id, wanted }) => wanted.some(entry => !attempts.has(sentTo(id, entry))))) this.#dueFrom = 0
    this.#keptAgain(attempts.values())
    this.#published(attempts.values())
  }

  /**
   * Sends the first attempt of the changes each subscription wants, up to SENT_TOGETHER at a time:
   * a record's changes one after another, each once the one before it was sent; none of a record
   * whose earlier change waits to be sent again (they follow it, in order, through #sendDue), nor,
   * after a receiver answered 410 Gone, of its subscription. Those not sent before the receivers'
   * timeout has passed once, or the deliverer stops, wait too.
   */
  async #sendFirst (moves: ReadonlyArray<{ webhook: WebhookSubscription, wanted: readonly ChangeEntry[] }>):
  Promise<Map<string, Attempt>> {
    const chains: Outgoing[][] = []
    // Where this process alone writes the deliveries, none waits when the last look for the due
    // found none and none was kept to be sent again since (#dueFrom): nothing to ask.
    const noneWaiting = !this.#store.shared && this.#dueFrom === Infinity
    for (const { webhook, wanted } of moves) {
      const queued = noneWaiting ? new Set<string>() : await this.#store.queued(webhook.id, wanted)
      const byRecord = new Map<string, Outgoing[]>()
      for (const entry of wanted) {
        const key = recordKey(entry.collection, entry.id)
        if (queued.has(key)) continue
        let chain = byRecord.get(key)
        if (chain === undefined) byRecord.set(key, chain = [])
        chain.push({ webhook, entry, attempts: 0 })
      }
      chains.push(...byRecord.values())
    }
    const attempts = new Map<string, Attempt>()
    const gone = new Set<number>()
    const until = Date.now() + this.#settings.timeout * 1000
    while (!this.#stopped && Date.now() < until) {
      const sent = chains.filter(chain => chain.length > 0 && !gone.has((chain[0] as Outgoing).webhook.id)).slice(0, SENT_TOGETHER)
      if (sent.length === 0) break
      const heads = sent.map(chain => chain.shift() as Outgoing)
      const outcomes = await this.#attemptAll(heads)
      heads.forEach((head, i) => {
        const attempt = outcomes[i] as Attempt
        attempts.set(sentTo(head.webhook.id, head.entry), attempt)
        if (attempt.status === 'pending') (sent[i] as Outgoing[]).length = 0
        if (attempt.code === 410) gone.add(head.webhook.id)
      })
    }
    return attempts
  }

  /** Until when a delivery or a page of changes taken now is held: one attempt's timeout after another's, and a margin. */
  #leasedUntil (now: number): string {
    return new Date(now + (2 * this.#settings.timeout + 30) * 1000).toISOString()
  }

  /**
   * A subscription's filter, as a matcher for each of its collections that takes it: made once and
   * kept while its collections and filter stay as they are (the resources do not change while the
   * process runs), rather than parsed and compiled at every run.
   */
  #matchers (webhook: WebhookSubscription): Map<string, Matcher> {
    const key = `${webhook.collections.join(',')}?${webhook.filter}`
    const kept = this.#compiled.get(webhook.id)
    if (kept?.key === key) return kept.matchers
    const matchers = new Map<string, Matcher>()
    for (const name of webhook.collections) {
      const resource = this.#byName.get(name)
      if (resource === undefined) continue
      try {
        matchers.set(name, matcher(filtersOf(resource, webhook.filter), field => fieldComparator(resource, field), resource.search))
      } catch {
        // A filter its collection no longer takes (a field removed): that collection's changes are not delivered.
      }
    }
    this.#compiled.set(webhook.id, { key, matchers })
    return matchers
  }

  /**
   * Whether a subscription wants a change: its collection, its event, and its filter on the record
   * as changed (as it was, deleted: the one case that reads the feed, so the others answer at once
   * rather than each through a promise).
   */
  #wants (webhook: WebhookSubscription, matchers: ReadonlyMap<string, Matcher>, entry: ChangeEntry): boolean | Promise<boolean> {
    const matches = matchers.get(entry.collection)
    if (matches === undefined || !webhook.events.includes(entry.event as FeedEvent)) return false
    if (webhook.filter === '') return true
    if (entry.record !== null) return matches(entry.record)
    // A deleted record, as its change before left it; one no longer kept may have matched.
    return this.#log.previous(entry).then(before => before?.record === null || before?.record === undefined || matches(before.record))
  }

  /** Sends the deliveries kept to be sent (again) that are due, up to SENT_TOGETHER at a time: how many it took. */
  async #sendDue (): Promise<number> {
    const now = Date.now()
    const due = await this.#store.take(new Date(now).toISOString(), this.#leasedUntil(now), SENT_TOGETHER)
    if (due.length === 0) return 0
    const outcomes = await this.#attemptAll(due)
    const attempts = due.map((delivery, i) => [delivery.id, outcomes[i] as Attempt] as const)
    await this.#store.attempted(attempts)
    this.#keptAgain(attempts.map(([, attempt]) => attempt))
    this.#published(attempts.map(([, attempt]) => attempt))
    return due.length
  }

  /** Looks for the deliveries due from the first of these attempts' next, once kept. */
  #keptAgain (attempts: Iterable<Attempt>): void {
    for (const { next } of attempts) if (next !== null) this.#dueFrom = Math.min(this.#dueFrom, Date.parse(next))
  }

  /** Tells whoever listens (the metrics) each attempt's outcome, once kept. */
  #published (attempts: Iterable<Attempt>): void {
    if (!webhookAttempts.hasSubscribers) return
    for (const { status } of attempts) webhookAttempts.publish({ outcome: status === 'pending' ? 'retried' : status })
  }

  /**
   * Makes an attempt of each delivery, their POSTs handed to the sending thread together, each
   * within what its subscription's account may read at this moment (one look at each account's
   * grant), in a span of its own when traces are on (a root span: the change's request has long
   * been answered).
   */
  async #attemptAll (outgoing: readonly Outgoing[]): Promise<Attempt[]> {
    const now = new Date().toISOString()
    const senders = new Map<number, Promise<Sender>>()
    const senderOf = (webhook: WebhookSubscription): Promise<Sender> => {
      let sender = senders.get(webhook.id)
      if (sender === undefined) {
        const stores = (bearer: Bearer): Sender => ({ bearer, stores: new BoundStores(this.#stores, this.#resources, bearer) })
        senders.set(webhook.id, sender = this.#grant(webhook).then(stores))
      }
      return sender
    }
    // Each subscription's url and secrets told the sending thread once a round (the one before a rotation too, until its time is out).
    const targets: Target[] = []
    const targetOf = new Map<number, number>()
    for (const { webhook } of outgoing) {
      if (targetOf.has(webhook.id)) continue
      targetOf.set(webhook.id, targets.length)
      const secrets = webhook.previousSecret !== null && webhook.previousUntil !== null && webhook.previousUntil > now
        ? [webhook.secret, webhook.previousSecret]
        : [webhook.secret]
      targets.push({ url: webhook.url, secrets })
    }
    // The tracer of the provider set now: one got once would keep the first provider's, shut down with its app.
    const tracer = trace.getTracer('zoo-api')
    const spans = outgoing.map(({ webhook, id }) => {
      const delivery = id === undefined ? {} : { 'zoo.webhook.delivery.id': id }
      const attributes = { 'http.request.method': 'POST', 'zoo.webhook.id': webhook.id, ...delivery }
      return tracer.startSpan('webhook POST', { attributes }, ROOT_CONTEXT)
    })
    const postings = await Promise.all(outgoing.map(async one =>
      await this.#posting(one, targetOf.get(one.webhook.id) as number, await senderOf(one.webhook))))
    const sent = postings.filter(posting => posting !== undefined)
    const answers = sent.length === 0 ? [] : await this.#settings.send({ timeout: this.#settings.timeout, targets, postings: sent })
    // The answers come in the order of the postings sent: none for a delivery skipped.
    let next = 0
    const answered = postings.map(posting => posting === undefined ? undefined : answers[next++] as Answer)
    return await Promise.all(outgoing.map(async (one, i) => {
      const answer = answered[i]
      const span = spans[i] as Span
      try {
        const attempt = answer === undefined ? SKIPPED : await this.#outcome(one, answer)
        if (attempt.code !== null) span.setAttribute('http.response.status_code', attempt.code)
        if (attempt.status === 'pending' || attempt.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR })
        return attempt
      } finally {
        span.end()
      }
    }))
  }

  /** A delivery's POST, its record as the subscription's account may read it; undefined for one outside what it may read now. */
  async #posting ({ entry }: Outgoing, to: number, { bearer, stores }: Sender): Promise<Posting | undefined> {
    const resource = this.#byName.get(entry.collection)
    const [told] = resource === undefined || !bearer.scopes.has(`${entry.collection}:read`)
      ? []
      : await stores.collection(resource).seen([entry])
    if (told === undefined) return undefined
    const body = JSON.stringify({ type: `${entry.collection}.${told.event}`, timestamp: entry.at, data: told.record ?? { id: entry.id } })
    return { to, id: entry.position, body }
  }

  /** What a receiver's answer makes of an attempt: sent (any 2xx), the subscription disabled (410 Gone), or tried again until given up. */
  async #outcome ({ webhook, attempts }: Outgoing, answer: Answer): Promise<Attempt> {
    if ('code' in answer && answer.code >= 200 && answer.code < 300) {
      return { status: 'succeeded', code: answer.code, error: null, next: null }
    }
    if ('code' in answer && answer.code === 410) {
      await this.#store.disable(webhook.id)
      return { status: 'failed', code: 410, error: 'the receiver answered 410 Gone: the subscription is disabled', next: null }
    }
    const code = 'code' in answer ? answer.code : null
    const error = 'error' in answer ? answer.error : `the receiver answered ${answer.code}`
    const wait = this.#settings.retries[attempts]
    if (wait === undefined) return { status: 'failed', code, error, next: null }
    // Jitter: receivers that failed together are not all retried at the same moment.
    const next = new Date(Date.now() + wait * (0.8 + 0.4 * Math.random()) * 1000).toISOString()
    return { status: 'pending', code, error, next }
  }
}
