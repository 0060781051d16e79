import type { Attributes, HrTime, Link, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api'
import { ExportResultCode, type ExportResult, type InstrumentationScope } from '@opentelemetry/core'
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace'
import { AskedThread } from '../threads/asked.ts'

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
export type ExporterRequest = { spans: SpanData[] } | { flush: true } | { shutdown: true }

/** What the thread answers: an export's outcome, with the message of its error. */
export interface ExporterAnswer { code: ExportResultCode, error?: string }

/**
 * The OTLP exporter, run on a thread of its own (telemetry/exporter.ts): the batches' encoding and
 * their HTTP requests are the thread's work, and the requests' thread only hands each batch over
 * as plain data. On the requests' thread, the exporter's HTTP client left parts of Node's HTTP code
 * unoptimized for every request: with 1% of traces kept, sending cost a GET 8% (docs/benchmarks.md).
 * A batch the thread could not take (it failed or ended) is answered as failed, as the SDK's
 * exporter answers a send that fails.
 */
export class ExporterThread implements SpanExporter {
  readonly #thread: AskedThread<ExporterRequest, ExporterAnswer>

  constructor (module: URL | string, data: ExporterData) {
    this.#thread = new AskedThread<ExporterRequest, ExporterAnswer>(module, data, error => ({ code: ExportResultCode.FAILED, error }))
  }

  export (spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    // Never refused: a batch the thread could not take is answered as failed.
    this.#thread.ask({ spans: spans.map(dataOf) }).then(({ code, error }) => {
      done(error === undefined ? { code } : { code, error: new Error(error) })
    })
  }

  async forceFlush (): Promise<void> {
    await this.#thread.ask({ flush: true })
  }

  async shutdown (): Promise<void> {
    if (!this.#thread.running) return
    await this.#thread.ask({ shutdown: true })
    await this.#thread.close()
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
