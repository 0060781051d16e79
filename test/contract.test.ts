import t, { type Test } from 'tap'
import { buildApi } from '../app.ts'
import { checkContract, ContractCheck, type Answer, type OpenApiDocument } from './contract.ts'
import { build, call, create, dataDir, testConfig } from './helper.ts'

/** An app whose contract violations are collected instead of failing the test. */
async function watched (t: Test, settings: Record<string, string> = {}) {
  const violations: string[] = []
  const collector = { fail: (message: string) => violations.push(message) } as unknown as Test
  const app = checkContract(collector, buildApi(testConfig(dataDir(t), settings)))
  t.teardown(() => app.close())
  // Answers the way a faulty route would, for the requests that ask for it.
  app.addHook('preHandler', async (request, reply) => {
    const fault = request.headers['x-fault']
    if (fault === 'status') return reply.code(418).send({ error: 'I am a teapot' })
    // Serialized already, as a string, so the route's response schema does not shape it.
    if (fault === 'body') return reply.code(200).type('application/json').send('{"name":"no id, no city"}')
    if (fault === 'header') return reply.header('X-Total-Count', 'many').send([])
  })
  await app.ready()
  return { app, violations }
}

t.test('an undocumented status, a body that does not match and a bad header each fail the test that got them', async t => {
  const { app, violations } = await watched(t)
  const zoo = await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin' })
  t.same(violations, [], 'documented answers pass')

  await call(app, 'GET', '/v1/zoos', undefined, { 'x-fault': 'status' })
  t.same(violations, [
    'GET /v1/zoos answered 418: status not documented for GET /v1/zoos (documented: 200, 304, 400, 401, 403, 406, 429, 500, 503)'
  ])

  violations.length = 0
  await call(app, 'GET', `/v1/zoos/${zoo.id}`, undefined, { 'x-fault': 'body' })
  t.equal(violations.length, 1)
  t.match(violations[0], new RegExp(
    '^GET /v1/zoos/:id answered 200: body .* does not match ' +
    '#/paths/~1v1~1zoos~1%7Bid%7D/get/responses/200/content/application~1json/schema: .*must have required property \'id\''
  ))

  violations.length = 0
  await call(app, 'GET', '/v1/zoos', undefined, { 'x-fault': 'header' })
  t.equal(violations.length, 1)
  t.match(violations[0], /^GET \/v1\/zoos answered 200: header X-Total-Count: many does not match .*must be integer/)
})

t.test('HEAD is checked as GET; unknown paths and 405s need an Error body only', async t => {
  const { app, violations } = await watched(t, { API_PREFIX: '/api' })
  const head = await call(app, 'HEAD', '/api/v1/zoos')
  t.equal(head.statusCode, 200)
  t.equal((await call(app, 'GET', '/api/v1/giraffes')).statusCode, 404)
  t.equal((await call(app, 'GET', '/elsewhere')).statusCode, 404, 'outside API_PREFIX')
  t.equal((await call(app, 'PUT', '/api/v1/zoos')).statusCode, 405)
  t.equal((await call(app, 'GET', '/api/documentation/json')).statusCode, 200)
  t.same(violations, [])
})

t.test('the check reads the document: operations, statuses, empty bodies, media types', async t => {
  const app = await build(t)
  const document = (await call(app, 'GET', '/documentation/json')).json() as OpenApiDocument
  const check = new ContractCheck(document, '')
  const answer = (overrides: Partial<Answer>): Answer => ({
    method: 'GET',
    route: '/v1/zoos',
    hidden: false,
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: '[]',
    ...overrides
  })
  t.same(check.violations(answer({})), [])
  t.same(check.violations(answer({ method: 'PUT' })), ['PUT /v1/zoos answered 200: no operation PUT /v1/zoos in the document'])
  t.same(
    check.violations(answer({ method: 'DELETE', route: '/v1/zoos/:id', status: 204, body: '{}' })),
    ['DELETE /v1/zoos/:id answered 204: a body where the document has none']
  )
  t.same(
    check.violations(answer({ headers: { 'content-type': 'text/html' } })),
    ['GET /v1/zoos answered 200: content type text/html not documented (documented: application/json)']
  )
  t.same(check.violations(answer({ body: '[' })), ['GET /v1/zoos answered 200: body is not JSON: ['])
  t.same(
    check.violations(answer({ route: undefined, status: 404, body: '{"message":"no error member"}' })),
    ['GET (no route) answered 404: not an Error body: {"message":"no error member"}']
  )
  t.same(check.violations(answer({ route: '/v1/zoos/', hidden: true, method: 'POST', status: 405, body: '{"error":"no"}' })), [])
  const limited = (reset: string) => answer({ headers: { 'content-type': 'application/json', 'x-ratelimit-reset': reset } })
  t.same(check.violations(limited('60')), [], 'a header of a shared schema, read as a number')
  t.match(check.violations(limited('61')), [/^GET \/v1\/zoos answered 200: header X-RateLimit-Reset: 61 does not match .*must be <= 60/])
})
