import { Worker } from 'node:worker_threads'
import type { Attributes, HrTime, Link, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api'
import { ExportResultCode, type ExportResult, type InstrumentationScope } from '@opentelemetry/core'
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace'

/** A span's context as it crosses to the thread: its trace state written out. */
export type ContextData = Omit<SpanContext, 'traceState'> & { traceState?: string }

/** A span as it crosses to the thread: what the OTLP exporter reads of it, as plain data. */
export interface SpanData {
  name: string
  kind: SpanKind
  context: ContextData
  parent: ContextData | undefined
  startTime: HrTime
  endTime: HrTime
  duration: HrTime
  ended: boolean
  status: SpanStatus
  attributes: Attributes
  links: Array<Omit<Link, 'context'> & { context: ContextData }>
  events: TimedEvent[]
  droppedAttributesCount: number
  droppedEventsCount: number
  droppedLinksCount: number
  instrumentationScope: InstrumentationScope
}

/** What the thread is started with: where and how to send, and the attributes of the resource every span belongs to. */
export interface ExporterData {
  url: string
  protocol: 'http/json' | 'http/protobuf'
  resource: Attributes
}

/** What the thread is asked: to send spans, to send what it holds, or to stop. */
export type ExporterRequest = { id: number } & ({ spans: SpanData[] } | { flush: true } | { shutdown: true })

/** What the thread answers, by the request's id: an export's outcome, with the message of its error. */
export interface ExporterAnswer { id: number, code: ExportResultCode, error?: string }

/**
 * The OTLP exporter, run on a thread of its own (telemetry/exporter.ts): the batches' encoding and
 * their HTTP requests are the thread's work, and the requests' thread only hands each batch over
 * as plain data. On the requests' thread, an export's HTTP client shared Node's HTTP code with the
 * server's answers and left parts of it unoptimized for every request: with 1% of traces kept,
 * sending cost a GET 8% (docs/benchmarks.md). A thread that fails or ends is replaced at the next
 * export; what it was sending is answered as failed, as the SDK's exporter answers a send that fails.
 */
export class ExporterThread implements SpanExporter {
  readonly #module: URL | string
  readonly #data: ExporterData
  readonly #waiting = new Map<number, (answer: ExporterAnswer) => void>()
  #thread: Worker | undefined
  #next = 0

  constructor (module: URL | string, data: ExporterData) {
    this.#module = module
    this.#data = data
  }

  export (spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.#ask({ spans: spans.map(dataOf) }, ({ code, error }) => {
      done(error === undefined ? { code } : { code, error: new Error(error) })
    })
  }

  async forceFlush (): Promise<void> {
    await new Promise(resolve => { this.#ask({ flush: true }, resolve) })
  }

  async shutdown (): Promise<void> {
    if (this.#thread === undefined) return
    await new Promise(resolve => { this.#ask({ shutdown: true }, resolve) })
    await this.#thread?.terminate()
  }

  #ask (request: { spans: SpanData[] } | { flush: true } | { shutdown: true }, answered: (answer: ExporterAnswer) => void): void {
    const thread = this.#thread ?? this.#start()
    const id = this.#next++
    this.#waiting.set(id, answered)
    // The thread keeps the process alive only while it is asked something: an idle one does not.
    if (this.#waiting.size === 1) thread.ref()
    thread.postMessage({ id, ...request } satisfies ExporterRequest)
  }

  #start (): Worker {
    const thread = new Worker(this.#module, { workerData: this.#data })
    thread.unref()
    thread.on('message', ({ id, ...answer }: ExporterAnswer) => { this.#answer(id, { id, ...answer }) })
    const lost = (error?: Error): void => {
      if (this.#thread !== thread) return
      this.#thread = undefined
      const message = error?.message ?? 'the exporter thread ended'
      for (const id of [...this.#waiting.keys()]) this.#answer(id, { id, code: ExportResultCode.FAILED, error: message })
    }
    thread.on('error', lost)
    thread.on('exit', () => { lost() })
    this.#thread = thread
    return thread
  }

  #answer (id: number, answer: ExporterAnswer): void {
    const answered = this.#waiting.get(id)
    if (answered === undefined) return
    this.#waiting.delete(id)
    if (this.#waiting.size === 0) this.#thread?.unref()
    answered(answer)
  }
}

function contextData ({ traceState, ...context }: SpanContext): ContextData {
  return traceState === undefined ? context : { ...context, traceState: traceState.serialize() }
}

/** `span` as plain data for the thread: its context and its parent's as values, not as the functions and objects that hold them. */
function dataOf (span: ReadableSpan): SpanData {
  return {
    name: span.name,
    kind: span.kind,
    context: contextData(span.spanContext()),
    parent: span.parentSpanContext === undefined ? undefined : contextData(span.parentSpanContext),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    ended: span.ended,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map(link => ({ ...link, context: contextData(link.context) })),
    events: span.events,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
    instrumentationScope: span.instrumentationScope
  }
}
