import { comparePositions, type ChangeEntry, type ChangeLog } from './store.ts'

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

interface Subscriber extends Subscription {
  deliver (entries: readonly ChangeEntry[]): void
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
 * - The log gives only final changes (collections/store.ts), so the hub never reads past a change
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

  /** Streams open, caught up or catching up. */
  get size (): number {
    return this.#live.size
  }

  /**
   * Delivers the changes of `collection` after `position`, in order, each once, from the first
   * missed to every one to come, until the subscription is closed. `deliver` must not throw.
   */
  subscribe (collection: string, position: string, deliver: (entries: readonly ChangeEntry[]) => void): Subscription {
    const subscriber: Subscriber = {
      collection,
      position,
      closed: false,
      deliver: entries => {
        const fresh = entries.filter(e => e.collection === collection && comparePositions(e.position, subscriber.position) > 0)
        if (fresh.length === 0 || subscriber.closed) return
        subscriber.position = (fresh.at(-1) as ChangeEntry).position
        deliver(fresh)
      },
      close: () => {
        subscriber.closed = true
        this.#live.delete(subscriber)
        if (this.#live.size === 0) this.#idle()
      }
    }
    this.#catchUp(subscriber).catch(err => {
      subscriber.close()
      this.onError(err)
    })
    return subscriber
  }

  /** Ends every subscription: the process is stopping. */
  close (): void {
    for (const subscriber of this.#live) subscriber.closed = true
    this.#live.clear()
    this.#idle()
    this.#stopListening()
  }

  async #catchUp (subscriber: Subscriber): Promise<void> {
    for (;;) {
      // Read before the page: every change up to it is final, so the page holds every one of them.
      const head = await this.#log.head()
      let page: ChangeEntry[]
      do {
        page = await this.#log.after(subscriber.position, subscriber.collection, PAGE)
        if (subscriber.closed) return
        subscriber.deliver(page)
      } while (page.length === PAGE)
      const readUpTo = comparePositions(subscriber.position, head) > 0 ? subscriber.position : head
      // No await from here on: nothing can move the hub between this test and joining it.
      if (this.#head === undefined) this.#head = readUpTo
      if (comparePositions(this.#head, readUpTo) <= 0) {
        this.#live.add(subscriber)
        this.#timer ??= setInterval(() => this.#wake(), this.#pollInterval).unref()
        // What committed while this stream caught up is read now rather than at the next poll.
        this.#wake()
        return
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
      for (const subscriber of this.#live) subscriber.deliver(page)
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
