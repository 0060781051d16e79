import { parentPort, Worker } from 'node:worker_threads'

/** A question as it crosses to the thread, and its answer (or why there is none) as it comes back, matched by id. */
interface Asked<Q> { id: number, question: Q }
type Answered<A> = { id: number, answer: A } | { id: number, failed: string }

/**
 * A thread asked questions, each one message, answered in any order by its module (answerAsked):
 * work that would slow the requests' thread (an HTTP client there shared Node's HTTP code with the
 * server's answers and left parts of it unoptimized, docs/benchmarks.md) done beside it. Started
 * at the first question; it keeps the process alive only while a question waits. A thread that
 * fails or ends has what it was asked answered by `lost` with why, and is replaced at the next question.
 */
export class AskedThread<Q, A> {
  readonly #module: URL | string
  readonly #data: unknown
  readonly #lost: (why: string, question: Q) => A
  readonly #waiting = new Map<number, { question: Q, answered: (answer: A) => void }>()
  #thread: Worker | undefined
  #next = 0

  constructor (module: URL | string, data: unknown, lost: (why: string, question: Q) => A) {
    this.#module = module
    this.#data = data
    this.#lost = lost
  }

  /** Whether a thread runs: none before the first question, nor after it was lost or closed. */
  get running (): boolean {
    return this.#thread !== undefined
  }

  async ask (question: Q): Promise<A> {
    const thread = this.#thread ?? this.#start()
    const id = this.#next++
    return await new Promise<A>(resolve => {
      this.#waiting.set(id, { question, answered: resolve })
      if (this.#waiting.size === 1) thread.ref()
      thread.postMessage({ id, question } satisfies Asked<Q>)
    })
  }

  /** Ends the thread; what it was still asked is answered by `lost`. */
  async close (): Promise<void> {
    const thread = this.#thread
    if (thread === undefined) return
    this.#lose(thread, 'the thread was closed')
    await thread.terminate()
  }

  #start (): Worker {
    const thread = new Worker(this.#module, { workerData: this.#data })
    thread.unref()
    thread.on('message', (answered: Answered<A>) => {
      const waiting = this.#waiting.get(answered.id)
      if (waiting === undefined) return
      this.#answer(answered.id, 'answer' in answered ? answered.answer : this.#lost(answered.failed, waiting.question))
    })
    thread.on('error', error => { this.#lose(thread, error.message) })
    thread.on('exit', () => { this.#lose(thread, 'the thread ended') })
    this.#thread = thread
    return thread
  }

  #lose (thread: Worker, why: string): void {
    if (this.#thread !== thread) return
    this.#thread = undefined
    for (const [id, { question }] of [...this.#waiting]) this.#answer(id, this.#lost(why, question))
  }

  #answer (id: number, answer: A): void {
    const waiting = this.#waiting.get(id)
    if (waiting === undefined) return
    this.#waiting.delete(id)
    if (this.#waiting.size === 0) this.#thread?.unref()
    waiting.answered(answer)
  }
}

/** Run by an asked thread's module: answers each question with what `answer` gives, or why it threw. */
export function answerAsked<Q, A> (answer: (question: Q) => Promise<A>): void {
  parentPort?.on('message', ({ id, question }: Asked<Q>) => {
    answer(question).then(
      given => { parentPort?.postMessage({ id, answer: given } satisfies Answered<A>) },
      (error: Error) => { parentPort?.postMessage({ id, failed: error.message } satisfies Answered<A>) })
  })
}
