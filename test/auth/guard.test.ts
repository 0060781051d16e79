import { PassThrough } from 'node:stream'
import { generateKeyPair, SignJWT, type JWTPayload } from 'jose'
import t from 'tap'
import { buildApi } from '../../app.ts'
import { SigningKeys } from '../../auth/keys.ts'
import { loadConfig } from '../../config/index.ts'
import { checkContract } from '../contract.ts'
import { addClient, addUser, basic, BOOTSTRAP, build, call, tokenRequest, withStorage } from '../helper.ts'

const ISSUER = 'https://localhost:8443'
const AUDIENCE = 'https://localhost:8443/v1'
const REALM = 'Bearer realm="zoo-api"'

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

t.test('401 for every way a bearer token fails, with the RFC 6750 challenge', async t => {
  const app = await build(t)
  const key = await withStorage(app, async storage => (await SigningKeys.open(storage.signingKeys)).signing())
  const now = Math.floor(Date.now() / 1000)
  const claims: JWTPayload = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: BOOTSTRAP.id,
    client_id: BOOTSTRAP.id,
    scope: 'zoos:read',
    jti: 'j-1',
    iat: now,
    exp: now + 600
  }
  const sign = (payload: JWTPayload, header: Record<string, unknown> = {}, signingKey = key.privateKey) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid, ...header }).sign(signingKey)
  const valid = await sign(claims)
  t.equal(
    (await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${valid}` })).statusCode,
    200,
    'the crafted token is ' + 'otherwise valid'
  )

  const [head, body, signature] = valid.split('.') as [string, string, string]
  const other = await generateKeyPair('ES256')
  const cases: [string, string | undefined, RegExp | undefined][] = [
    ['no Authorization header', undefined, undefined],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`, undefined],
    ['Bearer without a token', 'Bearer', undefined],
    ['malformed', 'Bearer not.a.jwt', /malformed/],
    ['garbage', 'Bearer abc', /malformed/],
    ['bad signature', `Bearer ${head}.${body}.${signature.slice(0, -4)}AAAA`, /signature is invalid/],
    ['changed payload', `Bearer ${head}.${base64url({ ...claims, scope: 'zoos:write' })}.${signature}`, /signature is invalid/],
    ['alg none', `Bearer ${base64url({ alg: 'none', typ: 'at+jwt' })}.${body}.`, /algorithm/],
    [
      'HS256 with the public key as secret',
      `Bearer ${await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: key.kid })
        .sign(Buffer.from(JSON.stringify(key.publicJwk)))}`,
      /algorithm/
    ],
    ['wrong typ', `Bearer ${await sign(claims, { typ: 'JWT' })}`, /typ must be at\+jwt/],
    ['no typ', `Bearer ${await sign(claims, { typ: undefined })}`, /typ must be at\+jwt/],
    ['expired', `Bearer ${await sign({ ...claims, iat: now - 1200, exp: now - 600 })}`, /expired/],
    ['not yet valid', `Bearer ${await sign({ ...claims, nbf: now + 600 })}`, /not valid yet/],
    ['wrong iss', `Bearer ${await sign({ ...claims, iss: 'https://evil.example' })}`, /issuer this API does not accept/],
    ['wrong aud', `Bearer ${await sign({ ...claims, aud: 'https://other-api.example' })}`, /aud claim/],
    ['no jti', `Bearer ${await sign({ ...claims, jti: undefined })}`, /jti claim/],
    ['unknown kid', `Bearer ${await sign(claims, { kid: 'not-our-key' }, other.privateKey)}`, /unknown key/],
    ['our kid, another key', `Bearer ${await sign(claims, {}, other.privateKey)}`, /signature is invalid/]
  ]
  for (const [name, authorization, reason] of cases) {
    const res = await app.inject({ method: 'GET', url: '/v1/zoos', headers: authorization === undefined ? {} : { authorization } })
    t.equal(res.statusCode, 401, name)
    const challenge = res.headers['www-authenticate']
    if (reason === undefined) {
      t.equal(challenge, REALM, name)
      t.same(
        res.json(),
        {
          error: 'A bearer access token is required',
          message: 'Requires authentication',
          documentation_url: 'http://localhost:80/documentation#/oauth/issueToken'
        },
        name
      )
    } else {
      t.match(challenge, new RegExp(`^${REALM}, error="invalid_token", error_description="[^"]+"$`), name)
      t.match(challenge, reason, name)
      t.match(
        res.json(),
        { error: reason, message: 'Requires authentication', documentation_url: /\/documentation#\/oauth\/issueToken$/ },
        name
      )
    }
  }
})

t.test('every /v1 route is guarded, the public ones are not', async t => {
  const app = await build(t)
  for (const url of ['/v1', '/v1/zoos', '/v1/zoos/1', '/v1/animals', '/v1/employees/1', '/v1/zoos/1/animals', '/v1/zoos/1/employees/2']) {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url })
      t.equal(res.statusCode, 401, `${method} ${url}`)
    }
  }
  for (const url of ['/', '/.well-known/oauth-authorization-server', '/.well-known/jwks.json']) {
    t.equal((await app.inject({ method: 'GET', url })).statusCode, 200, url)
  }
})

t.test('403 insufficient_scope names the scope needed', async t => {
  const app = await build(t)
  const reader = await addClient(app, 'zoos:read animals:read employees:read')
  const animalsOnly = await addClient(app, 'animals:read animals:write')
  const tokenOf = async (client: { client_id: string; client_secret: string }) =>
    `Bearer ${(await tokenRequest(app, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret)))
      .json().access_token}`
  const readOnly = await tokenOf(reader)
  const animals = await tokenOf(animalsOnly)
  const zoo = await call(app, 'POST', '/v1/zoos', { name: 'Z', city: 'C' })
  const zooId = zoo.json().id

  const forbidden: [string, 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', string, string, unknown?][] = [
    [readOnly, 'POST', '/v1/zoos', 'zoos:write', { name: 'Z', city: 'C' }],
    [readOnly, 'PUT', `/v1/zoos/${zooId}`, 'zoos:write', { name: 'Z', city: 'C' }],
    [readOnly, 'PATCH', `/v1/zoos/${zooId}`, 'zoos:write', { city: 'D' }],
    [readOnly, 'DELETE', `/v1/zoos/${zooId}`, 'zoos:write'],
    [readOnly, 'POST', `/v1/zoos/${zooId}/animals`, 'animals:write', { name: 'a', species: 's', animal_type_id: 1 }],
    [animals, 'GET', '/v1/zoos', 'zoos:read'],
    [animals, 'GET', '/v1/employees', 'employees:read'],
    [animals, 'OPTIONS', '/v1/zoos', 'zoos:read'],
    [animals, 'GET', `/v1/zoos/${zooId}/employees`, 'employees:read']
  ]
  for (const [authorization, method, url, scope, body] of forbidden) {
    const res = await call(app, method, url, body, { authorization })
    t.equal(res.statusCode, 403, `${method} ${url}`)
    t.equal(res.headers['www-authenticate'], `${REALM}, error="insufficient_scope", scope="${scope}"`, `${method} ${url}`)
    t.same(res.json(), {
      error: `The access token lacks the scope ${scope}`,
      message: `Requires the scope ${scope}`,
      documentation_url: 'http://localhost:80/documentation#/oauth/issueToken'
    })
  }
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization: readOnly })).statusCode, 200)
  t.equal((await call(app, 'HEAD', `/v1/zoos/${zooId}`, undefined, { authorization: readOnly })).statusCode, 200)
  t.equal(
    (await call(app, 'GET', `/v1/zoos/${zooId}/animals`, undefined, { authorization: animals })).statusCode,
    200,
    'the nested ' + "route needs the child's scope"
  )
  t.equal(
    (await call(app, 'POST', `/v1/zoos/${zooId}/animals`, { name: 'a', species: 's', animal_type_id: 1 }, { authorization: animals }))
      .statusCode,
    201
  )
  t.equal(
    (await call(app, 'GET', '/v1', undefined, { authorization: animals })).statusCode,
    200,
    'the version document needs a token, ' + 'no scope'
  )
})

t.test('no token, secret or password is ever written to the logs', async t => {
  const logs = new PassThrough()
  let logged = ''
  logs.on('data', chunk => {
    logged += String(chunk)
  })
  const app = await build(t, { LOG_LEVEL: 'trace' }, logs)
  await addUser(app, 'ada', 'correct horse battery', 'zoos:read')
  const grant = await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'correct horse battery' })
  const { access_token: accessToken, refresh_token: refreshToken } = grant.json()
  await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refreshToken })
  await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'wrong horse battery' })
  await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=client_credentials&client_id=${BOOTSTRAP.id}&client_secret=${BOOTSTRAP.secret}`
  })
  await call(app, 'GET', '/v1/zoos?name=x', undefined, { authorization: `Bearer ${accessToken}` })
  await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${accessToken}x` })
  t.ok(logged.length > 1000, 'the requests were logged')
  for (const secret of [
    accessToken,
    refreshToken,
    'correct horse battery',
    'wrong horse battery',
    BOOTSTRAP.secret,
    basic(BOOTSTRAP.id, BOOTSTRAP.secret).slice(6)
  ]) {
    t.notOk(logged.includes(secret), `not in the logs: ${secret.slice(0, 12)}...`)
  }
})

t.test('a generated bootstrap secret is announced once, outside the logs', async t => {
  const dataDir = t.testdir()
  const announced: string[] = []
  const logs = new PassThrough()
  let logged = ''
  logs.on('data', chunk => {
    logged += String(chunk)
  })
  for (let start = 0; start < 2; start++) {
    const app = checkContract(
      t,
      buildApi(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' }, []), { logStream: logs, announce: m => announced.push(m) })
    )
    await app.ready()
    await app.close()
  }
  t.equal(announced.length, 1, 'only at the first start')
  const [, clientId, clientSecret] = /export CLIENT_ID='?([^'\s]+)'? CLIENT_SECRET='?([^'\s]+)'?/.exec(announced[0] ?? '') ?? []
  const credentials = { client_id: clientId, client_secret: clientSecret }
  t.match(credentials, { client_id: /^client_/, client_secret: /^[A-Za-z0-9_-]{43}$/ })
  // Empty when nothing was announced: then `includes` is true and the test fails.
  t.notOk(logged.includes(clientSecret ?? ''), 'the secret is not in the logs')
})
