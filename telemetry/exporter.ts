import { parentPort, workerData } from 'node:worker_threads'
import { ExportResultCode, TraceState } from '@opentelemetry/core'
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { resourceFromAttributes } from '@opentelemetry/resources'
import type { SpanContext } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
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

const answer = (message: ExporterAnswer): void => { parentPort?.postMessage(message) }

parentPort?.on('message', (request: ExporterRequest) => {
  const { id } = request
  if ('spans' in request) {
    exporter.export(request.spans.map(spanOf), ({ code, error }) => {
      answer(error === undefined ? { id, code } : { id, code, error: error.message })
    })
  } else {
    const done = 'flush' in request ? exporter.forceFlush() : exporter.shutdown()
    done.then(() => { answer({ id, code: ExportResultCode.SUCCESS }) },
      (error: Error) => { answer({ id, code: ExportResultCode.FAILED, error: error.message }) })
  }
})
