import { PassThrough } from 'node:stream'
import t from 'tap'
import { bearer, build, call, create, query, snapshot } from '../../helper.ts'

const ZOO = { name: 'Berlin Zoo', city: 'Berlin' }

t.test('400: a body that is not JSON, empty, or not an object (or array for POST); nothing written', async t => {
  const app = await build(t)
  const { id } = await create(app, 'zoos', ZOO)
  const before = await snapshot(app)
  const authorization = await bearer(app)
  const raw = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: string) =>
    app.inject({ method, url, headers: { 'content-type': 'application/json', authorization }, payload })
  for (const [method, url] of [
    ['POST', '/v1/zoos'],
    ['PUT', `/v1/zoos/${id}`],
    ['PATCH', `/v1/zoos/${id}`]
  ] as const) {
    const broken = await raw(method, url, '{"name": "Zoo",')
    t.equal(broken.statusCode, 400, `${method} broken JSON`)
    t.match(broken.json(), { error: /not valid JSON/ })
    const empty = await raw(method, url, '')
    t.equal(empty.statusCode, 400, `${method} empty body`)
    t.match(empty.json(), { error: /empty/i })
    const poisoned = await raw(method, url, '{"__proto__": {"admin": true}, "name": "x", "city": "y"}')
    t.equal(poisoned.statusCode, 400, `${method} prototype poisoning`)
    t.match(poisoned.json(), { error: String })
    for (const payload of ['"a zoo"', '42', 'null', 'true']) {
      const res = await raw(method, url, payload)
      t.equal(res.statusCode, 400, `${method} ${payload}`)
      t.same(res.json(), { error: `Request body must be a JSON ${method === 'POST' ? 'object or array' : 'object'}` })
    }
    const none = await app.inject({ method, url, headers: { authorization } })
    t.equal(none.statusCode, 400, `${method} without a body`)
    t.match(none.json(), { error: /^Request body must be a JSON object/ })
  }
  for (const method of ['PUT', 'PATCH'] as const) {
    const array = await raw(method, `/v1/zoos/${id}`, JSON.stringify([ZOO]))
    t.equal(array.statusCode, 400, `${method} of an array`)
    t.same(array.json(), { error: 'Request body must be a JSON object' })
  }
  t.same(await snapshot(app), before)
})

t.test('422 for an integer past 2^53 - 1 or text with a null byte, whatever the engine; nothing written, nothing queued', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  const animal = await create(app, 'animals', { name: 'Leo', species: 'Panthera leo', animal_type_id: 1 })
  const before = await snapshot(app)
  // The fuzzer's finds (test/fuzz/api.test.ts): 500s from SQLite's STRICT tables, and from PostgreSQL's text.
  const cases: [string, string, unknown, string][] = [
    ['POST', '/v1/animals', { name: 'a', species: 's', animal_type_id: 1e308 }, 'animal_type_id'],
    ['POST', '/v1/animals', { name: 'a', species: 's', animal_type_id: 2 ** 63 }, 'animal_type_id'],
    ['PATCH', `/v1/animals/${animal.id}`, { animal_type_id: 2 ** 53 }, 'animal_type_id'],
    ['POST', '/v1/zoos', { name: 'a\u0000b', city: 'x' }, 'name'],
    ['POST', '/v1/zoos', [ZOO, { name: 'x', city: '\u0000' }], '1.city'],
    ['POST', `/v1/zoos/${zoo.id}/animals`, { name: 'a', species: 's\u0000', animal_type_id: 1 }, 'species'],
    ['PUT', `/v1/zoos/${zoo.id}`, { name: 'a\u0000', city: 'b' }, 'name'],
    ['PATCH', `/v1/zoos/${zoo.id}`, { city: '\u0000' }, 'city']
  ]
  for (const [method, url, body, field] of cases) {
    for (const headers of [{}, { prefer: 'respond-async' }] as Record<string, string>[]) {
      const res = await call(app, method as 'POST', url, body, headers)
      t.equal(res.statusCode, 422, `${method} ${url} ${JSON.stringify(headers)}`)
      t.match(res.json(), { error: /^Validation failed: /, errors: [{ field }] }, `${method} ${url}`)
    }
  }
  t.same(await snapshot(app), before)
})

t.test('404 for an id that is not a positive integer', async t => {
  const app = await build(t)
  for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
    const res = await call(app, 'GET', `/v1/zoos/${id}`)
    t.equal(res.statusCode, 404, id)
    t.same(res.json(), { error: `Nothing at /v1/zoos/${id}: identifiers are positive integers` })
  }
})

t.test('415 for a body that is not JSON; nothing written', async t => {
  const app = await build(t)
  const { id } = await create(app, 'zoos', ZOO)
  const before = await snapshot(app)
  const authorization = await bearer(app)
  const types = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']
  for (const [method, url] of [
    ['POST', '/v1/zoos'],
    ['PUT', `/v1/zoos/${id}`],
    ['PATCH', `/v1/zoos/${id}`]
  ] as const) {
    for (const type of types) {
      const res = await app.inject({ method, url, headers: { 'content-type': type, authorization }, payload: 'name=x' })
      t.equal(res.statusCode, 415, `${method} ${type}`)
      const takes = method === 'PATCH' ? 'application/json or application/merge-patch+json' : 'application/json'
      t.equal(res.json().error, `Content-Type must be ${takes}; got ${type}`)
    }
  }
  t.same(await snapshot(app), before)
})

t.test('422: well-formed JSON that fails validation lists every bad field; nothing written', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', ZOO)
  await create(app, 'employees', { name: 'Ada', role: 'Keeper', email: 'ada@example.org' })
  const gone = await create(app, 'zoos', { name: 'Old', city: 'X' })
  await call(app, 'DELETE', `/v1/zoos/${gone.id}`)
  const before = await snapshot(app)

  const cases: [string, string, unknown, { field: string; code: string; message?: string }[]][] = [
    ['POST', '/v1/zoos', { city: 'Rome' }, [{ field: 'name', code: 'required', message: 'name is required' }]],
    ['POST', '/v1/zoos', { ...ZOO, colour: 'green' }, [{ field: 'colour', code: 'unknown', message: 'colour is not a known field' }]],
    ['POST', '/v1/zoos', { ...ZOO, id: 7 }, [{ field: 'id', code: 'unknown' }]],
    ['POST', '/v1/zoos', { ...ZOO, name: '' }, [{ field: 'name', code: 'length' }]],
    ['POST', '/v1/zoos', { ...ZOO, name: 'x'.repeat(201) }, [{ field: 'name', code: 'length' }]],
    ['POST', '/v1/zoos', { ...ZOO, name: 5 }, [{ field: 'name', code: 'type', message: 'name must be a string' }]],
    ['POST', '/v1/zoos', { ...ZOO, country: 'de' }, [{ field: 'country', code: 'enum' }]],
    ['POST', '/v1/zoos', { ...ZOO, country: 'XX' }, [{ field: 'country', code: 'enum' }]],
    [
      'POST',
      '/v1/zoos',
      { ...ZOO, opened_on: '2021-02-30' },
      [
        {
          field: 'opened_on',
          code: 'format',
          message: 'opened_on must be a date ' + 'written YYYY-MM-DD'
        }
      ]
    ],
    [
      'POST',
      '/v1/zoos',
      { ...ZOO, opened_on: 20210101 },
      [
        {
          field: 'opened_on',
          code: 'type',
          message: 'opened_on must be a string or null'
        }
      ]
    ],
    [
      'POST',
      '/v1/animals',
      { name: 'a', species: 's', animal_type_id: '5' },
      [{ field: 'animal_type_id', code: 'type', message: 'animal_type_id must be an integer' }]
    ],
    ['POST', '/v1/animals', { name: 'a', species: 's', animal_type_id: 0 }, [{ field: 'animal_type_id', code: 'range' }]],
    ['POST', '/v1/animals', { name: 'a', species: 's', animal_type_id: 1.5 }, [{ field: 'animal_type_id', code: 'type' }]],
    [
      'POST',
      '/v1/animals',
      { name: 'a', species: 's', animal_type_id: 1, zoo_id: 4242 },
      [{ field: 'zoo_id', code: 'not_found', message: 'zoo_id 4242 names no existing record of zoos' }]
    ],
    ['POST', '/v1/animals', { name: 'a', species: 's', animal_type_id: 1, zoo_id: gone.id }, [{ field: 'zoo_id', code: 'not_found' }]],
    [
      'POST',
      '/v1/animals',
      { name: 'a', species: 's', animal_type_id: 1, zoo_id: 'one' },
      [{ field: 'zoo_id', code: 'type', message: 'zoo_id must be an integer or null' }]
    ],
    ['POST', '/v1/employees', { name: 'B', role: 'R', email: 'not-an-email' }, [{ field: 'email', code: 'format' }]],
    [
      'POST',
      '/v1/employees',
      { name: 'B', role: 'R', email: 'ADA@example.org' },
      [
        {
          field: 'email',
          code: 'unique',
          message: 'email ' + '"ADA@example.org" is already used by another employee'
        }
      ]
    ],
    [
      'POST',
      '/v1/employees',
      [
        { name: 'B', role: 'R', email: 'b@example.org' },
        { name: 'C', role: 'R', email: 'b@example.org' }
      ],
      [{ field: '1.email', code: 'unique' }]
    ],
    ['PUT', `/v1/zoos/${zoo.id}`, { ...ZOO, name: null }, [{ field: 'name', code: 'type' }]],
    ['PATCH', `/v1/zoos/${zoo.id}`, { city: null }, [{ field: 'city', code: 'type' }]],
    ['PATCH', `/v1/zoos/${zoo.id}`, { mayor: 'x' }, [{ field: 'mayor', code: 'unknown' }]],
    ['PATCH', '/v1/animals/1', {}, []]
  ]
  for (const [method, url, body, errors] of cases) {
    if (errors.length === 0) continue
    const res = await call(app, method as 'POST', url, body)
    t.equal(res.statusCode, 422, `${method} ${url} ${JSON.stringify(body)}`)
    t.match(res.json(), { error: /^Validation failed: /, errors }, JSON.stringify(body))
    t.equal(res.json().errors.length, errors.length, JSON.stringify(body))
  }
  const many = await call(app, 'POST', '/v1/zoos', { name: '', country: 'xx', opened_on: 'soon', extra: 1 })
  t.same(
    many
      .json()
      .errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`)
      .sort(),
    ['city:required', 'country:enum', 'extra:unknown', 'name:length', 'opened_on:format']
  )
  t.same(await snapshot(app), before, 'no 422 wrote anything')
})

t.test('500: a server fault answers with a request id, no stack and no SQL, and is logged', async t => {
  const logs = new PassThrough()
  let logged = ''
  logs.on('data', chunk => {
    logged += String(chunk)
  })
  const app = await build(t, { LOG_LEVEL: 'error' }, logs)
  await create(app, 'zoos', ZOO)
  // A fault behind the API's back: the table it reads is gone.
  await query(app, 'ALTER TABLE zoos RENAME TO zoos_elsewhere')
  const res = await call(app, 'GET', '/v1/zoos/1')
  t.equal(res.statusCode, 500)
  const body = res.json()
  t.same(body, { error: 'Internal server error', request_id: res.headers['x-request-id'] })
  t.notMatch(res.body, /zoos_elsewhere|no such table|does not exist|SELECT|at .*\.ts/)
  const entry = logged
    .split('\n')
    .filter(Boolean)
    .map(line => JSON.parse(line))
    .find(e => e.level === 50)
  t.match(entry, { reqId: res.headers['x-request-id'], msg: 'request failed', err: { message: /no such table|does not exist/ } })
})

t.test('every answer carries an X-Request-Id', async t => {
  const app = await build(t)
  const a = await call(app, 'GET', '/v1/zoos')
  const b = await call(app, 'GET', '/v1/nothing')
  t.match(a.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  t.match(b.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  t.not(a.headers['x-request-id'], b.headers['x-request-id'])
  const chosen = await call(app, 'GET', '/v1/zoos', undefined, { 'x-request-id': 'mine' })
  t.not(chosen.headers['x-request-id'], 'mine', 'a client cannot choose the id that names its request in the logs')
})
