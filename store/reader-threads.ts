import { performance } from 'node:perf_hooks'
import { parentPort, Worker } from 'node:worker_threads'
import { timedOut } from './refusals.ts'

/** What a reader thread answers a read: its value, or the message and code of what it threw. */
type ThreadAnswer<T> = { value: T } | { error: { message: string, code?: string } }

/** Run by a reader thread's module: answers each message with what `read` returns for it, or what it threw. */
export function serveReads<R> (read: (request: R) => unknown): void {
  parentPort?.on('message', (request: R) => {
    let answer: ThreadAnswer<unknown>
    try {
      answer = { value: read(request) }
    } catch (err) {
      const { message, code } = err as { message: string, code?: string }
      answer = { error: { message, ...(code === undefined ? {} : { code }) } }
    }
    parentPort?.postMessage(answer)
  })
}

interface Waiting {
  take: (thread: Worker) => void
  refuse: (error: Error) => void
  deadline: number
}

/**
 * Threads that run reads beside the event loop, so that a long one (an aggregate of a large
 * collection) never holds the requests: each thread runs the module `file` (given `data`), which
 * answers each message through serveReads, one read at a time. At most `size` threads, made when
 * needed and kept while idle (each keeps its prepared statements and its page cache); a read waits
 * for a free one. A read whose time runs out, waiting or running, is refused at once as `timed_out`
 * and its thread let go: a thread cannot be stopped inside a native call, so it ends once that
 * returns, and a new one takes its place.
 */
export class ReaderThreads {
  readonly #file: URL | string
  readonly #data: unknown
  readonly #size: number
  readonly #idle: Worker[] = []
  readonly #waiting: Waiting[] = []
  /** Every thread not let go, idle or reading. */
  readonly #threads = new Set<Worker>()
  #closed = false

  constructor (file: URL | string, data: unknown, size: number) {
    this.#file = file
    this.#data = data
    this.#size = size
  }

  /** The answer of a thread to `request`, within `timeout` seconds of now. */
  async read<T> (request: unknown, timeout: number): Promise<T> {
    const deadline = performance.now() + timeout * 1000
    const thread = await this.#take(deadline)
    return await new Promise<T>((resolve, reject) => {
      const answered = (answer: ThreadAnswer<T>): void => {
        settle()
        this.#give(thread)
        if ('value' in answer) resolve(answer.value)
        else reject(Object.assign(new Error(answer.error.message), answer.error.code === undefined ? {} : { code: answer.error.code }))
      }
      const failed = (error: Error): void => {
        settle()
        reject(error)
      }
      const ended = (): void => { failed(new Error('the reader thread ended before it answered')) }
      const settle = (): void => {
        clearTimeout(timer)
        thread.off('message', answered)
        thread.off('error', failed)
        thread.off('exit', ended)
      }
      const timer = setTimeout(() => {
        settle()
        this.#lose(thread)
        reject(timedOut())
      }, Math.max(0, deadline - performance.now()))
      thread.on('message', answered)
      thread.on('error', failed)
      thread.on('exit', ended)
      thread.postMessage(request)
    })
  }

  /** Ends every thread, a reading one too (its read is refused); a read waiting for one is refused. */
  async close (): Promise<void> {
    this.#closed = true
    for (const waiting of this.#waiting.splice(0)) waiting.refuse(new Error('the reader threads are closed'))
    this.#idle.length = 0
    await Promise.all([...this.#threads].map(thread => thread.terminate()))
  }

  /** An idle thread, a new one while fewer than `size` run, or the first to be given back before `deadline`. */
  async #take (deadline: number): Promise<Worker> {
    if (this.#closed) throw new Error('the reader threads are closed')
    const idle = this.#idle.pop()
    if (idle !== undefined) return idle
    if (this.#threads.size < this.#size) return this.#make()
    return await new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(waiting), 1)
        reject(timedOut())
      }, Math.max(0, deadline - performance.now()))
      const waiting: Waiting = {
        take: thread => { clearTimeout(timer); resolve(thread) },
        refuse: error => { clearTimeout(timer); reject(error) },
        deadline
      }
      this.#waiting.push(waiting)
    })
  }

  #make (): Worker {
    const thread = new Worker(this.#file, { workerData: this.#data })
    this.#threads.add(thread)
    // An idle thread does not keep the process alive.
    thread.unref()
    // A thread that fails (its reading one's listener says so to it) or ends is let go, idle or not.
    thread.on('error', () => { this.#lose(thread) })
    thread.on('exit', () => { this.#lose(thread) })
    return thread
  }

  #give (thread: Worker): void {
    const waiting = this.#waiting.shift()
    if (waiting !== undefined) waiting.take(thread)
    else this.#idle.push(thread)
  }

  /** Lets a thread go (timed out, failed or ended), once: its place is free for a new one, which the first waiting read gets. */
  #lose (thread: Worker): void {
    if (!this.#threads.delete(thread)) return
    const idle = this.#idle.indexOf(thread)
    if (idle >= 0) this.#idle.splice(idle, 1)
    // Its end is heard by its exit listener; nothing waits for it.
    thread.terminate().catch(() => {})
    const waiting = this.#waiting.shift()
    if (waiting !== undefined && !this.#closed) waiting.take(this.#make())
  }
}
