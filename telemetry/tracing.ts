import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import {
  CompositePropagator, getBooleanFromEnv, getNumberFromEnv, getStringFromEnv, W3CBaggagePropagator, W3CTraceContextPropagator
} from '@opentelemetry/core'
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider,
  type ReadableSpan, type Sampler, type Span as SdkSpan, type SpanProcessor, type TimedEvent
} from '@opentelemetry/sdk-trace'
import { FastifyOtelInstrumentation } from '@fastify/otel'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config/index.ts'
import { loggedPath } from '../http/links.ts'
import { StoreError } from '../model/refusal.ts'
import { programVersion } from '../packaging/shipped.ts'
import { operationOf, statements, writeContexts, type StatementEvent } from '../store/observed.ts'

/** The traces of the service, when an OTLP endpoint is set (startTracing). */
export interface Tracing {
  /**
   * @fastify/otel's plugin, a span per request named by its route template, and the kind of error
   * a request failed with. Registered before every other hook (app.ts).
   */
  plugin: FastifyPluginAsync
  /** pino's `mixin`: the trace and span ids on every line logged within a request. */
  logMixin: (merged: object, level: number, logger: object) => object
  /** Sends the spans not sent yet, then stops; the process's tracing is then off. */
  shutdown: () => Promise<void>
}

/** What a statement's event carries while its span is open. */
type Traced = StatementEvent & { span?: Span }

/** The span a request's logger belongs to: where its lines find it once the span is no longer the active one. */
const REQUEST_SPAN = Symbol('request span')
/** The name of a statement's span by its text (its operation and table): texts are few, but a list's vary with its filters. */
const NAMES_KEPT = 1000

/**
 * The service's traces, with the OpenTelemetry SDK and the Fastify team's instrumentation: off
 * (undefined, nothing installed) unless OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, and unless OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none
 * says otherwise. On:
 *
 * - a span per request (@fastify/otel, registered as a plugin: nothing is hooked into the module
 *   loader, so the single binary traces as `npm start` does), named `GET /v1/zoos/:id`, with the
 *   request's id among its attributes;
 * - a child span per database statement (store/observed.ts), named by its operation and table,
 *   its text (never its values) an attribute; statements outside a request (the feed's polls,
 *   pruning) make none;
 * - a span per background job (jobs/queue.ts), its replayed request a child of it;
 * - a span that ends in an error says its kind (`error.type`), never its message (WithoutValues);
 * - the spans sent in batches over OTLP/HTTP, protobuf unless OTEL_EXPORTER_OTLP_PROTOCOL (or its
 *   _TRACES_ form) is `http/json`; the exporters read their headers, timeout, compression and
 *   certificates from the standard variables.
 *
 * The SDK's own tracer provider reads no variable: the sampler (OTEL_TRACES_SAMPLER,
 * OTEL_TRACES_SAMPLER_ARG) and the batches (OTEL_BSP_*) are read here, as the specification says
 * them; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES by the resource's detector.
 */
export function startTracing (config: Pick<Config, 'otelExporterOtlpEndpoint' | 'otelExporterOtlpTracesEndpoint'>): Tracing | undefined {
  const url = config.otelExporterOtlpTracesEndpoint ??
    (config.otelExporterOtlpEndpoint === undefined ? undefined : `${config.otelExporterOtlpEndpoint}/v1/traces`)
  if (url === undefined || getBooleanFromEnv('OTEL_SDK_DISABLED') || getStringFromEnv('OTEL_TRACES_EXPORTER') === 'none') return undefined
  const protocol = getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf'
  const exporter = protocol === 'http/json' ? new JsonExporter({ url }) : new ProtobufExporter({ url })
  const provider = new TracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.name': 'zoo-api', 'service.version': programVersion() }))
      .merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerFromEnv(),
    spanProcessors: [new WithoutValues(new BatchSpanProcessor({
      exporter,
      maxQueueSize: getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
      maxExportBatchSize: getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
      scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
      exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT')
    }))]
  })
  // What the Node SDK's `register()` did: one context manager, propagator and provider for the process.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager())
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }))
  trace.setGlobalTracerProvider(provider)

  const requestSpans = new WeakMap<FastifyRequest, Span>()
  const instrumentation = new FastifyOtelInstrumentation({
    // The request's span alone, and the statements under it: a span per hook would cost more than it tells.
    instrumentHooks: false,
    instrumentHandler: false,
    requestHook (span, request) {
      // OpenTelemetry's HTTP server span name: the method and the route's template, the method alone without a route.
      const route = request.routeOptions.url
      span.updateName(route === undefined ? request.method : `${request.method} ${route}`)
      span.setAttribute('zoo.request.id', String(request.id))
      // The path as the log has it: a query holds values (filters, search words, a sign-in's
      // authorization code), an absolute-form target a user's password.
      span.setAttribute('url.path', loggedPath(request.url))
      requestSpans.set(request, span)
      // request.log is the request's own logger (reply.log too), the app's only before the request has one.
      if (request.log !== request.server.log) (request.log as unknown as Record<symbol, Span>)[REQUEST_SPAN] = span
    }
  })
  instrumentation.setTracerProvider(provider)
  const unsubscribe = traceStatements(provider.getTracer('zoo-api'))
  return {
    plugin: fp(async function tracing (fastify) {
      await fastify.register(instrumentation.plugin())
      // After the plugin's own, which marks the span as an error with the error's message (left
      // out on export): the kind of error, which names no value.
      fastify.addHook('onError', async (request, _reply, error) => {
        requestSpans.get(request)?.setAttribute('error.type', errorTypeOf(error))
      })
    }, { name: 'tracing' }),
    logMixin (_merged, _level, logger) {
      const span = trace.getActiveSpan() ?? (logger as Record<symbol, Span | undefined>)[REQUEST_SPAN]
      if (span === undefined) return {}
      const { traceId, spanId } = span.spanContext()
      return { trace_id: traceId, span_id: spanId }
    },
    async shutdown () {
      unsubscribe()
      instrumentation.disable()
      await provider.shutdown()
      trace.disable()
      context.disable()
      propagation.disable()
    }
  }
}

/**
 * The kind of an error, as a span's `error.type` says it: why the data refused a write
 * (`invalid`, `conflict`...), else the error's code (`FST_ERR_VALIDATION`, `invalid_grant`,
 * `SQLITE_CONSTRAINT_UNIQUE`, PostgreSQL's `23505`), else its class. Never its message, which may
 * hold a value sent (`email "ada@zoo.test" is already used`).
 */
function errorTypeOf (error: unknown): string {
  if (error instanceof StoreError) return error.kind
  const { code, name } = error as { code?: unknown, name?: unknown }
  return typeof code === 'string' || typeof code === 'number' ? String(code) : typeof name === 'string' ? name : 'Error'
}

/**
 * Every span leaves the process without a value a request sent: its status keeps its code and
 * loses its message, an exception event keeps the error's type and loses its message and stack.
 * Messages hold values (`badge "SECRETBADGE" is already used`, an employee's email, a driver's
 * `invalid input syntax for type integer: "..."`), and @fastify/otel writes a request's error
 * into its span's status message, whatever its options say (`recordExceptions: false` leaves out
 * the exception event, not the status message). A processor in front of the export is the one
 * place every span passes, whoever made it (the plugin, the statements, the jobs), so the rule
 * holds for spans made elsewhere too; the spans made here record no message in the first place.
 */
class WithoutValues implements SpanProcessor {
  readonly #next: SpanProcessor

  constructor (next: SpanProcessor) {
    this.#next = next
  }

  onStart (span: SdkSpan, parentContext: Context): void {
    this.#next.onStart(span, parentContext)
  }

  onEnd (span: ReadableSpan): void {
    this.#next.onEnd(withoutValues(span))
  }

  async forceFlush (): Promise<void> {
    await this.#next.forceFlush()
  }

  async shutdown (): Promise<void> {
    await this.#next.shutdown()
  }
}

/** `span` as it may be exported (WithoutValues); the span itself, when it holds nothing to leave out. */
function withoutValues (span: ReadableSpan): ReadableSpan {
  const exception = (event: TimedEvent): boolean => event.name === 'exception'
  if (span.status.message === undefined && !span.events.some(exception)) return span
  const typeOnly = (event: TimedEvent): TimedEvent => {
    const type = event.attributes?.['exception.type']
    return { ...event, attributes: type === undefined ? {} : { 'exception.type': type } }
  }
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    ...(span.parentSpanContext === undefined ? {} : { parentSpanContext: span.parentSpanContext }),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    ended: span.ended,
    status: { code: span.status.code },
    attributes: span.attributes,
    links: span.links,
    events: span.events.map(event => exception(event) ? typeOnly(event) : event),
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount
  }
}

/** The sampler OTEL_TRACES_SAMPLER names (the specification's names), every trace by default. */
function samplerFromEnv (): Sampler {
  const ratio = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG') ?? 1
  switch (getStringFromEnv('OTEL_TRACES_SAMPLER')) {
    case 'always_on': return new AlwaysOnSampler()
    case 'always_off': return new AlwaysOffSampler()
    case 'traceidratio': return new TraceIdRatioBasedSampler(ratio)
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) })
    default: return new ParentBasedSampler({ root: new AlwaysOnSampler() })
  }
}

/** A span for each statement run within a span (a request's, a job's); returns what stops it. */
function traceStatements (tracer: ReturnType<TracerProvider['getTracer']>): () => void {
  const names = new Map<string, { name: string, operation: string }>()
  const nameOf = (text: string): { name: string, operation: string } => {
    let known = names.get(text)
    if (known === undefined) {
      if (names.size >= NAMES_KEPT) names.clear()
      const operation = operationOf(text)
      const table = /\b(?:FROM|INTO|UPDATE|JOIN)\s+"?([A-Za-z_][A-Za-z0-9_]*)/i.exec(text)?.[1]
      names.set(text, known = { name: table === undefined ? operation : `${operation} ${table}`, operation })
    }
    return known
  }
  const end = (event: Traced): void => {
    event.span?.end()
    event.span = undefined
  }
  const subscribers = {
    start (message: unknown) {
      const event = message as Traced
      // Within a request or a job whose trace is sampled: a statement of a trace not kept costs no span.
      if (trace.getActiveSpan()?.isRecording() !== true) return
      const { name, operation } = nameOf(event.text)
      event.span = tracer.startSpan(name, {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': event.system, 'db.operation.name': operation, 'db.query.text': event.text }
      })
    },
    // SQLite answers before `end`; PostgreSQL in `asyncEnd`.
    end (message: unknown) { if ((message as Traced).system === 'sqlite') end(message as Traced) },
    asyncEnd (message: unknown) { end(message as Traced) },
    // The error's kind, not its message: a driver's message may quote a value the statement was given.
    error (message: unknown) {
      const { span, error } = message as Traced
      span?.setAttribute('error.type', errorTypeOf(error))
      span?.setStatus({ code: SpanStatusCode.ERROR })
    }
  } as Parameters<typeof statements.subscribe>[0]
  statements.subscribe(subscribers)
  const inContext = (): void => {}
  writeContexts.subscribe(inContext)
  return () => {
    statements.unsubscribe(subscribers)
    writeContexts.unsubscribe(inContext)
  }
}
