import { channel } from 'node:diagnostics_channel'
import { comparePositions, type ChangeEntry, type ChangeLog } from '../store/contract.ts'

/**
 * The hub's deliveries to the open streams, for whoever listens (the metrics' feed lag): `{ at }`,
 * when the last change delivered was made.
 */
export const liveDeliveries = channel('zoo-api:feed.delivered')

/** Changes read in one go, by a subscriber catching up or by the hub. */
const PAGE = 1000

/** One stream of a collection's changes. */
export interface Subscription {
  readonly collection: string
  /** The position of the last change delivered (or the one the stream started after). */
  position: string
  /** Stops deliveries; the hub forgets it. */
  close (): void
}

/** What a stream does with the changes the hub hands it. */
export interface Receiver {
  /** Sends them; `catchingUp` while the stream reads what it missed, before it follows the hub. */
  deliver (entries: readonly ChangeEntry[], catchingUp: boolean): void
  /** Resolves once the stream can take more (the hub waits for it while the stream catches up); undefined when it can now. */
  drained?: () => Promise<void> | undefined
  /** The subscription ended without being closed: the feed could not be read, or the hub stopped. */
  ended (err?: unknown): void
}

interface Subscriber extends Subscription {
  deliver (entries: readonly ChangeEntry[], catchingUp: boolean): void
  closed: boolean
}

/**
 * The live side of the change feed: one reader per process, shared by every open stream, so that
 * fifty streams of a collection cost one read per new change, not fifty.
 *
 * - A new stream first catches up on its own, reading the log after its position until it has
 *   read up to where the hub stands; only then does it join the hub. Each stream delivers only
 *   positions after the last it delivered, so what it reads twice on the way is sent once.
 * - The hub reads the log after the last position it read when a write of this process commits
 *   (the log says so) and every `pollInterval` milliseconds for the writes of other processes
 *   (other instances on PostgreSQL), and hands each stream the changes of its collection.
 * - The log gives only final changes (store/contract.ts), so the hub never reads past a change
 *   that is still to come.
 */
export class ChangeHub {
  readonly #log: ChangeLog
  readonly #pollInterval: number
  readonly #live = new Set<Subscriber>()
  /** The last position the hub has read; undefined while no stream is live. */
  #head: string | undefined
  #reading = false
  #again = false
  /** Closed: the process is stopping, and no stream starts any more. */
  #closed = false
  #timer: NodeJS.Timeout | undefined
  readonly #stopListening: () => void
  /** Called with what a read of the log threw; the hub reads again at the next wake. */
  readonly onError: (err: unknown) => void

  constructor (log: ChangeLog, pollInterval: number, onError: (err: unknown) => void) {
    this.#log = log
    this.#pollInterval = pollInterval
    this.onError = onError
    this.#stopListening = log.onCommit(() => { if (this.#live.size > 0) this.#wake() })
  }

  /**
   * Hands `receiver` the changes of `collection` after `position`, in order, each once, from the
   * first missed to every one to come, until the subscription is closed. A receiver that throws
   * is ended with what it threw, alone.
   */
  subscribe (collection: string, position: string, receiver: Receiver): Subscription {
    const subscriber: Subscriber = {
      collection,
      position,
      closed: false,
      deliver: (entries, catchingUp) => {
        const fresh = entries.filter(e => e.collection === collection && comparePositions(e.position, subscriber.position) > 0)
        if (fresh.length === 0 || subscriber.closed) return
        subscriber.position = (fresh.at(-1) as ChangeEntry).position
        try {
          receiver.deliver(fresh, catchingUp)
        } catch (err) {
          end(err)
        }
      },
      close: () => {
        subscriber.closed = true
        this.#live.delete(subscriber)
        if (this.#live.size === 0) this.#idle()
      }
    }
    const end = (err?: unknown): void => {
      if (subscriber.closed) return
      subscriber.close()
      if (err !== undefined) this.onError(err)
      receiver.ended(err)
    }
    this.#catchUp(subscriber, receiver).then(joined => { if (!joined) end() }, end)
    return subscriber
  }

  /** Ends every subscription: the process is stopping. */
  close (): void {
    this.#closed = true
    for (const subscriber of this.#live) subscriber.closed = true
    this.#live.clear()
    this.#idle()
    this.#stopListening()
  }

  /** Whether the subscriber, caught up, joined the hub: not when it was closed meanwhile, or the hub was. */
  async #catchUp (subscriber: Subscriber, receiver: Receiver): Promise<boolean> {
    for (;;) {
      if (this.#closed || subscriber.closed) return false
      // Read before the page: every change up to it is final, so the page holds every one of them.
      const head = await this.#log.head()
      let page: ChangeEntry[]
      do {
        page = await this.#log.after(subscriber.position, subscriber.collection, PAGE)
        if (this.#closed || subscriber.closed) return false
        subscriber.deliver(page, true)
        await receiver.drained?.()
        if (this.#closed || subscriber.closed) return false
      } while (page.length === PAGE)
      const readUpTo = comparePositions(subscriber.position, head) > 0 ? subscriber.position : head
      // No await from here on: nothing can move the hub between this test and joining it.
      if (this.#head === undefined) this.#head = readUpTo
      if (comparePositions(this.#head, readUpTo) <= 0) {
        this.#live.add(subscriber)
        this.#timer ??= setInterval(() => this.#wake(), this.#pollInterval).unref()
        // What committed while this stream caught up is read now rather than at the next poll.
        this.#wake()
        return true
      }
    }
  }

  #wake (): void {
    if (this.#reading) {
      this.#again = true
      return
    }
    this.#reading = true
    this.#read().catch(this.onError).finally(() => { this.#reading = false })
  }

  async #read (): Promise<void> {
    do {
      this.#again = false
      if (this.#head === undefined) return
      const page = await this.#log.after(this.#head, undefined, PAGE)
      // The last stream left while reading: the next one starts afresh.
      if (this.#head === undefined) return
      if (page.length === 0) continue
      for (const subscriber of this.#live) subscriber.deliver(page, false)
      if (liveDeliveries.hasSubscribers) liveDeliveries.publish({ at: (page.at(-1) as ChangeEntry).at })
      this.#head = (page.at(-1) as ChangeEntry).position
      if (page.length === PAGE) this.#again = true
    } while (this.#again)
  }

  #idle (): void {
    clearInterval(this.#timer)
    this.#timer = undefined
    this.#head = undefined
  }
}
