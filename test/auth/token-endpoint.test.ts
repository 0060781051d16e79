import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import t from 'tap'
import { buildApi } from '../../app.ts'
import { runCli } from '../../cli/index.ts'
import { scopesOf } from '../../auth/scopes.ts'
import { RESOURCES } from '../../schemas/index.ts'
import { checkContract } from '../contract.ts'
import { addClient, addUser, basic, BOOTSTRAP, build, call, cliEnv, ENGINE, query, snapshot, testConfig, tokenRequest } from '../helper.ts'

const SCOPES = scopesOf(RESOURCES)

const form = (params: Record<string, string>) => new URLSearchParams(params).toString()

t.test('client_credentials: an RFC 9068 access token, never cached, no refresh token', async t => {
  const app = await build(t)
  const res = await tokenRequest(app, { grant_type: 'client_credentials' })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['cache-control'], 'no-store')
  t.equal(res.headers.pragma, 'no-cache')
  const body = res.json()
  t.same(Object.keys(body).sort(), ['access_token', 'expires_in', 'scope', 'token_type'])
  t.match(body, { token_type: 'Bearer', expires_in: 900, scope: SCOPES.join(' ') })
  const header = decodeProtectedHeader(body.access_token)
  t.match(header, { alg: 'ES256', typ: 'at+jwt', kid: String })
  const claims = decodeJwt(body.access_token)
  t.match(claims, {
    iss: 'https://localhost:8443',
    aud: 'https://localhost:8443/v1',
    sub: BOOTSTRAP.id,
    client_id: BOOTSTRAP.id,
    scope: SCOPES.join(' '),
    jti: /^[0-9a-f-]{36}$/
  })
  t.equal((claims.exp ?? 0) - (claims.iat ?? 0), 900)

  const viaBody = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ grant_type: 'client_credentials', client_id: BOOTSTRAP.id, client_secret: BOOTSTRAP.secret, scope: 'zoos:read' })
  })
  t.equal(viaBody.statusCode, 200, 'client authentication in the body')
  t.equal(viaBody.json().scope, 'zoos:read')
})

t.test("the requested scope must be among the client's", async t => {
  const app = await build(t)
  const reader = await addClient(app, 'zoos:read animals:read')
  const auth = basic(reader.client_id, reader.client_secret)
  t.equal((await tokenRequest(app, { grant_type: 'client_credentials', scope: 'animals:read' }, auth)).json().scope, 'animals:read')
  for (const scope of ['zoos:write', 'zoos:read zoos:write', 'everything', ' ']) {
    const res = await tokenRequest(app, { grant_type: 'client_credentials', scope }, auth)
    t.equal(res.statusCode, 400, scope)
    t.match(res.json(), { error: 'invalid_scope', error_description: /^scope not granted/ }, scope)
  }
})

t.test('a wrong secret sent by a page\'s script: the same 401, without the Basic challenge that makes a browser prompt', async t => {
  const app = await build(t)
  const wrong = basic(BOOTSTRAP.id, 'not-the-secret')
  const send = (headers: Record<string, string>) => app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: wrong, ...headers },
    payload: form({ grant_type: 'client_credentials' })
  })
  // What the documentation UI sends from Chromium: fetch with Fetch Metadata, and X-Requested-With.
  const scripts: Record<string, string>[] = [
    { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors', 'x-requested-with': 'XMLHttpRequest' },
    { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' },
    { 'x-requested-with': 'XMLHttpRequest' }
  ]
  for (const headers of scripts) {
    const res = await send(headers)
    t.equal(res.statusCode, 401, JSON.stringify(headers))
    t.equal(res.headers['www-authenticate'], undefined, 'no challenge: the page gets the 401 and shows it')
    t.same(res.json(), { error: 'invalid_client', error_description: 'unknown client or wrong client secret' })
  }
  const others: Record<string, string>[] = [
    {}, { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' }, { 'x-requested-with': 'fetch' }
  ]
  for (const headers of others) {
    const res = await send(headers)
    t.equal(res.headers['www-authenticate'], 'Basic realm="zoo-api", charset="UTF-8"', `${JSON.stringify(headers)}: RFC 6749 §5.2`)
  }
})

t.test('wrong client credentials: 401 invalid_client, with a Basic challenge when Basic was used', async t => {
  const app = await build(t)
  const cases: [string, string][] = [
    ['wrong secret', basic(BOOTSTRAP.id, 'not-the-secret')],
    ['unknown client', basic('nobody', BOOTSTRAP.secret)],
    ['no colon', `Basic ${Buffer.from(BOOTSTRAP.id).toString('base64')}`],
    ['bad percent-encoding', `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`]
  ]
  for (const [name, authorization] of cases) {
    const res = await tokenRequest(app, { grant_type: 'client_credentials' }, authorization)
    t.equal(res.statusCode, 401, name)
    t.equal(res.headers['www-authenticate'], 'Basic realm="zoo-api", charset="UTF-8"', name)
    t.match(res.json(), { error: 'invalid_client', error_description: String }, name)
  }
  const none = await tokenRequest(app, { grant_type: 'client_credentials' }, '')
  t.equal(none.statusCode, 401)
  t.notOk(none.headers['www-authenticate'])
  t.match(none.json(), { error: 'invalid_client' })
  const wrongBody = await tokenRequest(app, { grant_type: 'client_credentials', client_id: BOOTSTRAP.id, client_secret: 'nope' }, '')
  t.equal(wrongBody.statusCode, 401)
  const both = await tokenRequest(app, { grant_type: 'client_credentials', client_secret: BOOTSTRAP.secret })
  t.equal(both.statusCode, 400)
  t.match(both.json(), { error: 'invalid_request', error_description: /not both/ })
})

t.test('the token and revocation endpoints: their 401, their 400 and how a client authenticates are what the document says', async t => {
  const app = await build(t)
  const { paths, components } = (await call(app, 'GET', '/documentation/json')).json()
  t.match(components.securitySchemes.clientSecretBasic,
    { type: 'http', scheme: 'basic', description: /client_id and client_secret in the body/ }, 'HTTP Basic, said to be one way of two')
  const send = (url: string, params: Record<string, string>, headers: Record<string, string>) => app.inject({
    method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: form(params)
  })
  for (const [url, params] of [['/oauth/token', { grant_type: 'client_credentials' }], ['/oauth/revoke', { token: 'x' }]] as const) {
    const { security, responses } = paths[url].post
    t.same(security, [{ clientSecretBasic: [] }, {}], `${url}: HTTP Basic, or the credentials in the body`)
    const documented = (status: string) => responses[status].content['application/json'].schema.properties.error.enum as string[]
    const [challenge] = responses['401'].headers['WWW-Authenticate'].schema.enum as string[]
    const wrong = await send(url, params, { authorization: basic(BOOTSTRAP.id, 'a wrong secret') })
    t.equal(wrong.statusCode, 401)
    t.equal(wrong.headers['www-authenticate'], challenge, `${url}: the documented challenge`)
    t.equal(wrong.json().error, 'invalid_client')
    t.ok(documented('401').includes('invalid_client'), `${url}: a documented code`)
    const inBody = await send(url, { ...params, client_id: BOOTSTRAP.id, client_secret: 'a wrong secret' }, {})
    t.equal(inBody.statusCode, 401)
    t.equal(inBody.headers['www-authenticate'], undefined, `${url}: no challenge when Basic was not tried`)
    const both = await send(url, { ...params, client_secret: BOOTSTRAP.secret },
      { authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret) })
    t.equal(both.statusCode, 400)
    t.ok(documented('400').includes(both.json().error), `${url}: ${both.json().error} is a documented code of its 400`)
  }
  for (const [params, code] of [[{ grant_type: 'nope' }, 'unsupported_grant_type'], [{ grant_type: 'client_credentials', scope: 'nope' },
    'invalid_scope']] as const) {
    const res = await tokenRequest(app, params)
    t.equal(res.json().error, code)
    t.ok(paths['/oauth/token'].post.responses['400'].content['application/json'].schema.properties.error.enum.includes(code), code)
  }
})

t.test('malformed token requests: 400 with an RFC 6749 error code', async t => {
  const app = await build(t)
  const cases: [string, string, string, number][] = [
    ['missing grant_type', form({}), 'invalid_request', 400],
    ['unknown grant_type', form({ grant_type: 'authorization_code' }), 'unsupported_grant_type', 400],
    ['password without password', form({ grant_type: 'password', username: 'ada' }), 'invalid_request', 400],
    ['refresh without token', form({ grant_type: 'refresh_token' }), 'invalid_request', 400],
    ['repeated parameter', 'grant_type=client_credentials&grant_type=password', 'invalid_request', 400]
  ]
  for (const [name, payload, error, status] of cases) {
    const res = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret) },
      payload
    })
    t.equal(res.statusCode, status, name)
    t.match(res.json(), { error, error_description: String }, name)
    t.equal(res.headers['cache-control'], 'no-store', name)
  }
  const xml = await app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/xml' }, payload: '<grant/>' })
  t.equal(xml.statusCode, 415)
  t.match(xml.json(), { error: 'invalid_request', error_description: /x-www-form-urlencoded/ })
})

t.test('password grant: access and refresh token for the scopes both the user and the client have', async t => {
  const app = await build(t)
  await addUser(app, 'ada', 'correct horse battery', 'zoos:read zoos:write employees:read')
  const client = await addClient(app, 'zoos:read zoos:write animals:read')
  const res = await tokenRequest(
    app,
    { grant_type: 'password', username: 'ada', password: 'correct horse battery' },
    basic(client.client_id, client.client_secret)
  )
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.match(body, { token_type: 'Bearer', expires_in: 900, scope: 'zoos:read zoos:write', refresh_token: /^[A-Za-z0-9_-]{43}$/ })
  t.match(decodeJwt(body.access_token), { sub: 'user:1', client_id: client.client_id })
  t.equal((await call(app, 'POST', '/v1/zoos', { name: 'Z', city: 'C' }, { authorization: `Bearer ${body.access_token}` })).statusCode, 201)

  for (const [username, password] of [
    ['ada', 'wrong password'],
    ['nobody', 'correct horse battery'],
    ['ADA', 'Correct horse battery']
  ]) {
    const bad = await tokenRequest(app, { grant_type: 'password', username: username as string, password: password as string })
    t.equal(bad.statusCode, 401, `${username} / ${password}`)
    t.match(bad.json(), { error: 'invalid_grant', error_description: 'unknown user name or wrong password' })
  }
  const before = await snapshot(app)
  t.equal((await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'x' })).statusCode, 401)
  t.same(await snapshot(app), before, 'a refused grant writes nothing')
})

t.test('refresh_token: rotation, and reuse of a rotated token revokes the whole family', async t => {
  const app = await build(t)
  await addUser(app, 'ada', 'correct horse battery', 'zoos:read zoos:write')
  const first = (await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'correct horse battery' })).json()
  const second = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'zoos:read' })
  t.equal(second.statusCode, 200)
  t.match(second.json(), { scope: 'zoos:read', refresh_token: String })
  t.not(second.json().refresh_token, first.refresh_token, 'a new refresh token on every use')
  t.match(decodeJwt(second.json().access_token), { sub: 'user:1', scope: 'zoos:read' })

  const widen = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: second.json().refresh_token, scope: 'zoos:write' })
  t.equal(widen.statusCode, 400, 'a refresh cannot widen the scope')
  t.match(widen.json(), { error: 'invalid_scope' })

  const third = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: second.json().refresh_token })
  t.equal(third.statusCode, 200)

  const reuse = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token })
  t.equal(reuse.statusCode, 401)
  t.match(reuse.json(), { error: 'invalid_grant', error_description: /already used; every token of its grant is now revoked/ })
  const latest = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: third.json().refresh_token })
  t.equal(latest.statusCode, 401, 'the newest token of the family is revoked too')
  t.match(latest.json(), { error: 'invalid_grant', error_description: 'the refresh token was revoked' })

  const other = await addClient(app, 'zoos:read')
  const fresh = (await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'correct horse battery' })).json()
  const stolen = await tokenRequest(
    app,
    { grant_type: 'refresh_token', refresh_token: fresh.refresh_token },
    basic(other.client_id, other.client_secret)
  )
  t.equal(stolen.statusCode, 401, 'another client cannot use it')
  t.match(stolen.json(), { error: 'invalid_grant', error_description: 'unknown refresh token' })
  t.equal((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'made-up' })).statusCode, 401)
})

t.test('refreshes of one token at once: one succeeds, the others are reuse and end the grant', async t => {
  const app = await build(t)
  await addUser(app, 'ada', 'correct horse battery', 'zoos:read')
  for (let round = 0; round < 6; round++) {
    const grant = (await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'correct horse battery' })).json()
    const refresh = { grant_type: 'refresh_token', refresh_token: grant.refresh_token }
    const all = await Promise.all(Array.from({ length: 8 }, async () => tokenRequest(app, refresh)))
    const won = all.filter(r => r.statusCode === 200)
    t.equal(won.length, 1, `round ${round}: one of eight`)
    const after = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: won[0]?.json().refresh_token })
    t.equal(after.statusCode, 401, `round ${round}: the reuse revoked what the winner got`)
  }
})

t.test('an expired refresh token is refused', async t => {
  const app = await build(t)
  await addUser(app, 'ada', 'correct horse battery', 'zoos:read')
  const first = (await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'correct horse battery' })).json()
  await query(app, 'UPDATE refresh_tokens SET expires_at = ?', [new Date(Date.now() - 1000).toISOString()])
  const res = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token })
  t.equal(res.statusCode, 401)
  t.match(res.json(), { error: 'invalid_grant', error_description: 'the refresh token expired' })
})

t.test('revocation (RFC 7009): access tokens until they expire, refresh tokens with their family', async t => {
  const app = await build(t)
  await addUser(app, 'ada', 'correct horse battery', 'zoos:read')
  const grant = (await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'correct horse battery' })).json()
  const authorization = `Bearer ${grant.access_token}`
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization })).statusCode, 200, 'works, and is now cached')

  const revoke = (token: string, auth = basic(BOOTSTRAP.id, BOOTSTRAP.secret)) =>
    app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth },
      payload: form({ token })
    })
  const res = await revoke(grant.access_token)
  t.equal(res.statusCode, 200)
  t.equal(res.body, '')
  const after = await call(app, 'GET', '/v1/zoos', undefined, { authorization })
  t.equal(after.statusCode, 401)
  t.equal(
    after.headers['www-authenticate'],
    'Bearer realm="zoo-api", error="invalid_token", error_description="the access token was ' + 'revoked"'
  )

  t.equal((await revoke(grant.refresh_token)).statusCode, 200)
  t.equal((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: grant.refresh_token })).statusCode, 401)

  t.equal((await revoke('never-issued')).statusCode, 200, 'an unknown token is answered 200 too')
  const other = await addClient(app, 'zoos:read')
  const mine = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token
  t.equal((await revoke(mine, basic(other.client_id, other.client_secret))).statusCode, 200)
  t.equal(
    (await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${mine}` })).statusCode,
    200,
    'another client cannot ' + 'revoke it'
  )
  t.equal((await revoke(mine, basic(BOOTSTRAP.id, 'wrong'))).statusCode, 401)
  const missing = await app.inject({
    method: 'POST',
    url: '/oauth/revoke',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret) },
    payload: ''
  })
  t.equal(missing.statusCode, 400)
  t.match(missing.json(), { error: 'invalid_request' })
})

t.test('a revoked access token stays refused after a restart', async t => {
  const first = await build(t)
  const token = (await tokenRequest(first, { grant_type: 'client_credentials' })).json().access_token
  await first.inject({
    method: 'POST',
    url: '/oauth/revoke',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(BOOTSTRAP.id, BOOTSTRAP.secret) },
    payload: form({ token })
  })
  await first.close()
  const second = checkContract(t, buildApi(testConfig(first.config.dataDir)))
  t.teardown(() => second.close())
  const res = await call(second, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${token}` })
  t.equal(res.statusCode, 401)
  t.match(res.json(), { error: 'Invalid access token: the access token was revoked' })
})

t.test('metadata (RFC 8414) and JWKS documents', async t => {
  const app = await build(t, { API_PREFIX: '/api' })
  const meta = await app.inject({ method: 'GET', url: '/api/.well-known/oauth-authorization-server' })
  t.equal(meta.statusCode, 200)
  t.same(meta.json(), {
    issuer: 'https://localhost:8443/api',
    token_endpoint: 'https://localhost:8443/api/oauth/token',
    revocation_endpoint: 'https://localhost:8443/api/oauth/revoke',
    jwks_uri: 'https://localhost:8443/api/.well-known/jwks.json',
    grant_types_supported: ['client_credentials', 'password', 'refresh_token'],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: SCOPES
  })
  const jwks = await app.inject({ method: 'GET', url: '/api/.well-known/jwks.json' })
  t.equal(jwks.statusCode, 200)
  const [key, ...others] = jwks.json().keys
  t.same(others, [])
  t.match(key, { kty: 'EC', crv: 'P-256', x: String, y: String, kid: String, alg: 'ES256', use: 'sig' })
  t.notOk('d' in key, 'no private part')
  const token = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token
  t.equal(decodeProtectedHeader(token).kid, key.kid)
  t.equal(decodeJwt(token).iss, 'https://localhost:8443/api')
})

t.test('the signing key is made once and kept in the database', async t => {
  const first = await build(t)
  const kid = (await first.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys[0].kid
  const token = (await tokenRequest(first, { grant_type: 'client_credentials' })).json().access_token
  await first.close()
  const second = checkContract(t, buildApi(testConfig(first.config.dataDir)))
  t.teardown(() => second.close())
  t.same((await second.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys.map((k: JWK) => k.kid), [kid])
  t.equal(
    (await call(second, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${token}` })).statusCode,
    200,
    'tokens survive a ' + 'restart'
  )
  t.notOk(existsSync(join(first.config.dataDir, 'signing-key.jwk.json')), 'no key file: the database holds it')
})

t.test('the key an earlier version kept in DATA_DIR/signing-key.jwk.json is taken over, so its tokens stay valid', {
  skip: ENGINE === 'postgres' && 'only SQLite in DATA_DIR had that file'
}, async t => {
  const dataDir = t.testdir()
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  const legacy = await exportJWK(privateKey)
  writeFileSync(join(dataDir, 'signing-key.jwk.json'), JSON.stringify(legacy), { mode: 0o600 })
  const { d: _private, ...publicJwk } = legacy
  const kid = await calculateJwkThumbprint(publicJwk)
  const app = checkContract(t, buildApi(testConfig(dataDir)))
  t.teardown(() => app.close())
  await app.ready()
  // Signed once the app has started: a token is refused when issued before its client was made,
  // and this app makes the bootstrap client as it starts, however long that takes.
  const now = Math.floor(Date.now() / 1000)
  const issuedBefore = await new SignJWT({ client_id: BOOTSTRAP.id, scope: 'zoos:read' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid })
    .setIssuer('https://localhost:8443').setAudience('https://localhost:8443/v1').setSubject(BOOTSTRAP.id)
    .setIssuedAt(now).setExpirationTime(now + 600).setJti('issued-with-the-earlier-version-s-key')
    .sign(privateKey)
  t.same((await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys.map((k: JWK) => k.kid), [kid])
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${issuedBefore}` })).statusCode, 200)
  const issued = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token
  t.equal(decodeProtectedHeader(issued).kid, kid, 'and it signs')
})

t.test('key rotate: the new key signs at once, tokens of the old one stay valid, keys replaced long ago go', async t => {
  const app = await build(t)
  const before = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token
  const oldKid = decodeProtectedHeader(before).kid
  const rotate = async () => {
    let out = ''
    const io = { env: cliEnv(app), stdin: async () => '', stdout: (s: string) => { out += s }, stderr: () => {} }
    const code = await runCli(['key', 'rotate'], io)
    t.equal(code, 0)
    return (JSON.parse(out) as { kid: string }).kid
  }
  const newKid = await rotate()
  t.not(newKid, oldKid)
  const after = (await tokenRequest(app, { grant_type: 'client_credentials' })).json().access_token
  t.equal(decodeProtectedHeader(after).kid, newKid, 'the running service signs with the new key without a restart')
  for (const token of [before, after]) {
    t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${token}` })).statusCode, 200)
  }
  const published = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys.map((k: JWK) => k.kid)
  t.same(published, [newKid, oldKid], 'both published, newest first')
  // A key replaced longer ago than a token lives can go: nothing it signed is valid any more.
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString()
  await query(app, 'UPDATE signing_keys SET created_at = ? WHERE kid = ?', [hoursAgo(2), oldKid])
  await query(app, 'UPDATE signing_keys SET created_at = ? WHERE kid = ?', [hoursAgo(1), newKid])
  const third = await rotate()
  const left = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys.map((k: JWK) => k.kid)
  t.same(left, [third, newKid], 'the key replaced an hour ago is gone')
})

t.test('a client id, user name or token holding U+0000 is unknown, on every engine (PostgreSQL text cannot hold it)', async t => {
  const app = await build(t)
  const answers = [
    await tokenRequest(app, { grant_type: 'client_credentials' }, basic(`${BOOTSTRAP.id}\u0000`, BOOTSTRAP.secret)),
    await tokenRequest(app, { grant_type: 'client_credentials', client_id: 'a\u0000', client_secret: 'x' }, ''),
    await tokenRequest(app, { grant_type: 'password', username: 'a\u0000', password: 'x' }),
    await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'a\u0000' }, '')
  ]
  t.same(answers.map(res => res.statusCode), [401, 401, 401, 401])
  t.same(answers.map(res => res.json().error), ['invalid_client', 'invalid_client', 'invalid_grant', 'invalid_client'])
})
