import { once } from 'node:events'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'

/*
 * Traces as an OpenTelemetry collector receives them: an OTLP/HTTP receiver on loopback, the
 * service exporting to it as OTEL_EXPORTER_OTLP_ENDPOINT says.
 */

export interface Attribute { key: string, value: { stringValue?: string, intValue?: string | number } }
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: Attribute[]
  events?: { name: string, attributes?: Attribute[] }[]
  status?: { code?: number, message?: string }
}
export interface Received { contentType: string | undefined, path: string | undefined, body: Buffer }

/** An OTLP/HTTP receiver on a free loopback port, closed at teardown: what it received. */
export async function receiver (t: Test): Promise<{ endpoint: string, received: Received[] }> {
  const received: Received[] = []
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ contentType: request.headers['content-type'], path: request.url, body: Buffer.concat(chunks) })
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/json' }).end('{}')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.close() })
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
}

/** Every span of the OTLP/JSON exports received. */
export const spansOf = (received: Received[]): ReceivedSpan[] => received.flatMap(({ body }) =>
  (JSON.parse(body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[] }).resourceSpans
    .flatMap(r => r.scopeSpans.flatMap(s => s.spans)))

export const attribute = (span: ReceivedSpan, key: string): string | number | undefined => {
  const value = span.attributes.find(a => a.key === key)?.value
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue))
}
