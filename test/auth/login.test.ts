import { createHash } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { decodeJwt } from 'jose'
import type { MutableResponse, MutableToken } from 'oauth2-mock-server'
import t, { type Test } from 'tap'
import { readScopesOf } from '../../auth/scopes.ts'
import { RESOURCES } from '../../schemas/index.ts'
import { addUser, build, call, query, testConfig, tokenRequest } from '../helper.ts'
import { startProvider } from './oauth-provider.ts'

const CLIENT = { id: 'zoo-api-at-mock', secret: 'mock-client-secret' }
/** What a user gets at the first sign-in when LOGIN_USER_SCOPE is not set: every collection's read scope. */
const READ_SCOPE = readScopesOf(RESOURCES).join(' ')

const provider = await startProvider()
t.teardown(() => provider.stop())
const ISSUER = provider.issuer.url as string

const signInSettings = (extra: Record<string, string> = {}): Record<string, string> => ({
  LOGIN_PROVIDER: 'mock',
  LOGIN_ISSUER: ISSUER,
  LOGIN_CLIENT_ID: CLIENT.id,
  LOGIN_CLIENT_SECRET: CLIENT.secret,
  ...extra
})

interface Started {
  res: LightMyRequestResponse
  location: URL
  /** The Cookie header a browser would send back: the state and PKCE verifier cookies. */
  cookie: string
}

async function start (app: FastifyInstance): Promise<Started> {
  const res = await app.inject({ method: 'GET', url: `${app.config.apiPrefix}/login/mock` })
  return { res, location: new URL(String(res.headers.location)), cookie: res.cookies.map(c => `${c.name}=${c.value}`).join('; ') }
}

/** What the browser does at the provider: its authorize endpoint sends it back with a code (or an error). */
async function authorize (location: URL): Promise<URL> {
  const res = await fetch(location, { redirect: 'manual' })
  if (res.status !== 302) throw new Error(`authorize: ${res.status} ${await res.text()}`)
  return new URL(String(res.headers.get('location')))
}

const callback = (app: FastifyInstance, back: URL, cookie: string): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: cookie === '' ? {} : { cookie } })

/** The whole flow, as a browser goes through it; the callback's answer. */
async function signIn (app: FastifyInstance): Promise<LightMyRequestResponse> {
  const started = await start(app)
  return callback(app, await authorize(started.location), started.cookie)
}

/** The ID tokens the provider issues during this test carry these claims (the mock's own: sub "johndoe", no name). */
function asIdentity (t: Test, claims: Record<string, unknown>): void {
  const listener = (token: MutableToken) => {
    // The ID token is the one whose audience is this API's client id at the provider.
    if (token.payload.aud === CLIENT.id) Object.assign(token.payload, claims)
  }
  provider.service.on('beforeTokenSigning', listener)
  t.teardown(() => {
    provider.service.off('beforeTokenSigning', listener)
  })
}

const users = async (app: FastifyInstance): Promise<Record<string, unknown>[]> =>
  query(app, 'SELECT id, username, password_hash, scope, external_issuer, external_subject FROM users ORDER BY id')

t.test('GET /login/<provider> redirects to the provider with state and a PKCE S256 challenge', async t => {
  const app = await build(t, signInSettings())
  const { res, location } = await start(app)
  t.equal(res.statusCode, 302)
  t.equal(`${location.origin}${location.pathname}`, `${ISSUER}/authorize`)
  const params = Object.fromEntries(location.searchParams)
  t.match(params, {
    response_type: 'code',
    client_id: CLIENT.id,
    redirect_uri: 'https://localhost:8443/login/mock/callback',
    scope: 'openid profile email',
    code_challenge_method: 'S256',
    state: /^[A-Za-z0-9_-]{16,}$/
  })
  const cookies = Object.fromEntries(res.cookies.map(c => [c.name, c]))
  t.match(cookies['__Host-oauth2-redirect-state'], { value: params.state, path: '/', httpOnly: true, secure: true, sameSite: 'Lax' })
  const verifier = cookies['__Host-oauth2-code-verifier']
  t.match(verifier, { path: '/', httpOnly: true, secure: true, sameSite: 'Lax' })
  t.equal(
    params.code_challenge,
    createHash('sha256').update(String(verifier?.value)).digest('base64url'),
    'the challenge is the S256 ' + 'of the verifier'
  )

  const again = await start(app)
  t.not(again.location.searchParams.get('state'), params.state, 'a new state every time')
})

t.test('the callback answers API tokens for a new local user, with the read scope of LOGIN_USER_SCOPE', async t => {
  const app = await build(t, signInSettings())
  const res = await signIn(app)
  t.equal(res.statusCode, 200, res.body)
  t.equal(res.headers['cache-control'], 'no-store')
  t.equal(res.headers.pragma, 'no-cache')
  const body = res.json()
  t.same(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type'])
  t.match(body, { token_type: 'Bearer', expires_in: 900, scope: READ_SCOPE, refresh_token: /^[A-Za-z0-9_-]{20,}$/ })
  const cleared = res.cookies.filter(c => c.name.startsWith('__Host-oauth2-'))
  t.equal(cleared.length, 2, 'the state and verifier cookies are cleared')
  t.ok(cleared.every(c => c.value === '' && c.expires !== undefined && c.expires.getTime() <= Date.now()))

  const [user] = await users(app)
  t.same(user, {
    id: 1,
    username: 'mock-johndoe',
    password_hash: null,
    scope: READ_SCOPE,
    external_issuer: ISSUER,
    external_subject: 'johndoe'
  })
  t.match(decodeJwt(body.access_token), { sub: 'user:1', client_id: 'login-mock', scope: READ_SCOPE })
  t.match(await query(app, "SELECT * FROM oauth_clients WHERE client_id = 'login-mock'"), [{ secret_hash: null }])

  const authorization = `Bearer ${body.access_token}`
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization })).statusCode, 200)
  const write = await call(app, 'POST', '/v1/zoos', { name: 'Zoo', city: 'Rome' }, { authorization })
  t.equal(write.statusCode, 403)
  t.equal(write.headers['www-authenticate'], 'Bearer realm="zoo-api", error="insufficient_scope", scope="zoos:write"')
})

t.test('a second sign-in of the same identity is the same local user', async t => {
  const app = await build(t, signInSettings())
  const first = await signIn(app)
  const second = await signIn(app)
  t.equal(second.statusCode, 200)
  t.equal(decodeJwt(second.json().access_token).sub, decodeJwt(first.json().access_token).sub)
  t.not(second.json().refresh_token, first.json().refresh_token)
  t.equal((await users(app)).length, 1)
})

t.test('a new identity gets a user named after it, never an existing one', async t => {
  const app = await build(t, signInSettings())
  const local = await addUser(app, 'alice', 'alice-password', 'zoos:read zoos:write')

  const named = async (claims: Record<string, unknown>): Promise<string> => {
    const st = t.test(`as ${JSON.stringify(claims)}`, async t => {
      asIdentity(t, claims)
      const res = await signIn(app)
      t.equal(res.statusCode, 200, res.body)
      t.not(decodeJwt(res.json().access_token).sub, `user:${local.id}`)
    })
    await st
    return String((await users(app)).at(-1)?.username)
  }
  t.equal(await named({ sub: 'a1', preferred_username: 'alice' }), 'alice-2', 'a local user has the name already')
  t.equal(
    await named({ sub: 'a2', preferred_username: 'ALICE', email: 'alice@example.com' }),
    'ALICE-3',
    'names are unique regardless ' + 'of case'
  )
  t.equal(await named({ sub: 'b1', email: 'bob@example.com' }), 'bob@example.com', 'the email when there is no preferred_username')
  t.equal(await named({ sub: 'c1', preferred_username: 'Zoë Keeper' }), 'Zo--Keeper', 'other characters become -')
  t.equal((await users(app)).length, 5)
  t.match((await users(app))[1], { external_subject: 'a1', password_hash: null, external_issuer: ISSUER })
})

t.test('the refresh token works for the public client login-<provider>, without a secret', async t => {
  const app = await build(t, signInSettings({ LOGIN_USER_SCOPE: 'zoos:read zoos:write' }))
  const signedIn = (await signIn(app)).json()
  t.equal(signedIn.scope, 'zoos:read zoos:write')
  const refresh = { grant_type: 'refresh_token', client_id: 'login-mock', refresh_token: signedIn.refresh_token }
  const refreshed = await tokenRequest(app, refresh, '')
  t.equal(refreshed.statusCode, 200, refreshed.body)
  t.match(refreshed.json(), { token_type: 'Bearer', scope: 'zoos:read zoos:write', refresh_token: String })
  t.match(decodeJwt(refreshed.json().access_token), { sub: decodeJwt(signedIn.access_token).sub, client_id: 'login-mock' })
  const created = await call(
    app,
    'POST',
    '/v1/zoos',
    { name: 'Zoo', city: 'Rome' },
    { authorization: `Bearer ${refreshed.json().access_token}` }
  )
  t.equal(created.statusCode, 201)

  const reused = await tokenRequest(app, refresh, '')
  t.equal(reused.statusCode, 401, 'a rotated refresh token is spent')
  t.equal(reused.json().error, 'invalid_grant')
})

t.test('a forged, missing or replayed state is refused', async t => {
  const app = await build(t, signInSettings())
  const started = await start(app)
  const back = await authorize(started.location)

  const forged = new URL(back)
  forged.searchParams.set('state', 'forged-state-0123456789')
  const res = await callback(app, forged, started.cookie)
  t.equal(res.statusCode, 403)
  t.match(res.json(), { error: /^The sign-in state does not match the one this browser was given: start again at \/login\/mock$/ })

  t.equal((await callback(app, back, '')).statusCode, 403, 'without the cookies the state matches nothing')
  const otherBrowser = await start(app)
  t.equal((await callback(app, back, otherBrowser.cookie)).statusCode, 403, "another browser's cookies")

  const withoutState = new URL(back)
  withoutState.searchParams.delete('state')
  const missing = await callback(app, withoutState, started.cookie)
  t.equal(missing.statusCode, 400)
  t.match(missing.json(), { error: /needs code and state/ })
  const withoutCode = new URL(back)
  withoutCode.searchParams.delete('code')
  t.equal((await callback(app, withoutCode, started.cookie)).statusCode, 400)

  t.equal((await callback(app, back, started.cookie)).statusCode, 200, 'the genuine callback still works')
  const replayed = await callback(app, back, started.cookie)
  t.equal(replayed.statusCode, 403, 'the provider takes a code once')
  t.match(replayed.json(), { error: /^mock refused the authorization code \(invalid_request\)/ })
  t.equal((await users(app)).length, 1)
})

t.test('a provider that refuses the sign-in is answered 403', async t => {
  const app = await build(t, signInSettings())
  const started = await start(app)
  provider.service.once('beforeAuthorizeRedirect', ({ url }: { url: URL }) => {
    url.searchParams.delete('code')
    url.searchParams.set('error', 'access_denied')
    url.searchParams.set('error_description', 'The user said no')
  })
  const res = await callback(app, await authorize(started.location), started.cookie)
  t.equal(res.statusCode, 403)
  t.same(res.json(), { error: 'mock refused the sign-in (access_denied: The user said no): start again at /login/mock' })
  const bare = await callback(app, new URL('https://localhost:8443/login/mock/callback?error=server_error'), started.cookie)
  t.match(bare.json(), { error: 'mock refused the sign-in (server_error): start again at /login/mock' })
  t.same(await users(app), [])
})

t.test('a token endpoint that refuses the code answers 403; one that fails, 502', async t => {
  const app = await build(t, signInSettings())
  provider.service.once('beforeResponse', (response: MutableResponse) => {
    response.statusCode = 400
    response.body = { error: 'invalid_grant' }
  })
  const refused = await signIn(app)
  t.equal(refused.statusCode, 403)
  t.match(refused.json(), { error: /^mock refused the authorization code \(invalid_grant\): start again/ })

  provider.service.once('beforeResponse', (response: MutableResponse) => {
    response.statusCode = 401
    response.body = ''
  })
  t.match((await signIn(app)).json(), { error: /^mock refused the authorization code: start again/ }, 'without an error code')

  provider.service.once('beforeResponse', (response: MutableResponse) => {
    response.statusCode = 503
    response.body = { error: 'temporarily_unavailable' }
  })
  const failed = await signIn(app)
  t.equal(failed.statusCode, 502)
  t.same(failed.json(), { error: 'mock could not be reached to finish the sign-in' })
  t.same(await users(app), [])
})

t.test('a provider that goes away before the callback: 502', async t => {
  const shortLived = await startProvider()
  const app = await build(t, signInSettings({ LOGIN_ISSUER: shortLived.issuer.url as string }))
  const started = await start(app)
  const back = await authorize(started.location)
  await shortLived.stop()
  const res = await callback(app, back, started.cookie)
  t.equal(res.statusCode, 502)
  t.same(res.json(), { error: 'mock could not be reached to finish the sign-in' })
})

t.test('an ID token that is missing or does not verify is refused with 502, and no user is made', async t => {
  const app = await build(t, signInSettings())
  provider.service.once('beforeResponse', (response: MutableResponse) => {
    if (typeof response.body === 'object') delete response.body.id_token
  })
  const missing = await signIn(app)
  t.equal(missing.statusCode, 502)
  t.same(missing.json(), { error: 'mock sent no ID token: it must be an OpenID Connect provider' })

  const cases: [string, Record<string, unknown>][] = [
    ['for another client', { aud: 'another-client' }],
    ['of another issuer', { iss: 'http://127.0.0.1:1' }],
    ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }],
    ['without a subject', { sub: undefined }]
  ]
  for (const [why, claims] of cases) {
    await t.test(why, async t => {
      asIdentity(t, claims)
      const res = await signIn(app)
      t.equal(res.statusCode, 502)
      t.same(res.json(), { error: 'mock sent an ID token that does not verify' })
    })
  }
  t.same(await users(app), [])
})

t.test('under API_PREFIX the callback URL and the routes carry the prefix', async t => {
  const app = await build(t, signInSettings({ API_PREFIX: '/api' }))
  const { location } = await start(app)
  t.equal(location.searchParams.get('redirect_uri'), 'https://localhost:8443/api/login/mock/callback')
  const res = await signIn(app)
  t.equal(res.statusCode, 200, res.body)
  t.equal((await app.inject({ method: 'GET', url: '/login/mock' })).statusCode, 404)
})

t.test('with a provider, /login and / opened in a browser link to the sign-in; programs get what they got before', async t => {
  const app = await build(t, signInSettings())
  const navigation = { accept: 'text/html,*/*;q=0.8', 'sec-fetch-dest': 'document', host: 'zoo.test' }
  for (const url of ['/login', '/']) {
    const page = await app.inject({ method: 'GET', url, headers: navigation })
    t.equal(page.statusCode, 200, url)
    t.match(page.headers['content-type'], /^text\/html/)
    t.match(page.body, '<a href="http://zoo.test/login/mock">Sign in with mock</a>', `${url}: the sign-in link`)
  }
  t.match((await app.inject({ method: 'GET', url: '/login', headers: navigation })).body, 'Sign in with your mock account')
  const program = await app.inject({ method: 'GET', url: '/login' })
  t.same([program.statusCode, program.json()], [404, { error: 'Nothing at /login' }])
})

t.test('without LOGIN_PROVIDER there is no sign-in route', async t => {
  const app = await build(t)
  t.equal((await app.inject({ method: 'GET', url: '/login/mock' })).statusCode, 404)
  t.equal((await app.inject({ method: 'GET', url: '/login/mock/callback?code=x&state=y' })).statusCode, 404)
})

t.test('a provider that cannot be discovered stops start-up, naming LOGIN_ISSUER', async t => {
  const { port } = provider.address()
  await t.rejects(
    build(t, signInSettings({ LOGIN_ISSUER: `http://localhost:${port}` })),
    {
      message: `LOGIN_ISSUER: http://localhost:${port}/.well-known/openid-configuration is not the OpenID provider metadata ` +
        `of http://localhost:${port}: it must name that issuer and give authorization_endpoint, token_endpoint and jwks_uri`
    },
    'metadata naming another issuer'
  )
  await t.rejects(build(t, signInSettings({ LOGIN_ISSUER: `${ISSUER}/realms/none` })), {
    message: 'LOGIN_ISSUER: the provider\'s metadata cannot be read from ' +
      `${ISSUER}/realms/none/.well-known/openid-configuration (HTTP status 404)`
  })
  const gone = await startProvider()
  const goneIssuer = gone.issuer.url as string
  await gone.stop()
  await t.rejects(build(t, signInSettings({ LOGIN_ISSUER: goneIssuer })), {
    message: /^LOGIN_ISSUER: the provider's metadata cannot be read from /
  })
})

t.test('LOGIN_USER_SCOPE names scopes of the collections served, checked at start-up; by default every read scope', async t => {
  await t.rejects(build(t, signInSettings({ LOGIN_USER_SCOPE: 'zoos:read giraffes:read' })), {
    name: 'ConfigError',
    message: /^LOGIN_USER_SCOPE: unknown scope giraffes:read; known: zoos:read zoos:write /
  })
  const app = await build(t, signInSettings())
  t.equal(app.config.loginUserScope, undefined, 'not set')
})

t.test('the sign-in settings are checked when the configuration is read', async t => {
  const dir = t.testdir()
  t.throws(() => testConfig(dir, signInSettings({ LOGIN_PROVIDER: 'My Provider' })), {
    message: /^LOGIN_PROVIDER must be 1 to 40 lower-case letters/
  })
  t.throws(() => testConfig(dir, signInSettings({ LOGIN_ISSUER: 'http://id.example.com' })), {
    message: /^LOGIN_ISSUER must be an absolute https URL \(http only on loopback\)/
  })
  t.throws(() => testConfig(dir, signInSettings({ LOGIN_ISSUER: 'not a url' })), { message: /^LOGIN_ISSUER must be an absolute https URL/ })
  t.throws(() => testConfig(dir, signInSettings({ LOGIN_USER_SCOPE: 'zoos:read admin' })), {
    message: 'LOGIN_USER_SCOPE: admin is not <collection>:read or <collection>:write'
  })
  t.throws(() => testConfig(dir, signInSettings({ LOGIN_USER_SCOPE: ' ' })), { message: 'LOGIN_USER_SCOPE must name at least one scope' })
  t.throws(() => testConfig(dir, { LOGIN_PROVIDER: 'mock', LOGIN_ISSUER: ISSUER }), {
    message: /go together: LOGIN_CLIENT_ID, LOGIN_CLIENT_SECRET missing/
  })
  t.match(
    testConfig(
      dir,
      signInSettings({
        LOGIN_ISSUER: 'https://tenant.example.com/',
        LOGIN_USER_SCOPE: 'zoos:write  zoos:read ' + 'zoos:write'
      })
    ),
    {
      loginIssuer: 'https://tenant.example.com/',
      loginUserScope: 'zoos:write zoos:read'
    }
  )
})
