import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import {
  CompositePropagator, getBooleanFromEnv, getNumberFromEnv, getStringFromEnv, W3CBaggagePropagator, W3CTraceContextPropagator
} from '@opentelemetry/core'
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import {
  BatchSpanProcessor, SamplingDecision, TracerProvider, type ReadableSpan, type Span as SdkSpan, type SpanProcessor, type TimedEvent
} from '@opentelemetry/sdk-trace'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config/index.ts'
import { loggedPath } from '../http/links.ts'
import { StoreError } from '../model/refusal.ts'
import { programVersion, threadModule } from '../packaging/shipped.ts'
import { heard, operationOf, statements, writeContexts, type StatementEvent } from '../store/observed.ts'
import { ExporterThread } from './exporter-thread.ts'
import { DecidedIds, samplerFromEnv, type Samplers } from './sampling.ts'

/** The traces of the service, when an OTLP endpoint is set (startTracing). */
export interface Tracing {
  /**
   * The hooks that make a span of each request whose trace is kept, named by its route template,
   * with the kind of error it failed with. Registered before every other hook (app.ts).
   */
  plugin: FastifyPluginAsync
  /** pino's `mixin`: the trace and span ids on every line logged within a request. */
  logMixin: (merged: object, level: number, logger: object) => object
  /** Sends the spans not sent yet, then stops; the process's tracing is then off. */
  shutdown: () => Promise<void>
}

/** What a statement's event carries while its span is open. */
type Traced = StatementEvent & { span?: Span }

/**
 * The span a kept request's logger belongs to: where its lines find it once the span is no longer
 * the active one. Beside the logger, not a property of it: a property added to 1% of the loggers
 * gave every other its own shape, and the code that reads loggers slower paths.
 */
const loggerSpans = new WeakMap<object, Span>()
/** What a request's sampling is asked with beside its name: the attributes and links of its span are made only if it is kept. */
const NO_ATTRIBUTES = Object.freeze({})
const NO_LINKS = Object.freeze([]) as unknown as []
/** The name of a statement's span by its text (its operation and table): texts are few, but a list's vary with its filters. */
const NAMES_KEPT = 1000

/**
 * The service's traces, with the OpenTelemetry SDK: off (undefined, nothing installed) unless
 * OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, and unless
 * OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none says otherwise. On:
 *
 * - a span per request whose trace the sampler keeps, asked before anything is made (requestSpans:
 *   hooks of the service, nothing hooked into the module loader, so the single binary traces as
 *   `npm start` does), named `GET /v1/zoos/:id`, with the request's id among its attributes;
 * - a child span per database statement (store/observed.ts), named by its operation and table,
 *   its text (never its values) an attribute; statements outside a request (the feed's polls,
 *   pruning) make none;
 * - a span per background job (jobs/queue.ts), its replayed request a child of it;
 * - a span that ends in an error says its kind (`error.type`), never its message (WithoutValues);
 * - the spans sent in batches over OTLP/HTTP, protobuf unless OTEL_EXPORTER_OTLP_PROTOCOL (or its
 *   _TRACES_ form) is `http/json`, from a thread of their own (telemetry/exporter-thread.ts); the
 *   exporters read their headers, timeout, compression and certificates from the standard variables.
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
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'zoo-api', 'service.version': programVersion() }))
    .merge(detectResources({ detectors: [envDetector] }))
  const exporter = new ExporterThread(threadModule('telemetry/exporter.js'), {
    url,
    protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
    resource: resource.attributes
  })
  const ids = new DecidedIds()
  const { sampler, root } = samplerFromEnv()
  // The provider takes its processors when made: the statements' spans are made by its tracer, once it is.
  const statementSpans: WhileRecording = new WhileRecording(traceStatements(() => provider.getTracer('zoo-api')))
  const provider: TracerProvider = new TracerProvider({
    resource,
    spanProcessors: [statementSpans, new WithoutValues(new BatchSpanProcessor({
      exporter,
      maxQueueSize: getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
      maxExportBatchSize: getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
      scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
      exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT')
    }))],
    sampler,
    idGenerator: ids
  })
  // What the Node SDK's `register()` did: one context manager, propagator and provider for the process.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager())
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }))
  trace.setGlobalTracerProvider(provider)
  return {
    plugin: requestSpans(provider.getTracer('zoo-api'), { sampler, root }, ids),
    logMixin (_merged, _level, logger) {
      const span = trace.getActiveSpan() ?? loggerSpans.get(logger)
      if (span === undefined) return {}
      const { traceId, spanId } = span.spanContext()
      return { trace_id: traceId, span_id: spanId }
    },
    async shutdown () {
      await provider.shutdown()
      trace.disable()
      context.disable()
      propagation.disable()
    }
  }
}

/**
 * The span of each request whose trace is kept, made by hooks of the service with the SDK's tracer.
 * The sampler is asked first, with the parent the request's `traceparent` names (a client's, or
 * the job's span its replay carries) and the trace id the span would have: a request whose trace is not kept makes nothing
 * more (no span, no context, no hook wrapped), which is what 1% sampling of a busy service asks
 * (docs/benchmarks.md). A kept one's span is active while its hooks and handler run: entered
 * when the request arrives, it stays active through a body that arrives later, as Node 24's
 * AsyncLocalStorage carries its context into the stream events the hook's step awaits (a test
 * sends a body in two parts). It ends when the answer's stream closes, sent or abandoned. Only the
 * first hook, and an error's, run for every request: the rest is the kept requests' own listener.
 */
function requestSpans (tracer: ReturnType<TracerProvider['getTracer']>, { sampler, root }: Samplers, ids: DecidedIds): FastifyPluginAsync {
  const failed = new WeakMap<FastifyRequest, unknown>()
  return fp(async function tracing (fastify) {
    fastify.addHook('onRequest', (request, reply, done) => {
      // The parent a client's `traceparent` names, or a job's replay's (jobs/replay.ts): its job's
      // span. Node's request, not Fastify's getters over it, until the trace is kept.
      const { headers, method } = request.raw
      const parent = headers.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, headers)
      const parentSpan = parent === ROOT_CONTEXT ? undefined : trace.getSpanContext(parent)
      if (parentSpan === undefined) {
        // A request without a parent is the root sampler's to decide, as the parent-based sampler would
        // have it decide after looking for a parent in the context; on the new id's bytes (RootDecision).
        const traceId = ids.keptRoot(root)
        if (traceId === undefined) return done()
        // The tracer asks the sampler again, for the same trace id: it decides the same.
        ids.decided = traceId
      } else {
        // Asked with the method for a name: the samplers OTEL_TRACES_SAMPLER names read no name, and
        // the route's template is read only for a trace kept (Fastify makes its route options anew at each read).
        const { decision } = sampler.shouldSample(parent, parentSpan.traceId, method ?? '', SpanKind.SERVER, NO_ATTRIBUTES, NO_LINKS)
        if (decision === SamplingDecision.NOT_RECORD) return done()
      }
      const route = request.routeOptions.url
      // OpenTelemetry's HTTP server span name: the method and the route's template, the method alone without a route.
      const name = route === undefined ? request.method : `${request.method} ${route}`
      const span = tracer.startSpan(name, {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          ...(route === undefined ? {} : { 'http.route': route }),
          // The path as the log has it: a query holds values (filters, search words, a sign-in's
          // authorization code), an absolute-form target a user's password.
          'url.path': loggedPath(request.url),
          'server.address': request.hostname,
          'zoo.request.id': String(request.id)
        }
      }, parent)
      const within = trace.setSpan(parent, span)
      reply.raw.on('close', () => {
        span.setAttribute('http.response.status_code', reply.statusCode)
        const error = failed.get(request)
        if (error !== undefined) span.setAttribute('error.type', errorTypeOf(error))
        // A server's 5xx is an error (OpenTelemetry's HTTP conventions), thrown or not.
        if (error !== undefined || reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
        span.end()
      })
      // request.log is the request's own logger (reply.log too), the app's only before the request has one.
      if (request.log !== request.server.log) loggerSpans.set(request.log, span)
      context.with(within, done)
    })
    // The kind of error, which names no value; the status says an error, without its message.
    fastify.addHook('onError', (request, _reply, error, done) => {
      failed.set(request, error)
      done()
    })
  }, { name: 'tracing' })
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
 * `invalid input syntax for type integer: "..."`). A processor in front of the export is the one
 * place every span passes, whoever made it (the requests, the statements, the jobs, or code that
 * records an exception), so the rule holds for spans made elsewhere too; the spans made here
 * record no message in the first place.
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

/** What hears the statements from when `listen` is called until `stop` is, until `close`d. */
interface Listening {
  listen: () => void
  stop: () => void
  close: () => void
}

/**
 * A span for each statement run within a span (a request's, a job's) that records, with each
 * write of SQLite's group commit run in its request's context: subscribed from the start, heard
 * only while a span records (WhileRecording, store/observed.ts `heard`).
 */
function traceStatements (tracerOf: () => ReturnType<TracerProvider['getTracer']>): Listening {
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
      event.span = tracerOf().startSpan(name, {
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
  const inContext = (): void => {}
  statements.subscribe(subscribers)
  writeContexts.subscribe(inContext)
  let listening = false
  const stop = (): void => {
    if (listening) heard.statements--
    listening = false
  }
  return {
    listen () {
      if (!listening) heard.statements++
      listening = true
    },
    stop,
    close () {
      stop()
      statements.unsubscribe(subscribers)
      writeContexts.unsubscribe(inContext)
    }
  }
}

/**
 * Wants the statements told (store/observed.ts `heard`) while at least one span records, that is
 * while a trace that is kept is under way: a span's start and end pass through every processor,
 * and only a recording span's do. Told at every statement, and binding every write to its
 * context, the statements' channels cost a request whose trace is not kept several per cent
 * (docs/benchmarks.md); at 1% sampling they are told for the requests that are kept and little
 * else. A statement that starts untold makes no span; one that starts told is heard to its end,
 * told or not by then, as its subscribers stay.
 */
class WhileRecording implements SpanProcessor {
  readonly #listening: Listening
  #recording = 0

  constructor (listening: Listening) {
    this.#listening = listening
  }

  onStart (): void {
    if (this.#recording++ === 0) this.#listening.listen()
  }

  onEnd (): void {
    if (--this.#recording === 0) this.#listening.stop()
  }

  async forceFlush (): Promise<void> {}

  async shutdown (): Promise<void> {
    this.#listening.close()
    this.#recording = 0
  }
}
