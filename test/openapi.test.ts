import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import SwaggerParser from '@apidevtools/swagger-parser'
import t from 'tap'
import { scopeFor, scopesOf } from '../auth/scopes.ts'
import { SWAGGER_LOGO_STYLE } from '../plugins/external/swagger-ui.ts'
import { RESOURCES } from '../schemas/index.ts'
import { CLIENT_AUTHENTICATION } from '../schemas/responses.ts'
import type { OpenApiDocument } from './contract.ts'
import { build, call } from './helper.ts'
import { HELMET } from './tls/helper.ts'

const SCOPES = scopesOf(RESOURCES)

const SPECTRAL = fileURLToPath(new URL('../node_modules/.bin/spectral', import.meta.url))
const RULESET = fileURLToPath(new URL('../.spectral.yaml', import.meta.url))
const REDOCLY = fileURLToPath(new URL('../node_modules/.bin/redocly', import.meta.url))
const REDOCLY_CONFIG = fileURLToPath(new URL('../redocly.yaml', import.meta.url))
/** Redocly CLI sends usage data and asks the registry for a newer version unless told not to: the tests reach no network. */
const REDOCLY_QUIET = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }

interface Operation {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  parameters?: { name: string, in: string, schema: Record<string, unknown> }[]
  requestBody?: { content: Record<string, unknown> }
  responses: Record<string, { headers?: Record<string, unknown>, content?: unknown }>
}
type Document = OpenApiDocument & {
  openapi: string
  servers: { url: string, 'x-internal': boolean }[]
  tags: { name: string }[]
  paths: Record<string, Record<string, Operation>>
  components: { securitySchemes: Record<string, any>, schemas: Record<string, unknown> }
}

/** Spectral's JSON report, one entry per finding; severity 0 is an error, 1 a warning, 2 information. */
interface Finding { code: string, message: string, severity: number, path: string[] }

/** What Redocly CLI's JSON report says of a document. */
interface RedoclyReport {
  totals: { errors: number, warnings: number }
  problems: { ruleId: string, message: string, location: { pointer: string }[] }[]
}

t.test('the document and its UI are public: JSON, YAML and an HTML page with its own content policy', async t => {
  const app = await build(t)
  const json = await app.inject({ method: 'GET', url: '/documentation/json' })
  t.equal(json.statusCode, 200)
  t.match(json.headers['content-type'], /^application\/json/)
  const document = json.json() as Document
  t.equal(document.openapi, '3.1.0')
  t.same(document.servers, [{ url: 'https://localhost:8443', 'x-internal': false }], 'PUBLIC_URL by default, for clients')

  const yaml = await app.inject({ method: 'GET', url: '/documentation/yaml' })
  t.equal(yaml.statusCode, 200)
  t.match(yaml.headers['content-type'], /^application\/x-yaml/)
  const file = join(t.testdir(), 'openapi.yaml')
  await writeFile(file, yaml.body)
  t.same(await SwaggerParser.parse(file), document, 'the YAML says what the JSON says')

  const page = await app.inject({ method: 'GET', url: '/documentation/' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  t.match(page.body, '<script src="./static/swagger-initializer.js"')
  // helmet's `default-src 'none'` would leave the page blank; its other headers stay.
  t.match(page.headers['content-security-policy'], /^default-src 'self';.*script-src 'self'/)
  t.match(page.headers, { 'strict-transport-security': HELMET['strict-transport-security'], 'x-content-type-options': 'nosniff' })
  const initializer = await app.inject({ method: 'GET', url: '/documentation/static/swagger-initializer.js' })
  t.equal(initializer.statusCode, 200)
  t.match(initializer.headers['content-type'], /^application\/javascript/)
  t.match(initializer.body, "url: resolveUrl('./json')", 'the page loads the document beside it')
  const bundle = await app.inject({ method: 'GET', url: '/documentation/static/swagger-ui-bundle.js' })
  t.equal(bundle.statusCode, 200)
  t.equal((await app.inject({ method: 'GET', url: '/documentation/static/nothing.js' })).statusCode, 404)
})

t.test('the page: its one inline style allowed by digest, and the Authorize box opening on client credentials', async t => {
  const app = await build(t)
  const page = await app.inject({ method: 'GET', url: '/documentation/' })
  const styleSrc = page.headers['content-security-policy']?.toString().split(';').map(d => d.trim()).find(d => d.startsWith('style-src '))
  t.equal(styleSrc?.split(' ').at(-1), SWAGGER_LOGO_STYLE, 'the top bar\'s first logo may apply its style')
  // Recomputed from the swagger-ui installed: an update that changes its logo fails here, and the browser test shows the violation.
  const preset = await readFile(join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static',
    'swagger-ui-standalone-preset.js'), 'utf8')
  const styles = [...preset.matchAll(/createElement\("style",null,"([^"]*)"\)/g)].map(m => m[1] as string)
  t.same(styles.map(style => `'sha256-${createHash('sha256').update(style).digest('base64')}'`), [SWAGGER_LOGO_STYLE])
  t.match(page.body, '<script src="./static/theme/authorize-dialog.js"', 'the page loads the Authorize box\'s script')
  const script = await app.inject({ method: 'GET', url: '/documentation/static/theme/authorize-dialog.js' })
  t.equal(script.statusCode, 200)
  t.match(script.headers['content-type'], /javascript/)
  t.match(script.body, "dialog.querySelector('input')", 'the cursor goes to the first field of the first block')
  const api = await call(app, 'GET', '/v1/zoos')
  t.equal(api.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'",
    'the API\'s own answers keep helmet\'s policy')
})

t.test('SwaggerParser validates the document; Spectral (spectral:oas, OWASP) and Redocly (recommended) find no error in it', async t => {
  const app = await build(t)
  const dir = t.testdir()
  const json = join(dir, 'openapi.json')
  const yaml = join(dir, 'openapi.yaml')
  await writeFile(json, (await call(app, 'GET', '/documentation/json')).body)
  await writeFile(yaml, (await call(app, 'GET', '/documentation/yaml')).body)
  for (const file of [json, yaml]) {
    const valid = await SwaggerParser.validate(file)
    t.equal(valid.info.title, 'Zoo API', `${file} is valid`)
  }

  const report = join(dir, 'spectral.json')
  // Exits 1 when it finds an error: the report says which.
  await promisify(execFile)(SPECTRAL, ['lint', json, '--ruleset', RULESET, '--format', 'json', '--output', report, '--quiet'])
    .catch(() => {})
  const findings = JSON.parse(await readFile(report, 'utf8')) as Finding[]
  const describe = (f: Finding) => `${f.code} at ${f.path.join('.')}: ${f.message}`
  t.same(findings.filter(f => f.severity === 0).map(describe), [], 'no error')
  // The document names no contact: whoever runs the service is it.
  t.same(
    findings.filter(f => f.severity === 1).map(describe),
    ['info-contact at info: Info object must have "contact" object.'],
    'no warning but the contact'
  )
  // What the ruleset keeps as information (.spectral.yaml says why) holds where the server enforces it.
  const document = JSON.parse(await readFile(json, 'utf8')) as Document
  const parameterOf = (f: Finding) => {
    const at = f.path.indexOf('parameters')
    const operation = document.paths[f.path[1] as string]?.[f.path[2] as string]
    return at === -1 ? undefined : operation?.parameters?.[Number(f.path[at + 1])]?.name
  }
  t.same(findings.filter(f => f.code.startsWith('owasp:api4:2023-string-') && parameterOf(f) === 'Idempotency-Key').map(describe), [],
    'Idempotency-Key is bounded and restricted')
  t.same(findings.filter(f => f.code === 'owasp:api4:2023-array-limit' && (f.path.includes('requestBody') || f.path.includes('parameters')))
    .map(describe), [], 'every array a client sends is bounded')

  // Exits 1 when it finds an error: the report says which.
  const redocly = await promisify(execFile)(REDOCLY, ['lint', json, '--config', REDOCLY_CONFIG, '--format', 'json'],
    { env: { ...process.env, ...REDOCLY_QUIET }, maxBuffer: 64 * 1024 * 1024 }).catch((failed: { stdout: string }) => failed)
  const { totals, problems } = JSON.parse(redocly.stdout) as RedoclyReport
  t.same(problems.map(p => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`), [], 'no problem')
  t.same(totals, { errors: 0, warnings: 0, ignored: 0 })
})

t.test('every operation has an id, a summary, a description, declared tags, ' +
  'its 500 and 406, and the security the guard checks', async t => {
  const app = await build(t)
  const document = (await call(app, 'GET', '/documentation/json')).json() as Document
  const tags = new Set(document.tags.map(tag => tag.name))
  const ids = new Set<string>()
  const collections = new Set(RESOURCES.map(r => r.name))
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`
      t.ok(operation.operationId !== undefined && !ids.has(operation.operationId), `${name}: a unique operationId`)
      ids.add(operation.operationId as string)
      t.ok(operation.summary !== undefined && operation.description !== undefined, `${name}: summary and description`)
      t.ok(operation.tags?.length === 1 && tags.has(operation.tags[0] as string), `${name}: a declared tag`)
      t.ok(operation.responses['406'] !== undefined && operation.responses['500'] !== undefined, `${name}: 406 and 500`)
      const segments = path.split('/')
      if (segments[1] !== 'v1') {
        const client = segments[1] === 'oauth'
        t.same(operation.security, client ? CLIENT_AUTHENTICATION : [], `${name}: ${client ? 'the client authenticates' : 'public'}`)
        continue
      }
      // A nested route needs the scope of the collection it lists; the webhooks' their own.
      const collection = segments.filter(s => collections.has(s) || s === 'webhooks').at(-1)
      // A PATCH or DELETE of a collection's path changes the records its filters select: it reads them too.
      const selects = segments.at(-1) === collection && ['patch', 'delete'].includes(method)
      const scopes = collection === undefined
        ? []
        : selects ? [`${collection}:read`, `${collection}:write`] : [scopeFor(collection, method.toUpperCase())]
      t.same(operation.security, [{ clientCredentials: scopes }, { password: scopes }], `${name}: ${scopes.join(' ') || 'a token'}`)
      t.ok(['401', '403', '503'].every(status => operation.responses[status] !== undefined), `${name}: the guard's 401, 403 and 503`)
    }
  }
  t.ok(ids.has('getRoot') && ids.has('listAnimalsOfZoo') && ids.has('getJob') && ids.has('issueToken'))

  const { securitySchemes } = document.components
  const scopes = Object.fromEntries(SCOPES.map(scope => [scope, String]))
  t.same(Object.keys(securitySchemes), ['clientCredentials', 'password', 'clientSecretBasic'],
    'a scheme per grant, client credentials first, then how a client authenticates to the token endpoint')
  t.match(securitySchemes.clientSecretBasic, { type: 'http', scheme: 'basic', description: /client_id and client_secret in the body/ })
  t.match(securitySchemes.clientCredentials, {
    type: 'oauth2',
    flows: { clientCredentials: { tokenUrl: 'https://localhost:8443/oauth/token', scopes } }
  })
  t.match(securitySchemes.password, {
    type: 'oauth2',
    flows: { password: { tokenUrl: 'https://localhost:8443/oauth/token', refreshUrl: 'https://localhost:8443/oauth/token', scopes } }
  })
  for (const scheme of [securitySchemes.clientCredentials, securitySchemes.password]) {
    const flows = Object.values(scheme.flows as Record<string, { scopes: Record<string, string> }>)
    t.same(flows.map(flow => Object.keys(flow.scopes)), [SCOPES], 'one flow, every scope')
  }
})

t.test('the headers of every answer and the query parameters of collection reads are documented', async t => {
  const app = await build(t)
  const { paths } = (await call(app, 'GET', '/documentation/json')).json() as Document
  // Every answer of an operation the rate limit counts carries its headers too (test/routes/rate-limit.test.ts).
  const LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
  const headers = (path: string, method: string, status: string) => Object.keys(paths[path]?.[method]?.responses[status]?.headers ?? {})
  t.same(headers('/v1/zoos', 'get', '200'), ['ETag', 'Link', 'X-Total-Count', 'Preference-Applied', ...LIMIT])
  t.same(headers('/v1/zoos', 'post', '201'), ['Location', 'ETag', 'Idempotent-Replayed', 'Preference-Applied', ...LIMIT])
  t.same(headers('/v1/zoos', 'post', '202'), ['Location', 'Preference-Applied', 'Idempotent-Replayed', ...LIMIT])
  t.same(headers('/v1/zoos/{id}', 'get', '200'), ['ETag', ...LIMIT])
  t.same(headers('/v1/zoos/{id}', 'get', '304'), ['ETag', ...LIMIT])
  t.same(headers('/v1/zoos/{id}', 'patch', '201'), ['ETag', 'Location', 'Preference-Applied', 'Idempotent-Replayed', ...LIMIT])
  t.same(headers('/v1/zoos/{id}', 'put', '201'), ['ETag', 'Location', 'Preference-Applied', ...LIMIT])
  t.same(headers('/v1/zoos/{id}', 'delete', '202'), ['Location', 'Preference-Applied', 'Idempotent-Replayed', ...LIMIT])
  t.same(headers('/v1/zoos', 'options', '200'), ['Allow', ...LIMIT])
  t.same(headers('/v1/zoos', 'get', '401'), ['WWW-Authenticate', ...LIMIT])
  t.same(headers('/v1/zoos', 'get', '429'), ['Retry-After', ...LIMIT])
  t.same(headers('/health', 'get', '200'), [], 'the probes are not counted')
  t.equal(paths['/v1/zoos/{id}']?.delete?.responses['204']?.content, undefined, 'no body')
  t.equal(paths['/v1/zoos/{id}']?.get?.responses['304']?.content, undefined, 'no body')
  const bodyTypes = (path: string, method: string) => Object.keys(paths[path]?.[method]?.requestBody?.content ?? {})
  t.same(bodyTypes('/v1/zoos/{id}', 'patch'), ['application/json', 'application/merge-patch+json'])
  t.same(bodyTypes('/v1/zoos/{id}', 'put'), ['application/json'])
  t.same(bodyTypes('/v1/zoos', 'post'), ['application/json'])

  const parameters = (path: string, method: string, where: string) =>
    (paths[path]?.[method]?.parameters ?? []).filter(p => p.in === where).map(p => p.name)
  const query = parameters('/v1/animals', 'get', 'query')
  t.same(query.slice(0, 7), ['limit', 'offset', 'page', 'per_page', 'sortby', 'order', 'cursor'])
  for (const column of ['id', 'zoo_id', 'born_on', 'created_at']) {
    t.same(
      query.filter(q => q === column || q.startsWith(`${column}_`)),
      ['', '_gt', '_gte', '_lt', '_lte', '_ne', '_in'].map(op => `${column}${op}`),
      column
    )
  }
  t.same(parameters('/v1/zoos/{zoo_id}/animals/{id}', 'get', 'path'), ['zoo_id', 'id'])
  t.same(parameters('/v1/zoos/{id}', 'get', 'header'), ['If-None-Match'])
  t.same(parameters('/v1/zoos/{id}', 'patch', 'header'), ['If-Match', 'Idempotency-Key', 'Prefer'])
  t.same(parameters('/v1/zoos', 'post', 'header'), ['Idempotency-Key', 'Prefer'])
})

t.test('under API_PREFIX the document is there too, its paths relative to the server URL', async t => {
  const app = await build(t, { API_PREFIX: '/api', PUBLIC_URL: 'https://zoo.example.com/api' })
  t.equal((await call(app, 'GET', '/documentation/json')).statusCode, 404)
  const json = await call(app, 'GET', '/api/documentation/json')
  const document = json.json() as Document
  t.same(document.servers, [{ url: 'https://zoo.example.com/api', 'x-internal': false }])
  t.same(
    Object.keys(document.paths).filter(p => !p.startsWith('/v1/')),
    ['/', '/health', '/oauth/token', '/oauth/revoke', '/ready', '/v1', '/.well-known/oauth-authorization-server', '/.well-known/jwks.json']
  )
  t.equal(document.components.securitySchemes.clientCredentials.flows.clientCredentials.tokenUrl, 'https://zoo.example.com/api/oauth/token')
  const page = await call(app, 'GET', '/api/documentation')
  t.match(page.body, '<script src="/api/documentation/static/swagger-initializer.js"')
  t.equal((await call(app, 'GET', '/api/documentation/static/swagger-initializer.js')).statusCode, 200)
  const file = join(t.testdir(), 'openapi.json')
  await writeFile(file, json.body)
  t.equal((await SwaggerParser.validate(file)).info.title, 'Zoo API', 'valid')
})

t.test('the documentation serves GET and HEAD only: 405 with Allow for the rest', async t => {
  const app = await build(t)
  for (const url of ['/documentation', '/documentation/json', '/documentation/yaml', '/documentation/static/swagger-ui.css']) {
    const head = await app.inject({ method: 'HEAD', url })
    t.equal(head.statusCode, 200, `HEAD ${url}`)
    const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{}' })
    t.equal(res.statusCode, 405, `POST ${url}`)
    t.equal(res.headers.allow, 'GET, HEAD')
    t.same(res.json(), { error: 'POST is not allowed here; allowed: GET, HEAD' })
  }
})
