import { request as httpRequest, type IncomingMessage } from 'node:http'
import { Writable } from 'node:stream'
import { trace } from '@opentelemetry/api'
import t, { type Test } from 'tap'
import { loadConfig } from '../../config/index.ts'
import { statements } from '../../store/observed.ts'
import { bearer, build, call, create, ENGINE } from '../helper.ts'
import { portOf, sendRaw } from '../local/helper.ts'
import { receiver as webhookReceiver } from '../webhooks/receiver.ts'
import { attribute, receiver, spansOf, type Attribute, type Received, type ReceivedSpan } from './otlp-receiver.ts'

/** The standard variables the SDK reads from the environment, set for the test and put back after it. */
function environment (t: Test, variables: Record<string, string>): void {
  const before = Object.fromEntries(Object.keys(variables).map(name => [name, process.env[name]]))
  Object.assign(process.env, variables)
  t.teardown(() => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) Reflect.deleteProperty(process.env, name)
      else process.env[name] = value
    }
  })
}

const DB_SYSTEM = ENGINE === 'sqlite' ? 'sqlite' : 'postgresql'

t.test('a request\'s span carries its route and its id, its statements are child spans, and its log line the trace id', async t => {
  const { endpoint, received } = await receiver(t)
  environment(t, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'zoo-test' })
  const lines: string[] = []
  const log = new Writable({ write (chunk, _encoding, done) { lines.push(String(chunk)); done() } })
  const app = await build(t, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, LOG_LEVEL: 'info' }, log)
  t.ok(app.tracing, 'on, with an endpoint')

  const created = await call(app, 'POST', '/v1/zoos', { name: 'Traced', city: 'Lyon' })
  t.equal(created.statusCode, 201)
  const read = await call(app, 'GET', `/v1/zoos/${(created.json() as { id: number }).id}`)
  t.equal(read.statusCode, 200)
  t.equal((await call(app, 'GET', '/v1/zoos?name=Secret%20Garden')).statusCode, 200)
  // Two writes in one transaction: on PostgreSQL its COMMIT carries the feed's rows, written in.
  const batch = await call(app, 'POST', '/v1/batch', {
    operations: [
      { method: 'POST', path: '/v1/zoos', body: { name: 'Batched', city: 'Lyon' } },
      { method: 'POST', path: '/v1/zoos', body: { name: 'Batched too', city: 'Lyon' } }
    ]
  })
  t.equal(batch.statusCode, 200, batch.body)
  const queued = await call(app, 'POST', '/v1/zoos', { name: 'Later', city: 'Lyon' }, { prefer: 'respond-async' })
  t.equal(queued.statusCode, 202)
  const job = String(queued.headers.location)
  for (let tries = 0; (await call(app, 'GET', job)).json().status !== 'succeeded'; tries++) {
    if (tries > 200) throw new Error('the job never ran')
    await new Promise(resolve => setTimeout(resolve, 25))
  }
  // Closing sends the spans not sent yet.
  await app.close()

  t.ok(received.length > 0, 'the receiver was sent spans')
  t.ok(received.every(r => r.path === '/v1/traces' && r.contentType === 'application/json'), 'to /v1/traces, as OTLP/JSON')
  type Export = { resourceSpans: { resource: { attributes: Attribute[] } }[] }
  const exported = JSON.parse((received[0] as Received).body.toString('utf8')) as Export
  const resource = exported.resourceSpans[0]?.resource.attributes ?? []
  t.equal(resource.find(a => a.key === 'service.name')?.value.stringValue, 'zoo-test', 'OTEL_SERVICE_NAME names the service')
  const spans = spansOf(received)

  const get = spans.find(s => s.name === 'GET /v1/zoos/:id')
  if (get === undefined) throw new Error(`no span of the GET among ${spans.map(s => s.name).join(', ')}`)
  t.equal(get.kind, 2, 'a server span')
  t.equal(attribute(get, 'http.route'), '/v1/zoos/:id')
  t.equal(attribute(get, 'http.response.status_code'), 200)
  t.equal(attribute(get, 'zoo.request.id'), read.headers['x-request-id'], 'the request id among its attributes')
  const statements = spans.filter(s => s.parentSpanId === get.spanId)
  t.ok(statements.length >= 1, `the read's statements are its children (${statements.map(s => s.name).join(', ')})`)
  t.ok(statements.some(s => /^SELECT \w+$/.test(s.name) && String(attribute(s, 'db.query.text')).includes('zoos')),
    'named by operation and table, the record\'s read among them')
  for (const statement of statements) {
    t.equal(statement.kind, 3, 'a client span')
    t.equal(statement.traceId, get.traceId)
    t.equal(attribute(statement, 'db.system.name'), DB_SYSTEM)
    t.match(attribute(statement, 'db.query.text'), /^(SELECT|WITH) /)
    t.notMatch(String(attribute(statement, 'db.query.text')), /Traced/, 'its text, never its values')
  }
  const logged = lines.map(line => JSON.parse(line) as { msg: string, reqId?: string, trace_id?: string, span_id?: string })
    .find(line => line.msg === 'request' && line.reqId === read.headers['x-request-id'])
  t.match(logged, { trace_id: get.traceId, span_id: get.spanId }, 'the request\'s log line names its trace')

  t.notOk(spans.some(s => /Traced|Later|Batched|Lyon/.test(String(attribute(s, 'db.query.text')))),
    'no statement\'s text holds a value written, on either engine')
  const listed = spans.find(s => s.name === 'GET /v1/zoos')
  t.equal(attribute(listed as ReceivedSpan, 'url.path'), '/v1/zoos', 'a span\'s path without its query, where values are')
  const post = spans.find(s => s.name === 'POST /v1/zoos' && attribute(s, 'zoo.request.id') === created.headers['x-request-id'])
  if (post === undefined) throw new Error('no span of the POST')
  const inserts = (request: ReceivedSpan | undefined): boolean => spans.some(s => s.parentSpanId === request?.spanId &&
    /\bINSERT INTO "?zoos"? /.test(String(attribute(s, 'db.query.text'))))
  t.ok(inserts(post), 'a write\'s statements are children of its own request, group-committed or not')

  const jobSpan = spans.find(s => s.name === 'job POST')
  if (jobSpan === undefined) throw new Error('no span of the job')
  t.equal(attribute(jobSpan, 'http.response.status_code'), 201)
  const replayed = spans.find(s => s.parentSpanId === jobSpan.spanId && s.name === 'POST /v1/zoos')
  t.ok(replayed, 'the job\'s replayed request is its child')
  t.ok(inserts(replayed), 'and the job\'s statements the replay\'s')
})

t.test('spans go as protobuf by default, and a traceparent a client sends is the parent', async t => {
  const { endpoint, received } = await receiver(t)
  environment(t, { OTEL_BSP_SCHEDULE_DELAY: '50' })
  const app = await build(t, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/custom/traces` })
  const parent = '0af7651916cd43dd8448eb211c80319c'
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { traceparent: `00-${parent}-b7ad6b7169203331-01` })).statusCode, 200)
  await app.close()
  t.ok(received.length > 0)
  t.ok(received.every(r => r.path === '/custom/traces' && r.contentType === 'application/x-protobuf'),
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as given')
  const body = Buffer.concat(received.map(r => r.body))
  t.ok(body.includes('GET /v1/zoos'), 'the span is there')
  t.ok(body.includes(Buffer.from(parent, 'hex')), 'in the client\'s trace')
})

t.test('without an endpoint, or with OTEL_SDK_DISABLED, there are no traces', async t => {
  t.equal((await build(t)).tracing, undefined)
  environment(t, { OTEL_SDK_DISABLED: 'true' })
  t.equal((await build(t, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).tracing, undefined)
})

t.test('a statement that fails leaves its span marked as an error of its code, without its message', async t => {
  const { endpoint, received } = await receiver(t)
  environment(t, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
  const app = await build(t, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })
  // What the store announces (store/observed.ts) for a statement that throws, within a traced request.
  trace.getTracer('test').startActiveSpan('a request', span => {
    const failing = (): never => { throw Object.assign(new Error('datatype mismatch: "secret"'), { code: 'SQLITE_MISMATCH' }) }
    t.throws(() => statements.traceSync(failing, { system: 'sqlite', text: 'UPDATE zoos SET name = ?' }))
    span.end()
  })
  await app.close()
  const failed = spansOf(received).find(s => s.name === 'UPDATE zoos')
  t.same(failed?.status, { code: 2 }, 'an error, with no message')
  t.equal(attribute(failed as ReceivedSpan, 'error.type'), 'SQLITE_MISMATCH', 'of the error\'s code')
  t.notOk(Buffer.concat(received.map(r => r.body)).includes('secret'), 'the value quoted by the message is nowhere')
})

t.test('a body that arrives after its request began is handled within its span: its statements are children of it', async t => {
  const { endpoint, received } = await receiver(t)
  environment(t, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
  const app = await build(t, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const body = JSON.stringify({ name: 'Slowly sent', city: 'Lyon' })
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    const sending = httpRequest({
      host: '127.0.0.1',
      port: portOf(app),
      method: 'POST',
      path: '/v1/zoos',
      headers: { authorization: '', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
    }, resolve).on('error', reject)
    bearer(app).then(async authorization => {
      sending.setHeader('authorization', authorization)
      // The headers, then half the body; the rest once the request has gone through its first hooks.
      sending.write(body.slice(0, 10))
      await new Promise(resolve => setTimeout(resolve, 100))
      sending.end(body.slice(10))
    }).catch(reject)
  })
  const answer = await answered
  answer.resume()
  t.equal(answer.statusCode, 201)
  await app.close()
  const spans = spansOf(received)
  const post = spans.find(s => s.name === 'POST /v1/zoos')
  if (post === undefined) throw new Error('no span of the POST')
  t.equal(attribute(post, 'http.response.status_code'), 201)
  t.ok(spans.some(s => s.parentSpanId === post.spanId && /\bINSERT INTO "?zoos"? /.test(String(attribute(s, 'db.query.text')))),
    'its insert a child of its span')
})

t.test('an exporter endpoint may end with a slash, as the specification allows', async t => {
  const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces/' }, [])
  t.equal(config.otelExporterOtlpEndpoint, 'http://127.0.0.1:4318')
  t.equal(config.otelExporterOtlpTracesEndpoint, 'http://127.0.0.1:4318/v1/traces/', 'the traces endpoint used as given')
  t.throws(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://127.0.0.1' }, []), /OTEL_EXPORTER_OTLP_ENDPOINT must be an absolute http\(s\) URL/)
})

t.test('a refused request\'s spans say its status and the error\'s kind, never a value it sent', async t => {
  const { endpoint, received } = await receiver(t)
  environment(t, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
  const app = await build(t, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const email = 'secret.keeper@zoo.test'
  const member = 'secret_member_name'
  const userinfo = 'userinfo-secret-0123456789'
  await create(app, 'employees', { name: 'Ada', role: 'keeper', email })
  const duplicate = await call(app, 'POST', '/v1/employees', { name: 'Eve', role: 'keeper', email })
  t.equal(duplicate.statusCode, 422)
  t.match(duplicate.json().error, email, 'the answer names the value taken')
  const unknown = await call(app, 'POST', '/v1/employees', { name: 'Eve', role: 'keeper', email: 'eve@zoo.test', [member]: 1 })
  t.equal(unknown.statusCode, 422)
  t.match(unknown.json().error, member, 'and the member not known')
  const queued = await call(app, 'POST', '/v1/employees', { name: 'Eve', role: 'keeper', email }, { prefer: 'respond-async' })
  t.equal(queued.statusCode, 202)
  for (let tries = 0; (await call(app, 'GET', String(queued.headers.location))).json().status !== 'failed'; tries++) {
    if (tries > 200) throw new Error('the job never ran')
    await new Promise(resolve => setTimeout(resolve, 25))
  }
  const { status } = await sendRaw(portOf(app),
    `GET http://ada:${userinfo}@127.0.0.1/v1/zoos HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
  t.equal(status, 401)
  await app.close()

  const exported = Buffer.concat(received.map(r => r.body)).toString('utf8')
  for (const value of [email, member, userinfo]) t.notOk(exported.includes(value), `${value} nowhere in the spans`)
  const spans = spansOf(received)
  const refused = spans.filter(s => s.name === 'POST /v1/employees' && attribute(s, 'http.response.status_code') === 422)
  t.equal(refused.length, 3, 'the two refusals and the job\'s replay')
  t.same(refused.map(span => span.status), [{ code: 2 }, { code: 2 }, { code: 2 }], 'each an error, with no message')
  t.same(refused.map(span => attribute(span, 'error.type')).sort(), ['FST_ERR_VALIDATION', 'invalid', 'invalid'],
    'of the kind the data refused, or of the error\'s code')
  for (const span of spans) {
    t.notOk(span.status?.message, `no status message on ${span.name}`)
    for (const event of span.events ?? []) {
      t.same(event.attributes?.map(a => a.key).filter(key => key === 'exception.message' || key === 'exception.stacktrace'), [],
        `no message or stack in an event of ${span.name}`)
    }
  }
})

t.test('the sampler decides before any span: a traceparent "not sampled" makes none, one "sampled" is kept at any ratio', async t => {
  const { endpoint, received } = await receiver(t)
  environment(t, {
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0'
  })
  const app = await build(t, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })
  const kept = '4bf92f3577b34da6a3ce929d0e0e4736'
  const dropped = '0af7651916cd43dd8448eb211c80319c'
  const zoo = await create(app, 'zoos', { name: 'Sampled', city: 'Lyon' })
  for (let i = 0; i < 20; i++) t.equal((await call(app, 'GET', `/v1/zoos/${zoo.id}`)).statusCode, 200, 'a root request, ratio 0')
  const sampled = await call(app, 'GET', `/v1/zoos/${zoo.id}`, undefined, { traceparent: `00-${kept}-00f067aa0ba902b7-01` })
  t.equal(sampled.statusCode, 200)
  const notSampled = await call(app, 'GET', `/v1/zoos/${zoo.id}`, undefined, { traceparent: `00-${dropped}-00f067aa0ba902b7-00` })
  t.equal(notSampled.statusCode, 200)
  await app.close()

  const spans = spansOf(received)
  const requests = spans.filter(s => s.kind === 2)
  t.same(requests.map(s => [s.name, s.traceId, attribute(s, 'zoo.request.id')]),
    [['GET /v1/zoos/:id', kept, sampled.headers['x-request-id']]], 'one request span: the one its parent sampled, whatever the ratio')
  const request = requests[0] as ReceivedSpan
  t.equal(request.parentSpanId, '00f067aa0ba902b7', 'a child of the client\'s span')
  t.equal(attribute(request, 'http.request.method'), 'GET')
  t.equal(attribute(request, 'server.address'), 'localhost')
  t.ok(spans.filter(s => s.kind === 3).every(s => s.traceId === kept && s.parentSpanId === request.spanId),
    'and the only statement spans are its own')
  t.notOk(spans.some(s => s.traceId === dropped), 'nothing of the trace its parent did not sample')
})

t.test('each attempt to deliver a change to a webhook is a span, with the receiver\'s status', async t => {
  const { endpoint, received } = await receiver(t)
  environment(t, { OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
  const app = await build(t, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRIES: '0.2' })
  const hook = await webhookReceiver(t)
  let status = 503
  hook.answerWith(() => status)
  const subscribed = (await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['zoos'] })).json()
  await create(app, 'zoos', { name: 'Traced', city: 'Lyon' })
  while (hook.attempts.length < 1) await new Promise(resolve => setTimeout(resolve, 20))
  status = 200
  await hook.waitFor(1)
  await app.close()
  const attempts = spansOf(received).filter(span => span.name === 'webhook POST')
  t.same(attempts.map(span => [attribute(span, 'http.response.status_code'), span.status?.code ?? 0]), [[503, 2], [200, 0]],
    'the failed attempt an error, the next not')
  t.ok(attempts.every(span => attribute(span, 'zoo.webhook.id') === subscribed.id && span.parentSpanId === undefined),
    'each a trace of its own, not of the request whose change it delivers')
})
