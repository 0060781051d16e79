import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type SpanContext } from '@opentelemetry/api'
import { ExportResultCode, TraceState, type ExportResult } from '@opentelemetry/core'
import { SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace'
import t from 'tap'
import { threadModule } from '../../packaging/shipped.ts'
import { ExporterThread } from '../../telemetry/exporter-thread.ts'
import { attribute, receiver, spansOf } from './otlp-receiver.ts'

/*
 * The OTLP exporter on a thread of its own (telemetry/exporter-thread.ts): what the SDK's exporter
 * reads of a span crosses as plain data and reaches a receiver on loopback as it was made; a
 * thread that fails answers its exports as failed and is replaced.
 */

t.test('a span crosses to the exporter thread whole: its ids, parent, attributes, events, links, status and resource', async t => {
  const { endpoint, received } = await receiver(t)
  const exporter = new ExporterThread(threadModule('telemetry/exporter.js'), {
    url: `${endpoint}/v1/traces`,
    protocol: 'http/json',
    resource: { 'service.name': 'zoo-thread-test' }
  })
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
  const tracer = provider.getTracer('zoo-test', '1.2.3')
  const linked: SpanContext = {
    traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1, traceState: new TraceState('zoo=1,other=two')
  }
  const parent = tracer.startSpan('parent', { kind: SpanKind.SERVER })
  const child = tracer.startSpan('child', {
    kind: SpanKind.CLIENT,
    attributes: { 'zoo.count': 3, 'zoo.name': 'Berlin' },
    links: [{ context: linked, attributes: { 'zoo.why': 'because' } }]
  }, trace.setSpan(ROOT_CONTEXT, parent))
  child.addEvent('noticed', { 'zoo.what': 'a zebra' })
  child.setStatus({ code: SpanStatusCode.ERROR })
  child.end()
  parent.end()
  await provider.forceFlush()
  await exporter.forceFlush()
  await provider.shutdown()

  const spans = spansOf(received)
  const made = spans.find(span => span.name === 'child')
  const parentSpan = spans.find(span => span.name === 'parent')
  t.ok(made !== undefined && parentSpan !== undefined, 'both spans received')
  t.equal(made?.traceId, parent.spanContext().traceId, 'the child in its parent\'s trace')
  t.equal(made?.spanId, child.spanContext().spanId)
  t.equal(made?.parentSpanId, parent.spanContext().spanId, 'its parent named')
  t.equal(made?.kind, SpanKind.CLIENT + 1, 'its kind (OTLP counts from 1)')
  t.equal(made === undefined ? undefined : attribute(made, 'zoo.count'), 3)
  t.equal(made === undefined ? undefined : attribute(made, 'zoo.name'), 'Berlin')
  t.equal(made?.events?.[0]?.name, 'noticed')
  t.equal(made?.status?.code, SpanStatusCode.ERROR)
  const link = (made as unknown as { links: { traceId: string, spanId: string, traceState: string }[] }).links[0]
  t.same(link && { traceId: link.traceId, spanId: link.spanId, traceState: link.traceState },
    { traceId: linked.traceId, spanId: linked.spanId, traceState: 'zoo=1,other=two' }, 'its link, trace state included')
  interface Exported {
    resource: { attributes: { key: string, value: { stringValue?: string } }[] }
    scopeSpans: { scope: { name: string, version: string } }[]
  }
  const body = JSON.parse(received[0]?.body.toString('utf8') ?? '{}') as { resourceSpans: Exported[] }
  t.equal(body.resourceSpans[0]?.resource.attributes.find(a => a.key === 'service.name')?.value.stringValue, 'zoo-thread-test',
    'the resource the thread was given')
  t.same(body.resourceSpans[0]?.scopeSpans[0]?.scope, { name: 'zoo-test', version: '1.2.3' }, 'the tracer\'s scope')
})

t.test('a thread that fails answers its exports as failed, and the next export starts another', async t => {
  const exporter = new ExporterThread(new URL('./fixture/failing-exporter.ts', import.meta.url), {
    url: 'http://127.0.0.1:9/v1/traces', protocol: 'http/protobuf', resource: {}
  })
  const exported = async (): Promise<ExportResult> => await new Promise(resolve => { exporter.export([] as ReadableSpan[], resolve) })
  const first = await exported()
  t.equal(first.code, ExportResultCode.FAILED)
  t.match(first.error?.message, /this exporter cannot start/, 'with why')
  const second = await exported()
  t.equal(second.code, ExportResultCode.FAILED, 'answered by a thread of its own, not left waiting')
  // Its thread lost, it has none to stop.
  await exporter.shutdown()
})
