import { workerData } from 'node:worker_threads'
import { ExportResultCode, TraceState } from '@opentelemetry/core'
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { resourceFromAttributes } from '@opentelemetry/resources'
import type { SpanContext } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import { answerAsked } from '../threads/asked.ts'
import type { ContextData, ExporterAnswer, ExporterData, ExporterRequest, SpanData } from './exporter-thread.ts'

/*
 * The thread that sends the spans (telemetry/exporter-thread.ts): the SDK's OTLP exporter, which
 * reads its headers, timeout, compression and certificates from the standard variables as it
 * would on the requests' thread, given each batch rebuilt as the spans it reads.
 */

const { url, protocol, resource: attributes } = workerData as ExporterData
const exporter = protocol === 'http/json' ? new JsonExporter({ url }) : new ProtobufExporter({ url })
/** One resource object for every span: the exporter groups a batch's spans by it. */
const resource = resourceFromAttributes(attributes)

const contextOf = ({ traceState, ...context }: ContextData): SpanContext =>
  traceState === undefined ? context : { ...context, traceState: new TraceState(traceState) }

function spanOf ({ context, parent, links, ...span }: SpanData): ReadableSpan {
  const spanContext = contextOf(context)
  return {
    ...span,
    spanContext: () => spanContext,
    ...(parent === undefined ? {} : { parentSpanContext: contextOf(parent) }),
    links: links.map(link => ({ ...link, context: contextOf(link.context) })),
    resource
  }
}

answerAsked<ExporterRequest, ExporterAnswer>(async request => {
  if ('spans' in request) {
    return await new Promise(resolve => {
      exporter.export(request.spans.map(spanOf), ({ code, error }) => {
        resolve(error === undefined ? { code } : { code, error: error.message })
      })
    })
  }
  await ('flush' in request ? exporter.forceFlush() : exporter.shutdown())
  return { code: ExportResultCode.SUCCESS }
})
