import { connect } from 'node:net'
import fc from 'fast-check'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import t, { type Test } from 'tap'
import { buildApi } from '../../app.ts'
import { scopesOf } from '../../auth/scopes.ts'
import { literals } from '../../model/kinds.ts'
import type { Column, Resource } from '../../model/resource.ts'
import { RESOURCES } from '../../schemas/index.ts'
import { checkContract } from '../contract.ts'
import { addClient, basic, BOOTSTRAP, call, create, dataDir, openDatabaseFile, testConfig, tokenRequest } from '../helper.ts'
import { captured, holds } from '../listeners/helper.ts'
import { portOf } from '../local/helper.ts'
import { sampleValue } from '../samples.ts'
import {
  accept, type Fuzzed, headerText, jsonPayload, method, nastyText, oddContentType, printable, runs, type Payload
} from './arbitraries.ts'

const SCOPES = scopesOf(RESOURCES)

/**
 * Property-based fuzzing of the API: random and adversarial requests to every route (the three
 * collections, their records, the nested collections, jobs, the documents, the OAuth endpoints)
 * with odd paths, ids, query strings, bodies, methods and headers. For every request:
 *
 * 1. never a 5xx;
 * 2. every 4xx is JSON with a string `error` (a HEAD answer has no body: checkContract reads the
 *    one its GET computes);
 * 3. a 4xx changes nothing stored;
 * 4. the answer is what the route documents: checkContract (test/contract.ts) already validates
 *    every answer, 2xx bodies against their schema included, against the app's OpenAPI document.
 *    Here it reports to the property instead of the test, so that fast-check shrinks the
 *    request that got a violation and prints it.
 *
 * The seed is fixed and the runs bounded (arbitraries.ts); `npm run fuzz` runs more.
 */

/** The records, tokens and jobs the fuzzer aims at, made before it starts. */
interface World {
  /** Per collection: live ids, a deleted one, and ids never used. */
  ids: Record<string, number[]>
  /** Per collection: the ids live at the start. */
  live: Record<string, number[]>
  /** `Bearer` and the token of the bootstrap client, which has every scope. */
  bearer: string
  /** A cursor the API issued, for sortby=id. */
  cursor: string
  /** Jobs of the bootstrap client, and of another client. */
  jobs: string[]
  authorization: fc.Arbitrary<string | undefined>
  /** HTTP Basic of clients, for the OAuth endpoints. */
  clients: string[]
  /** The tokens by name, for counterexamples. */
  secrets: Record<string, string>
}

/** Small enough that a body over it is cheap to generate and to print; 413 is the same code at any limit. */
const BODY_LIMIT = 4096

/** The API on a fresh data directory, its contract violations collected rather than failing the test. */
async function fuzzedApp (t: Test): Promise<{ app: FastifyInstance, violations: string[] }> {
  const violations: string[] = []
  const collector = { fail: (message: string) => violations.push(message) } as unknown as Test
  const app = checkContract(collector, buildApi(testConfig(dataDir(t), { BODY_LIMIT: String(BODY_LIMIT) })))
  t.teardown(() => app.close())
  await app.ready()
  return { app, violations }
}

type Rows = Record<string, unknown>[]

/** Statements on the app's database over a connection of their own, as another program would run them. */
async function outsideConnection (t: Test, app: FastifyInstance): Promise<(sql: string) => Promise<Rows>> {
  if (app.config.databaseUrl === undefined) {
    const db = openDatabaseFile(app)
    t.teardown(() => db.close())
    return async sql => db.prepare(sql).all() as Rows
  }
  const client = new pg.Client({ connectionString: app.config.databaseUrl })
  await client.connect()
  t.teardown(() => client.end())
  return async sql => (await client.query(sql)).rows
}

/** What the checks read of the database: every stored row, and the background jobs. */
interface Stored {
  /**
   * Every row as one comparable text. Left out: the idempotency keys, where a keyed request's
   * answer is kept for its retries whatever its status (plugins/app/idempotency.ts), and the
   * PostgreSQL change counters, which count write statements rather than hold records.
   */
  rows: () => Promise<string>
  /** Resolves once no job is queued or running; with the replays that answered a 5xx. */
  jobsDone: () => Promise<Rows>
}

async function stored (t: Test, app: FastifyInstance): Promise<Stored> {
  const query = await outsideConnection(t, app)
  const skipped = new Set(['idempotency_keys', 'collection_changes'])
  const tables = app.config.databaseUrl === undefined
    ? "SELECT name FROM sqlite_master WHERE type = 'table'"
    : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()'
  const names = (await query(tables)).map(r => String(r.name)).filter(name => !skipped.has(name)).sort()
  return {
    // Rows in a canonical order: an engine may return them in any.
    rows: async () => JSON.stringify(await Promise.all(names.map(async name =>
      (await query(`SELECT * FROM "${name}"`)).map(row => JSON.stringify(row)).sort()))),
    jobsDone: async () => {
      for (let poll = 0; poll < 500; poll++) {
        const [waiting] = await query("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')")
        if (Number(waiting?.n) === 0) {
          return query('SELECT id, method, url, result_status, result_body FROM jobs WHERE result_status >= 500')
        }
        await new Promise(resolve => setTimeout(resolve, 5))
      }
      throw new Error('a job is still waiting after 500 polls')
    }
  }
}

const inject = (app: FastifyInstance, request: Fuzzed): Promise<LightMyRequestResponse> =>
  app.inject({ ...request, method: request.method as InjectOptions['method'] })

/** What is wrong with an answer besides its contract: a 5xx, or an error without a JSON `error`. */
function answerProblems (request: { method: string }, status: number, body: string): string[] {
  if (status >= 500) return [`a server fault, ${status}: ${body.slice(0, 300)}`]
  if (status < 400 || request.method.toUpperCase() === 'HEAD') return []
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return [`${status} without a JSON body: ${body.slice(0, 300)}`]
  }
  const error = (parsed as { error?: unknown } | null)?.error
  return typeof error === 'string' ? [] : [`${status} without a string error: ${body.slice(0, 300)}`]
}

/**
 * The check of every property: sends the request, then fails with everything wrong with the
 * answer. A queued write is let run first (the worker replays it through the API, under the same
 * checks); then the stored rows are read: a 4xx must have left them as they were.
 */
async function checker (violations: string[], store: Stored) {
  let before = await store.rows()
  return async (request: Fuzzed, answer: (request: Fuzzed) => Promise<{ status: number, body: string }>): Promise<void> => {
    violations.length = 0
    const { status, body } = await answer(request)
    const faults = status === 202 ? await store.jobsDone() : []
    const problems = [
      ...violations,
      ...answerProblems(request, status, body),
      ...faults.map(job => `job ${String(job.id)} of ${String(job.method)} ${String(job.url)} answered ${String(job.result_status)}: ` +
        String(job.result_body).slice(0, 300))
    ]
    const after = await store.rows()
    if (status >= 400 && after !== before) problems.push(`${status} changed what is stored: ${body.slice(0, 300)}`)
    before = after
    if (problems.length > 0) throw new Error(problems.join('\n'))
  }
}

/** Lone surrogates replaced: encodeURIComponent throws on them. */
const wellFormed = (text: string): string => text.replace(/\p{Cs}/gu, '\ufffd')
const encode = (text: string): string => encodeURIComponent(wellFormed(text))
const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value) ?? '').toString('base64url')

/** An id in a path: one the world has, or one that names nothing a route could find. */
const pathId = (ids: number[]): fc.Arbitrary<string> => fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...ids).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map(String) },
  {
    weight: 3,
    arbitrary: fc.constantFrom('0', '-1', '1e309', '1e2', '1.0', '1.5', '0x10', '+1', '01', '99999999999999999999', '9007199254740991',
      '9007199254740992', 'NaN', 'Infinity', 'abc', '%2F', '1%2F2', '..', '%2e%2e', '.', '%00', '%', '%zz', '%C0%AF', '%FF', '\u0663',
      '\uff11', '1 OR 1=1', "1'--", '__proto__', 'constructor', '1'.repeat(101), 'x'.repeat(120), '', ';', '1;2', '1,2', '[1]')
  },
  { weight: 1, arbitrary: nastyText.map(encode) }
)

/** An entity-tag list for If-Match and If-None-Match: current, stale, weak, any, and broken ones. */
const etags = fc.oneof(
  fc.nat({ max: 4 }).map(n => `"${n}"`),
  fc.constantFrom('*', 'W/"1"', '"1", "2"', 'W/"2", *', '"', 'W/', '""', '1', `"${'9'.repeat(400)}"`, '"1"garbage', ',,,', '"1-id-name"',
    'W/"aaaaaaaaaaaaaaaaaaaaaaaaaaa"'),
  headerText
)

/** What Prefer may ask of a change of many records, in forms right and wrong. */
const BULK_PREFERENCES = fc.constantFrom('max-affected=0', 'max-affected=1', 'max-affected=100', 'tx=rollback', 'tx=commit', 'TX=ROLLBACK',
  'return=representation', 'tx=rollback, return=representation', 'max-affected=1, tx=rollback', 'max-affected=-1', 'max-affected=1.5',
  'max-affected=99999999999999999999', 'max-affected', 'tx=maybe', 'tx=rollback;x=1')

/** The request headers that change what a route does, each sometimes, in odd forms. */
const optionalHeaders: fc.Arbitrary<Record<string, string>> = fc.array(fc.oneof(
  fc.tuple(fc.constant('accept'), accept),
  fc.tuple(fc.constantFrom('if-match', 'if-none-match'), etags),
  fc.tuple(fc.constant('idempotency-key'), fc.oneof(fc.uuid(), fc.constantFrom('k', 'same', 'x'.repeat(255), 'x'.repeat(256)), headerText)),
  fc.tuple(fc.constant('prefer'), fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('respond-async', 'RESPOND-ASYNC', 'respond-async, wait=5', 'wait=10; respond-async') },
    {
      weight: 2,
      arbitrary: fc.constantFrom('count=none', 'count=exact', 'COUNT=NONE', 'count=planned', 'count', 'count=', 'count="none"',
        'count=none, count=exact', 'respond-async, count=none', 'count=none;x=1')
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom('return=minimal', 'return=representation', 'RETURN=Minimal', 'return=minimal, respond-async', 'return',
        'handling=strict', '"respond-async"', 'x="respond-async,", y', 'respond-async;', ';', 'respond-asyncx')
    },
    { weight: 2, arbitrary: BULK_PREFERENCES },
    { weight: 1, arbitrary: headerText }
  )),
  fc.tuple(fc.constantFrom('x-request-id', 'origin', 'x-forwarded-proto', 'x-forwarded-host', 'host', 'content-length'), headerText)
), { maxLength: 3 }).map(pairs => Object.fromEntries(pairs))

/** A body and its Content-Type. */
interface Content { payload?: Payload, type?: string }

/** A body and its Content-Type: mostly JSON as it should be sent, sometimes with another type or none. */
const content = (payload: fc.Arbitrary<Payload>, type = 'application/json'): fc.Arbitrary<Content> => fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 6, arbitrary: payload.map(p => ({ payload: p, type })) },
  { weight: 2, arbitrary: fc.record({ payload, type: oddContentType }) },
  { weight: 1, arbitrary: payload.map(p => ({ payload: p })) }
)

const toRequest = (
  method: string,
  url: string,
  authorization: string | undefined,
  headers: Record<string, string>,
  body: Content
): Fuzzed => ({
  method,
  url,
  headers: {
    ...headers,
    ...(authorization === undefined ? {} : { authorization }),
    ...(body.type === undefined ? {} : { 'content-type': body.type })
  },
  ...(body.payload === undefined ? {} : { payload: body.payload })
})

/** A valid value for one field, of its kind and within its schema's rules. */
function validValue (_resource: Resource, column: Column, world: World): fc.Arbitrary<unknown> {
  const day = fc.date({ min: new Date('1800-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
  const { schema } = column
  const [min, max] = [schema.minimum as number | undefined, schema.maximum as number | undefined]
  switch (column.kind) {
    case 'reference': return fc.constantFrom(...world.live[column.references as string] as number[])
    case 'integer': return fc.integer({ min: Math.max(min ?? 1, 1), max: Math.min(max ?? 10_000, 10_000) })
    case 'number': return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true })
    case 'boolean': return fc.boolean()
    case 'date': return day.map(d => d.toISOString().slice(0, 10))
    case 'timestamp': return day.map(d => d.toISOString())
    case 'enum': return fc.constantFrom(...literals(schema) as string[])
    case 'string':
      return schema.enum !== undefined
        ? fc.constantFrom(...schema.enum as string[])
        : schema.format === 'email'
          ? fc.emailAddress()
          : fc.string({
            minLength: Math.max(1, schema.minLength as number | undefined ?? 1),
            maxLength: Math.min(20, schema.maxLength as number | undefined ?? 20)
          })
  }
}

/** A value for one field: valid for it most of the time, else null, of another type, or out of its rules. */
function fieldValue (resource: Resource, column: Column, world: World): fc.Arbitrary<unknown> {
  const reference = resource.references[column.name]
  const invalid = fc.oneof(
    // A record deleted, or never made.
    fc.constantFrom(...reference === undefined ? [0] : world.ids[reference] as number[]),
    nastyText,
    fc.jsonValue({ maxDepth: 2 }),
    // Past what an engine stores: integers beyond 2^53 - 1 and 2^63, a null byte in text.
    fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 63, -(2 ** 63), 1e19, 1e308, -1e308, 'a\u0000b', '\u0000'),
    fc.constantFrom(0, -1, 1.5, true, [], {}, [1], 'x'.repeat(BODY_LIMIT + 1), 'de', 'XX', '2024-02-30', '2024-13-01', '20240101',
      '+002024-01-01', '2024-01-01T00:00:00Z', 'not an email', 'a@b', '@example.org')
  )
  return fc.oneof(
    { weight: 20, arbitrary: validValue(resource, column, world) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: invalid }
  )
}

/**
 * A record body for `resource`: every writable field (but `omitted`), or any subset with read-only
 * ones, maybe with unknown members.
 */
function recordBody (resource: Resource, world: World, omitted?: string): fc.Arbitrary<Record<string, unknown>> {
  const model = (columns: Column[]) => Object.fromEntries(columns.map(c => [c.name, fieldValue(resource, c, world)]))
  const record = fc.oneof(
    { weight: 3, arbitrary: fc.record(model(resource.columns.filter(c => !c.readOnly && c.name !== omitted))) },
    { weight: 2, arbitrary: fc.record(model(resource.columns), { requiredKeys: [] }) }
  )
  const names = fc.oneof(fc.constantFrom('extra', 'ID', 'Name', 'zoo', 'version', 'deleted', ''), fc.string({ maxLength: 6 }))
  const unknown = fc.dictionary(names, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 })
  return fc.oneof(
    { weight: 5, arbitrary: record },
    { weight: 1, arbitrary: fc.tuple(record, unknown).map(([r, u]) => ({ ...r, ...u })) }
  )
}

/** A query string for a collection's list: filters, paging and sorting, garbage among them, each pair written in one of three ways. */
function listQuery (resource: Resource, world: World): fc.Arbitrary<string> {
  const fields = resource.columns.map(c => c.name)
  const filters = fields.flatMap(name => [name, ...['gt', 'gte', 'lt', 'lte', 'ne', 'in'].map(op => `${name}_${op}`)])
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...filters) },
    { weight: 3, arbitrary: fc.constantFrom('limit', 'offset', 'page', 'per_page', 'sortby', 'order', 'cursor') },
    { weight: 2, arbitrary: fc.constantFrom('fields', 'embed', 'q') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('a[]', 'a[b]', 'name[]', 'name[$ne]', 'id[gt]', '__proto__', '__proto__[x]', 'constructor', 'prototype',
        "name'--", 'name;--', '1 OR 1=1', 'id_in_in', '_in', 'Name', 'ID', 'name_', 'name_eq', 'name_like', '')
    },
    { weight: 1, arbitrary: nastyText }
  )
  const list = (items: fc.Arbitrary<string>) => fc.array(items, { minLength: 1, maxLength: 3 }).map(a => a.join(','))
  const cursor = fc.oneof(
    fc.constant(world.cursor),
    fc.jsonValue({ maxDepth: 2 }).map(base64url),
    fc.record({
      s: fc.oneof(fc.constantFrom('id:asc', 'id:desc', 'name:asc,id:asc', "id:asc'--"), fc.string({ maxLength: 8 })),
      a: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(null), fc.double(), fc.jsonValue({ maxDepth: 1 })),
        { maxLength: 3 }),
      p: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2 ** 53, -1, '1'))
    }, { requiredKeys: [] }).map(base64url),
    fc.base64String({ maxLength: 24 })
  )
  const value = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.oneof(fc.integer({ min: -3, max: 120 }).map(String), fc.constantFrom('1,2,3', '1,,2', '-1,0', 'null', 'DE', 'asc',
        'desc', '2024-01-01', '2024-02-30', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00+25:00', '1e309', '99999999999999999999',
        '9007199254740993'))
    },
    { weight: 1, arbitrary: list(fc.constantFrom(...fields, "name'--", 'id desc', 'random()', '1', '')) },
    // embed: the names of every collection and of a parent, deeper ones, garbage.
    {
      weight: 1,
      arbitrary: list(fc.constantFrom(...RESOURCES.map(r => r.name), ...RESOURCES.map(r => r.singular), 'zoo.animals', 'animals.zoo',
        '*', ''))
    },
    // q: words, prefixes, what holds no word, what is too long.
    {
      weight: 2,
      arbitrary: fc.oneof(fc.string({ maxLength: 12 }),
        fc.constantFrom('zoo', 'Zü', 'a b c d e f g h i j k', '!!!', ' ', '"zoo"*', "'a':* & b", 'NEAR(a b)', 'x'.repeat(201)))
    },
    { weight: 1, arbitrary: list(fc.constantFrom('asc', 'desc', 'ASC', 'random()', "asc'--", '')) },
    { weight: 2, arbitrary: cursor },
    { weight: 1, arbitrary: fc.constantFrom('%FF%FE', '%C0%AF', '%ED%A0%80', '%', '%%', '%zz', '%00', '+', '%2B') },
    { weight: 2, arbitrary: nastyText }
  )
  const pair = fc.tuple(name, value, fc.constantFrom('encoded', 'encoded', 'raw', 'bare')).map(([n, v, style]) =>
    style === 'encoded' ? `${encode(n)}=${encode(v)}` : style === 'raw' ? `${n}=${v}` : encode(n))
  return fc.array(pair, { minLength: 1, maxLength: 5 }).map(pairs => `?${pairs.join('&')}`)
}

/**
 * Requests to one collection: the collection, a record, and (for a collection that names another)
 * both nested in a record of the first collection it names. About half are shaped as a client would send them (a read with a query, a
 * write with a body, each to a path that serves it), so that they get past the checks in front
 * and reach the handlers; the rest mix everything.
 */
function collectionRequests (resource: Resource, world: World): fc.Arbitrary<Fuzzed> {
  const ids = world.ids[resource.name] as number[]
  const [field, parent] = Object.entries(resource.references)[0] ?? [undefined, undefined]
  // A collection that names none is asked for under the first collection, where nothing serves it.
  const owner = parent ?? (RESOURCES[0] as Resource).name
  const owners = world.ids[owner] as number[]
  const collections = [fc.constantFrom(`/v1/${resource.name}`, `/v1/${resource.name}/`)]
  const items = [pathId(ids).map(id => `/v1/${resource.name}/${id}`)]
  const within = pathId(owners).map(id => `/v1/${owner}/${id}/${resource.name}`)
  if (field !== undefined) items.push(fc.tuple(pathId(owners), pathId(ids)).map(([of, id]) => `/v1/${owner}/${of}/${resource.name}/${id}`))
  const batch = (body: fc.Arbitrary<Record<string, unknown>>) =>
    fc.oneof({ weight: 4, arbitrary: body }, { weight: 1, arbitrary: fc.array(body, { minLength: 1, maxLength: 3 }) })
  const bodies = batch(recordBody(resource, world))
  const payload = jsonPayload(bodies)
  const query = listQuery(resource, world)
  const shaped = (methods: fc.Arbitrary<string>, paths: fc.Arbitrary<string>[], queried: number, body: fc.Arbitrary<Content>) =>
    fc.record({
      method: methods,
      path: fc.oneof(...paths),
      query: fc.oneof({ weight: 10 - queried, arbitrary: fc.constant('') }, { weight: queried, arbitrary: query }),
      body
    })
  const none = fc.constant<Content>({})
  const json = (bodies: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 3, arbitrary: bodies.map(b => JSON.stringify(b)) }, { weight: 1, arbitrary: payload })
      .map((p): Content => ({ payload: p, type: 'application/json' }))
  const nested = field === undefined
    ? []
    : [
        { weight: 1, arbitrary: shaped(fc.constantFrom('GET', 'HEAD'), [within], 5, none) },
        // The path names the record it is nested in: a body without the field.
        { weight: 1, arbitrary: shaped(fc.constant('POST'), [within], 1, json(batch(recordBody(resource, world, field)))) }
      ]
  return fc.record({
    request: fc.oneof(
      { weight: 1, arbitrary: shaped(fc.constantFrom('GET', 'HEAD'), collections, 7, none) },
      { weight: 1, arbitrary: shaped(fc.constantFrom('GET', 'HEAD', 'OPTIONS'), items, 1, none) },
      { weight: 2, arbitrary: shaped(fc.constant('POST'), collections, 1, json(bodies)) },
      { weight: 2, arbitrary: shaped(fc.constantFrom('PUT', 'PATCH', 'DELETE'), items, 1, fc.oneof(json(bodies), none)) },
      ...nested,
      { weight: 8, arbitrary: shaped(method, [...collections, within, ...items], 4, content(payload)) }
    ),
    authorization: world.authorization,
    headers: optionalHeaders
  }).map(({ request: r, authorization, headers }) => toRequest(r.method, r.path + r.query, authorization, headers, r.body))
}

/** Requests to the jobs, the documents and the probes: mostly reads, with any body. */
function otherRequests (world: World): fc.Arbitrary<Fuzzed> {
  const job = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...world.jobs) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: nastyText.map(encode) }
  ).map(id => `/v1/jobs/${id}`)
  const documents = fc.constantFrom('/', '/v1', '/v1/', '/health', '/ready', '/.well-known/oauth-authorization-server',
    '/.well-known/jwks.json', '/documentation/json', '/documentation/yaml', '/documentation', '/documentation/static/index.html',
    '/v1/jobs', '/v1/jobs/')
  const stray = fc.oneof(
    fc.constantFrom('/V1/ZOOS', '/v1//zoos', '/v1/zoos//1', '/v1/zoos/1/', '/v1/zoos/1/animals/1/extra', '/v1/zoos/1/zoos', '/v2/zoos',
      '/v1/giraffes', '/v1/animals/1/employees', '/oauth', '/oauth/token/', '/.well-known/', '/.well-known/openid-configuration',
      '/v1/zoos/%2F1', '/v1/zoos%2F1', '/v1/%7Bid%7D', '/v1/zoos/:id', '/login', '/v1/zoos/1/animals/..%2F..%2F..%2Fzoos'),
    fc.webPath().map(path => path.startsWith('/') ? path : `/${path}`),
    nastyText.map(text => `/v1/${encode(text)}`)
  )
  const anyBody = content(jsonPayload(fc.jsonValue({ maxDepth: 2 })))
  return fc.record({
    method,
    path: fc.oneof({ weight: 2, arbitrary: job }, { weight: 3, arbitrary: documents }, { weight: 2, arbitrary: stray }),
    query: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: listQuery(RESOURCES[0] as Resource, world) }),
    authorization: world.authorization,
    headers: optionalHeaders,
    body: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: anyBody })
  }).map(r => toRequest(r.method, r.path + r.query, r.authorization, r.headers, r.body))
}

/** Requests to the token and revocation endpoints: form parameters of every kind, repeated, or a body of another type. */
function oauthRequests (world: World): fc.Arbitrary<Fuzzed> {
  const name = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom('grant_type', 'scope', 'username', 'password', 'refresh_token', 'client_id', 'client_secret', 'token',
        'token_type_hint')
    },
    { weight: 1, arbitrary: fc.constantFrom('code', 'redirect_uri', 'grant_type[]', '__proto__', 'constructor', '') },
    { weight: 1, arbitrary: nastyText }
  )
  const value = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom('client_credentials', 'password', 'refresh_token', 'authorization_code', 'implicit', ...SCOPES,
        SCOPES.join(' '), `${SCOPES.join(' ')} admin`, 'admin', BOOTSTRAP.id, BOOTSTRAP.secret, 'access_token', 'refresh_token', 'x.y.z',
        '\u0000', `${BOOTSTRAP.id}\u0000`)
    },
    { weight: 2, arbitrary: nastyText }
  )
  const pairs = fc.oneof<fc.Arbitrary<[string, string][]>[]>(
    fc.array(fc.tuple(name, value), { maxLength: 5 }),
    // A request as a client sends it, so that some are granted.
    fc.tuple(fc.constantFrom('client_credentials', 'password', 'refresh_token'), fc.subarray([...SCOPES]), fc.boolean())
      .map(([grant, scopes, scoped]): [string, string][] =>
        scoped ? [['grant_type', grant], ['scope', scopes.join(' ')]] : [['grant_type', grant]])
  )
  const form = pairs.map(p => new URLSearchParams(p).toString())
  const authorization = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...world.clients) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.oneof(fc.constantFrom(BOOTSTRAP.id, `${BOOTSTRAP.id}\u0000`), nastyText), nastyText)
        .map(([id, secret]) => basic(wellFormed(id), wellFormed(secret)))
    },
    { weight: 2, arbitrary: world.authorization }
  )
  return fc.record({
    method: fc.oneof({ weight: 4, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: method }),
    path: fc.constantFrom('/oauth/token', '/oauth/revoke'),
    authorization,
    headers: optionalHeaders,
    body: fc.oneof(
      { weight: 4, arbitrary: content(form, 'application/x-www-form-urlencoded') },
      { weight: 1, arbitrary: content(jsonPayload(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })))) }
    ),
    // From many addresses: failures from one lock it out (auth/attempts.ts), and the requests after would stop at that.
    remoteAddress: fc.ipV4()
  }).map(r => ({ ...toRequest(r.method, r.path, r.authorization, r.headers, r.body), remoteAddress: r.remoteAddress }))
}

/** Per kind of field, values at and past its bounds and the engines': integers each stores or not, text neither can hold. */
const BOUNDS: Record<Column['kind'], unknown[]> = {
  integer: [0, -1, 0.5, -0, 2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, 2 ** 53, -(2 ** 53), 2 ** 63, -(2 ** 63), 1e19, 1e308, -1e308,
    '1', null],
  string: ['', ' ', 'x'.repeat(100), 'x'.repeat(101), 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(255), '\u0000', 'a\u0000b', '\ud800',
    '\u{1F981}', 'e\u0301', 1, null],
  date: ['0000-01-01', '9999-12-31', '2024-02-29', '2023-02-29', '2024-1-1', '', null],
  timestamp: ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2024-01-01T00:00:00+14:00', '', null],
  reference: [0, -1, 0.5, 2 ** 53, 2 ** 63, '1', null],
  number: [0, -0, 0.5, -1e308, 1e308, 5e-324, '1', null],
  boolean: [true, false, 0, 1, 'true', null],
  enum: ['', 'x', 1, null]
}

/**
 * Writes valid but for one field, set at or past a bound, with every scope: where what the
 * schemas let through meets what the engines store.
 */
function boundedWrites (world: World): fc.Arbitrary<Fuzzed> {
  return fc.oneof(...RESOURCES.map(resource => {
    const writable = resource.columns.filter(c => !c.readOnly)
    const item = fc.constantFrom(...world.live[resource.name] as number[]).map(id => `/v1/${resource.name}/${id}`)
    const target: fc.Arbitrary<[string, string]> = fc.oneof(fc.tuple(fc.constant('POST'), fc.constant(`/v1/${resource.name}`)),
      fc.tuple(fc.constantFrom('PUT', 'PATCH'), item))
    return fc.record({
      target,
      record: fc.record(Object.fromEntries(writable.map(c => [c.name, validValue(resource, c, world)]))),
      bound: fc.oneof(...writable.map(c => fc.tuple(fc.constant(c.name), fc.constantFrom(...BOUNDS[c.kind]))))
    }).map(({ target: [method, url], record, bound: [field, value] }) =>
      toRequest(method, url, world.bearer, {}, { payload: JSON.stringify({ ...record, [field]: value }), type: 'application/json' }))
  }))
}

/** A value that names a field of an earlier operation's answer in a batch, or tries to. */
const REFERENCES = fc.constantFrom({ $ref: '0.id' }, { $ref: '1.id' }, { $ref: '0.0.id' }, { $ref: '0.name' }, { $ref: '9.id' },
  { $ref: '-1.id' }, { $ref: 'x' }, { $ref: '' }, { $ref: 5 }, { $ref: '0.id', x: 1 }, { $ref: '0.__proto__' }, { $ref: '0.constructor' },
  { $ref: '0.affected' })

/**
 * Changes of many records (PATCH and DELETE with filters and Prefer), batches of operations of
 * every kind (with $refs in bodies and {i.field} in paths), and the change feed's JSON pages.
 */
/** A filter that matches few records, so that the world keeps most of its own; or any list query. */
const filterOf = (r: Resource, world: World) => fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...world.ids[r.name] as number[]).map(id => `?id=${id}`) },
  { weight: 1, arbitrary: fc.constantFrom('?id_gte=1', '?id_in=1,2', '?q=a', '?id=1&limit=1', '') },
  { weight: 2, arbitrary: listQuery(r, world) }
)

/** The paths of a collection's records: its own, and under a live record of each collection it references. */
const collectionPathsOf = (r: Resource, world: World): string[] => [`/v1/${r.name}`, ...Object.entries(r.references)
  .flatMap(([, parent]) => (world.live[parent] as number[]).slice(0, 1).map(id => `/v1/${parent}/${id}/${r.name}`))]

/** A change of many records of `r`: PATCH or DELETE of one of its collection paths with a filter, and a body (none, or odd ones). */
const changeOfMany = (r: Resource, world: World) => fc.record({
  method: fc.constantFrom('PATCH', 'DELETE'),
  path: fc.tuple(fc.constantFrom(...collectionPathsOf(r, world)), filterOf(r, world)).map(([path, query]) => path + query),
  body: fc.oneof(recordBody(r, world), fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }))
})

/** Batches of changes of many records, with creates among them that an earlier or later change may take in. */
const batchOfChanges = (resources: Resource[], world: World) => fc.array(fc.constantFrom(...resources).chain(r => fc.oneof(
  { weight: 3, arbitrary: changeOfMany(r, world) },
  { weight: 1, arbitrary: recordBody(r, world).map(body => ({ method: 'POST', path: `/v1/${r.name}`, body })) }
)), { minLength: 1, maxLength: 5 }).map(operations => ({ operations }))

function writePowerRequests (world: World): fc.Arbitrary<Fuzzed> {
  const resource = fc.constantFrom(...RESOURCES)
  const filter = (r: Resource) => filterOf(r, world)
  const collectionPaths = (r: Resource): string[] => collectionPathsOf(r, world)
  const patch = (r: Resource) => recordBody(r, world).map(body => ({ payload: JSON.stringify(body), type: 'application/json' }))
  const bulk = resource.chain(r => fc.record({
    method: fc.constantFrom('PATCH', 'DELETE'),
    path: fc.constantFrom(...collectionPaths(r)),
    query: filter(r),
    body: fc.oneof(patch(r), fc.constant<Content>({}), content(jsonPayload(fc.jsonValue({ maxDepth: 2 })), 'application/merge-patch+json')),
    prefer: fc.option(BULK_PREFERENCES, { nil: undefined })
  })).map(r => toRequest(r.method, r.path + r.query, world.bearer, r.prefer === undefined ? {} : { prefer: r.prefer }, r.body))

  const withRefs = (body: Record<string, unknown>) => fc.tuple(fc.nat({ max: 3 }), REFERENCES)
    .map(([dice, ref]) => dice === 0 ? { ...body, [Object.keys(body)[0] ?? 'id']: ref } : body)
  const operation = resource.chain(r => fc.record({
    method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE') }, { weight: 1, arbitrary: method }),
    path: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...collectionPaths(r)) },
      { weight: 4, arbitrary: pathId(world.ids[r.name] as number[]).map(id => `/v1/${r.name}/${id}`) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...collectionPaths(r)), filter(r)).map(([path, query]) => path + query) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(`/v1/${r.name}/{0.id}`, '/v1/zoos/{0.id}/animals', '/v1/zoos/{0.id}/animals/{1.id}', '/v1/zoos/{1.name}',
          '/v1/zoos/{}', '/v1/zoos/{0.id', '/v1/zoos/{9.id}', '/v1/zoos/{0.0.id}', '/api/v1/zoos', 'v1/zoos', '/v1/batch', '/v1/jobs/1')
      },
      { weight: 1, arbitrary: nastyText.map(text => `/v1/${encode(text)}`) }
    ),
    body: fc.oneof(
      { weight: 4, arbitrary: recordBody(r, world).chain(withRefs) },
      { weight: 1, arbitrary: fc.array(recordBody(r, world).chain(withRefs), { minLength: 1, maxLength: 2 }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }
    ),
    headers: fc.oneof(
      { weight: 4, arbitrary: fc.record({ 'If-Match': etags }) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('if-match', 'IF-MATCH', 'Prefer', ''), headerText) }
    )
  }, { requiredKeys: ['method', 'path'] }))
  const operations = fc.array(operation, { minLength: 1, maxLength: 4 }).map(list => ({ operations: list }))
  // Batches as a client writes them, valid but for what the world makes of them: a record of the
  // first collection, then writes that use it ($ref and {0.id}).
  const root = RESOURCES[0] as Resource
  const valid = (r: Resource, fields = r.columns.filter(c => !c.readOnly)) =>
    fc.record(Object.fromEntries(fields.map(c => [c.name, validValue(r, c, world)])))
  const uses = fc.oneof(
    valid(root).map(body => ({ method: 'PATCH', path: `/v1/${root.name}/{0.id}`, body })),
    valid(root).map(body => ({ method: 'PUT', path: `/v1/${root.name}/{0.id}`, body, headers: { 'If-Match': '"1"' } })),
    fc.constant({ method: 'DELETE', path: `/v1/${root.name}/{0.id}` }),
    fc.constant({ method: 'PATCH', path: `/v1/${root.name}?id_lt=0`, body: {} }),
    ...RESOURCES.flatMap(child => Object.entries(child.references).filter(([, parent]) => parent === root.name).map(([field]) =>
      valid(child).map(body => ({ method: 'POST', path: `/v1/${child.name}`, body: { ...body, [field]: { $ref: '0.id' } } }))))
  )
  const wellFormed = fc.tuple(valid(root), fc.array(uses, { maxLength: 3 }))
    .map(([first, rest]) => ({ operations: [{ method: 'POST', path: `/v1/${root.name}`, body: first }, ...rest] }))
  const batch = fc.oneof(
    { weight: 5, arbitrary: operations },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom({ operations: [] }, { operations: {} }, { operations: [null] }, {}) }
  )
  // Most sent as a client would, so that they reach the operations; the rest in every odd form.
  const batches = fc.record({
    body: fc.oneof(
      { weight: 3, arbitrary: operations.map((b): Content => ({ payload: JSON.stringify(b), type: 'application/json' })) },
      { weight: 3, arbitrary: wellFormed.map((b): Content => ({ payload: JSON.stringify(b), type: 'application/json' })) },
      {
        weight: 2,
        arbitrary: batchOfChanges(RESOURCES, world).map((b): Content => ({ payload: JSON.stringify(b), type: 'application/json' }))
      },
      { weight: 1, arbitrary: content(jsonPayload(batch)) }
    ),
    headers: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: optionalHeaders }),
    authorization: fc.oneof({ weight: 3, arbitrary: fc.constant(world.bearer) }, { weight: 1, arbitrary: world.authorization })
  }).map(r => toRequest('POST', '/v1/batch', r.authorization, r.headers, r.body))

  // JSON pages only: inject() waits for the end of an answer, and a stream of events has none.
  const position = fc.oneof(fc.constantFrom('0', '1', '2', '01', '-1', '1.5', 'x', '99999999999999999999', '9223372036854775807',
    '9223372036854775808', ''), nastyText.map(encode))
  const changes = fc.record({
    collection: fc.constantFrom(...RESOURCES.map(r => r.name), 'giraffes'),
    query: fc.array(fc.tuple(fc.constantFrom('after', 'limit', 'cursor', 'q'),
      fc.oneof(position, fc.integer({ min: -2, max: 1002 }).map(String))), { maxLength: 3 })
      .map(pairs => pairs.length === 0 ? '' : `?${pairs.map(([n, v]) => `${n}=${v}`).join('&')}`),
    lastEventId: fc.option(position, { nil: undefined }),
    accept: fc.constantFrom('application/json', '*/*', 'text/html', undefined),
    authorization: world.authorization
  }).map(r => toRequest('GET', `/v1/${r.collection}/changes${r.query}`, r.authorization, {
    ...(r.lastEventId === undefined ? {} : { 'last-event-id': r.lastEventId }),
    ...(r.accept === undefined ? {} : { accept: r.accept })
  }, {}))
  return fc.oneof({ weight: 2, arbitrary: bulk }, { weight: 3, arbitrary: batches }, { weight: 1, arbitrary: changes })
}

/** Every request the fuzzer sends through inject(). */
const requests = (world: World): fc.Arbitrary<Fuzzed> => fc.oneof(
  ...RESOURCES.map(resource => ({ weight: 4, arbitrary: collectionRequests(resource, world) })),
  { weight: 4, arbitrary: writePowerRequests(world) },
  { weight: 3, arbitrary: otherRequests(world) },
  { weight: 2, arbitrary: oauthRequests(world) },
  { weight: 3, arbitrary: boundedWrites(world) }
).map(request => printable(request, world.secrets))

/** A bearer token's claims: its middle part. */
const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'))

/** The records, clients, tokens and jobs of the fuzz: a few of each, so that ids hit and the rows stay cheap to read. */
async function makeWorld (app: FastifyInstance): Promise<World> {
  const token = async (authorization: string, params: Record<string, string> = {}): Promise<string> => {
    const res = await tokenRequest(app, { grant_type: 'client_credentials', ...params }, authorization)
    if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`)
    return res.json().access_token
  }
  const bootstrap = basic(BOOTSTRAP.id, BOOTSTRAP.secret)
  const full = await token(bootstrap)
  const [first, second] = RESOURCES as [Resource, Resource]
  // A scope of one collection, and a write scope of another, for 403s and for a job of another client.
  const narrowClient = await addClient(app, `${first.name}:read ${second.name}:write`)
  const narrowBasic = basic(narrowClient.client_id, narrowClient.client_secret)
  const narrow = await token(narrowBasic)
  const revoked = await token(bootstrap, { scope: `${first.name}:read` })
  const revocation = await app.inject({
    method: 'POST',
    url: '/oauth/revoke',
    headers: { authorization: bootstrap, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: revoked }).toString()
  })
  if (revocation.statusCode !== 200) throw new Error(`revoke: ${revocation.statusCode} ${revocation.body}`)

  const as = (bearer: string) => ({ authorization: `Bearer ${bearer}` })
  // Of every collection, three live records (naming live records of the collections they reference, the third none
  // where it may) and one deleted; the collections they name first.
  const live: Record<string, number[]> = {}
  const ids: Record<string, number[]> = {}
  const body = (resource: Resource, n: number): Record<string, unknown> => Object.fromEntries(resource.columns
    .filter(c => !c.readOnly)
    .map(c => {
      if (c.kind !== 'reference') return [c.name, sampleValue(c, n)]
      const targets = live[c.references as string] as number[]
      return [c.name, n === 2 && c.nullable ? null : targets[n % targets.length]]
    }))
  const ordered: Resource[] = []
  while (ordered.length < RESOURCES.length) {
    const next = RESOURCES.find(r => !ordered.includes(r) && Object.values(r.references).every(target => target in live))
    if (next === undefined) throw new Error('the references of the collections go round')
    ordered.push(next)
    const made: number[] = []
    for (let n = 0; n < 3; n++) made.push((await create(app, next.name, body(next, n))).id)
    live[next.name] = made
    const gone = await create(app, next.name, body(next, 3))
    await call(app, 'DELETE', `/v1/${next.name}/${gone.id}`)
    ids[next.name] = [...made, gone.id, 999]
  }

  const queued = async (bearer: string, url: string, body: unknown): Promise<string> => {
    const res = await call(app, 'POST', url, body, { ...as(bearer), prefer: 'respond-async' })
    if (res.statusCode !== 202) throw new Error(`queueing: ${res.statusCode} ${res.body}`)
    return res.json().id
  }
  const jobs = [
    await queued(full, `/v1/${first.name}`, body(first, 10)),
    await queued(narrow, `/v1/${second.name}`, body(second, 11))
  ]
  const page = await call(app, 'GET', `/v1/${first.name}?limit=1`, undefined, as(full))
  const cursor = /[?&]cursor=([^&>]+)>; rel="next"/.exec(String(page.headers.link))?.[1]
  if (cursor === undefined) throw new Error(`no next link: ${String(page.headers.link)}`)

  const claims = claimsOf(full)
  const unsigned = (header: object, payload: object): string => `${base64url(header)}.${base64url(payload)}.`
  const [head, , signature] = full.split('.')
  return {
    live,
    bearer: `Bearer ${full}`,
    ids,
    cursor,
    jobs,
    secrets: { 'full token': full, 'narrow token': narrow, 'revoked token': revoked },
    clients: [bootstrap, narrowBasic, basic(BOOTSTRAP.id, 'wrong'), basic(narrowClient.client_id, BOOTSTRAP.secret)],
    authorization: fc.oneof(
      { weight: 20, arbitrary: fc.constant(`Bearer ${full}`) },
      { weight: 3, arbitrary: fc.constant(`Bearer ${narrow}`) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'Bearer', 'Bearer ', `bearer ${full}`, `Bearer  ${full}  `, `Bearer ${full} extra`, `Bearer ${full.slice(0, -2)}`,
          `Bearer ${revoked}`, `Bearer ${full}.${full}`, 'Bearer a.b.c', `Bearer ${unsigned({ alg: 'none', typ: 'at+jwt' }, claims)}`,
          // The bootstrap token's claims with every scope and a later expiry, under its own signature.
          `Bearer ${head}.${base64url({ ...claims, scope: SCOPES.join(' '), exp: Number(claims.exp) + 3600 })}.${signature}`,
          `Bearer ${unsigned({ alg: 'HS256', typ: 'at+jwt' }, claims)}${signature}`,
          bootstrap, 'Basic', 'Basic !!!', 'Digest username="x"', 'Token abc', `Bearer\t${full}`
        )
      },
      { weight: 1, arbitrary: headerText }
    )
  }
}

/** The fuzzed app, its world, and the check of its answers, once the jobs the world queued have run. */
async function prepared (t: Test) {
  const { app, violations } = await fuzzedApp(t)
  const world = await makeWorld(app)
  const store = await stored(t, app)
  await store.jobsDone()
  return { app, world, check: await checker(violations, store) }
}

t.test('every route, any request: no 5xx, a JSON error for every 4xx, nothing written by a 4xx, answers as documented', async t => {
  const { app, world, check } = await prepared(t)
  const sent = async (request: Fuzzed) => {
    const res = await inject(app, request)
    return { status: res.statusCode, body: res.body }
  }
  await fc.assert(fc.asyncProperty(requests(world), request => check(request, sent)), runs())
  t.pass(`${runs().numRuns} requests`)
})

/**
 * A token that may write a collection but not read it (the world's narrow token) sends changes of
 * many of its records, alone or in batches, at once or queued, with every preference: each is
 * refused at once with the guard's 403, whose body tells nothing of the records, and nothing is
 * written or queued.
 */
t.test('a write-only token learns nothing through changes of many records, alone or batched, at once or queued', async t => {
  const { app, world, check } = await prepared(t)
  const token = world.secrets['narrow token'] as string
  const narrow = `Bearer ${token}`
  const scopes = String(claimsOf(token).scope).split(' ')
  const writable = RESOURCES.filter(r => scopes.includes(`${r.name}:write`) && !scopes.includes(`${r.name}:read`))
  t.not(writable.length, 0, 'the narrow token writes a collection it may not read')
  const prefer = fc.option(fc.oneof(BULK_PREFERENCES, BULK_PREFERENCES.map(p => `respond-async, ${p}`), fc.constant('respond-async')),
    { nil: undefined })
  const json = (body: unknown): Content => body === undefined ? {} : { payload: JSON.stringify(body), type: 'application/json' }
  const request = fc.oneof(
    fc.tuple(fc.constantFrom(...writable).chain(r => changeOfMany(r, world)), prefer)
      .map(([change, p]) => toRequest(change.method, change.path, narrow, p === undefined ? {} : { prefer: p }, json(change.body))),
    fc.tuple(batchOfChanges(writable, world).filter(b => b.operations.some(o => o.method !== 'POST')), fc.boolean())
      .map(([b, async]) => toRequest('POST', '/v1/batch', narrow, async ? { prefer: 'respond-async' } : {}, json(b)))
  ).map(r => printable(r, world.secrets))
  const sent = async (request: Fuzzed) => {
    const res = await inject(app, request)
    // A batch's refusal names the operation refused too. A batch body too large or ill-formed is
    // refused for what it is before its operations are looked at.
    const keys = res.statusCode === 403 ? Object.keys(res.json()).filter(key => key !== 'operation').sort().join() : ''
    const body = res.statusCode === 422 ? res.json() : {}
    const unread = res.statusCode === 413 || (body.errors !== undefined && body.operation === undefined)
    if (keys !== 'documentation_url,error,message' && !unread) {
      throw new Error(`neither the guard's 403 nor a refusal of the body as sent: ${res.statusCode} ${res.body.slice(0, 300)}`)
    }
    return { status: res.statusCode, body: res.body }
  }
  await fc.assert(fc.asyncProperty(request, r => check(r, sent)), runs(0.25))
  t.pass(`${runs(0.25).numRuns} requests`)
})

/**
 * `request` written as is on a connection of its own; resolves with the status and body once the
 * server has closed it. The connection is not half-closed first: Node's server drops a request
 * in progress when its client ends sending.
 */
async function sendAsWritten (port: number, request: string): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', chunk => { text += chunk })
    socket.on('error', reject)
    socket.on('close', () => resolve({ status: Number(text.split(' ')[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }))
  })
}

/**
 * inject() parses the URL as a browser would: it resolves `..` and `%2e%2e`, turns `\` into `/`
 * and encodes what a request line cannot hold. Sent over a socket, the target reaches the router
 * as written.
 */
t.test('request targets sent as written over a socket: the same properties', async t => {
  const { app, world, check } = await prepared(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = portOf(app)
  // The request is written as UTF-8: a character beyond ASCII goes as its bytes, which a request line may not hold.
  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('v1', 'zoos', 'animals', 'employees', 'jobs', 'oauth', 'token', '1', '2', '999', '') },
    {
      weight: 3,
      arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2E.', '.%2e', '%2f', '%2F', '%5c', '\\', '\\..', ';', ';x=1', '%00', '%', '%zz',
        '%C0%AF', 'caf\u00e9', '~', '*', '1e309', '-1', '%20', '+', '1?', '?', '??', '#', 'x'.repeat(120))
    }
  )
  const target = fc.tuple(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.constantFrom('', '?', '?limit=1', '?a=%', '?%%', '#x'))
    .map(([segments, query]) => `/${segments.join('/')}${query}`)
  const request = fc.record({
    method: fc.constantFrom('GET', 'HEAD', 'DELETE', 'OPTIONS', 'POST', 'PUT', 'PATCH'),
    url: target,
    authorization: world.authorization
  }).map(r => printable(toRequest(r.method, r.url, r.authorization, {}, {}), world.secrets))
  const sent = async (request: Fuzzed) => {
    // A connection of its own: the server closes one after a request it cannot parse.
    const lines = [`${request.method} ${request.url} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close',
      ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`)]
    return sendAsWritten(port, `${lines.join('\r\n')}\r\n\r\n`)
  }
  await fc.assert(fc.asyncProperty(request, r => check(r, sent)), runs(0.25))
  t.pass(`${runs(0.25).numRuns} requests`)
})

/** A request as written on the wire, in parts that a malformation may break. */
interface Written { requestLine: string, headers: string[], body: string, newline: string }

/**
 * Ways to make a request that Node's HTTP/1.1 parser refuses (or that is too large): each takes the
 * request and the index of a header line, where it breaks it or puts a broken one.
 */
const MALFORMATIONS: Record<string, (request: Written, at: number) => Written> = {
  'a header name with a space': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, 'Bad Header: 1') }),
  'a control character in a header name': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, 'Bad\u0001Header: 1') }),
  'a space before the colon': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, 'X-Spaced : 1') }),
  'a header line without a colon': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, 'NoColonHere') }),
  'a folded header line': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, 'X-Folded: a', '  continued') }),
  'a NUL in a header value': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, 'X-Nul: a\u0000b') }),
  'a lone CR in a header value': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, 'X-Cr: a\rb') }),
  'lines ended by LF alone': r => ({ ...r, newline: '\n' }),
  'an unknown HTTP version': r => ({ ...r, requestLine: r.requestLine.replace('HTTP/1.1', 'HTTP/9.9') }),
  'a broken HTTP version': r => ({ ...r, requestLine: `${r.requestLine}x` }),
  'a method in lower case': r => ({ ...r, requestLine: r.requestLine.replace(/^\w+/, m => m.toLowerCase()) }),
  'a space inside the target': r => ({ ...r, requestLine: r.requestLine.replace('/', '/ ') }),
  'a DEL inside the target': r => ({ ...r, requestLine: r.requestLine.replace('/', '/\u007f') }),
  'no Host header': r => ({ ...r, headers: r.headers.filter(h => !h.startsWith('Host:')) }),
  'a chunk size that is no number': r => ({
    ...r,
    headers: [...r.headers.filter(h => !h.startsWith('Content-Length')), 'Transfer-Encoding: chunked'],
    body: `zz\r\n${r.body}\r\n0\r\n\r\n`
  }),
  'two different Content-Lengths': r => ({ ...r, headers: [...r.headers, `Content-Length: ${r.body.length + 1}`] }),
  'Content-Length and Transfer-Encoding': r => ({ ...r, headers: [...r.headers, 'Transfer-Encoding: chunked'] }),
  'a Content-Length that is no number': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, 'Content-Length: -1') }),
  'headers past MAX_HEADER_SIZE': (r, at) => ({ ...r, headers: r.headers.toSpliced(at, 0, `X-Padding: ${'p'.repeat(5000)}`) })
}

/**
 * Requests the server cannot read, carrying credentials wherever a client puts them (HTTP Basic,
 * a bearer token in Authorization or another header, a cookie, a token in the query, a form's
 * password and client secret), sent as written over a socket to the API logging at `trace`: each
 * is answered 4xx or has its connection closed, never 2xx or 5xx, and no credential, as text or as
 * bytes, is in the log.
 */
t.test('malformed HTTP/1.1 requests with credentials at LOG_LEVEL=trace: a 4xx or closed, and no credential logged', async t => {
  const { stream, text } = captured()
  const app = buildApi(testConfig(dataDir(t), { LOG_LEVEL: 'trace', MAX_HEADER_SIZE: '4096' }), { logStream: stream })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const token = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token as string
  const client = basic(BOOTSTRAP.id, BOOTSTRAP.secret)
  const password = 'correct-horse-battery-staple'
  const secrets = { token, 'client secret': BOOTSTRAP.secret, 'basic credentials': client.slice(6), password }
  const form = `grant_type=password&username=ada&password=${password}&client_id=${BOOTSTRAP.id}&client_secret=${BOOTSTRAP.secret}`
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'),
    target: fc.constantFrom('/oauth/token', '/oauth/revoke', '/v1/zoos', '/v1/zoos/1', `/v1/zoos?access_token=${token}`, '/nowhere'),
    credentials: fc.shuffledSubarray([`Authorization: ${client}`, `Authorization: Bearer ${token}`, `X-Api-Key: ${token}`,
      `Cookie: session=${token}`, `Proxy-Authorization: ${client}`, `X-Forwarded-Authorization: Bearer ${token}`], { minLength: 1 }),
    body: fc.constantFrom('', form, JSON.stringify({ password, client_secret: BOOTSTRAP.secret })),
    malformations: fc.uniqueArray(fc.constantFrom(...Object.keys(MALFORMATIONS)), { minLength: 1, maxLength: 2 }),
    at: fc.nat()
  }).map(r => {
    const content = r.body === ''
      ? []
      : [`Content-Type: ${r.body === form ? 'application/x-www-form-urlencoded' : 'application/json'}`,
      `Content-Length: ${r.body.length}`]
    const sound: Written = {
      requestLine: `${r.method} ${r.target} HTTP/1.1`,
      headers: ['Host: 127.0.0.1', ...r.credentials, ...content],
      body: r.body,
      newline: '\r\n'
    }
    const broken = r.malformations.reduce((written, name) =>
      (MALFORMATIONS[name] as typeof MALFORMATIONS[string])(written, r.at % (written.headers.length + 1)), sound)
    return { malformations: r.malformations, bytes: [broken.requestLine, ...broken.headers, '', broken.body].join(broken.newline) }
  })
  await fc.assert(fc.asyncProperty(request, async ({ bytes }) => {
    const { status } = await sendAsWritten(portOf(app), bytes)
    // Node's server answers a missing Host itself, with an empty 400: the body is not checked.
    const problems = Number.isNaN(status) || (status >= 400 && status < 500) ? [] : [`answered ${status}`]
    const logged = Object.entries(secrets).filter(([, secret]) => holds(text(), secret)).map(([name]) => name)
    if (logged.length > 0) problems.push(`in the log: ${logged.join(', ')}`)
    if (problems.length > 0) throw new Error(problems.join('\n'))
  }), runs(0.25))
  t.match(text(), /client error/, 'the refusals were logged')
  t.pass(`${runs(0.25).numRuns} requests`)
})
