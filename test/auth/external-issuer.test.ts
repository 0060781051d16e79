import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { generateKeyPair, SignJWT } from 'jose'
import type { Payload } from 'oauth2-mock-server'
import t, { type Test } from 'tap'
import { build, call, testConfig } from '../helper.ts'
import { startProvider } from './oauth-provider.ts'

const AUDIENCE = 'https://zoo.example.test/v1'

const issuer = await startProvider()
t.teardown(() => issuer.stop())
const ISSUER = issuer.issuer.url as string

const externalMode = (server = issuer): Record<string, string> => {
  const url = server.issuer.url as string
  return { OAUTH_ISSUER: url, OAUTH_JWKS_URI: `${url.replace(/\/$/, '')}/jwks`, OAUTH_AUDIENCE: AUDIENCE }
}

/** A token as the issuer's token endpoint would issue it for a client `reporting`, with these claims on top. */
const externalToken = (claims: Record<string, unknown> = {}, server = issuer, expiresIn = 300): Promise<string> =>
  server.issuer.buildToken({
    expiresIn,
    scopesOrTransform: (_header, payload: Payload) => {
      Object.assign(payload, { sub: 'svc-reporting', aud: AUDIENCE, client_id: 'reporting', scope: 'zoos:read', ...claims })
    }
  })

const get = (app: FastifyInstance, token: string, url = '/v1/zoos'): Promise<LightMyRequestResponse> =>
  call(app, 'GET', url, undefined, { authorization: `Bearer ${token}` })

function assertRefused (t: Test, res: LightMyRequestResponse, description: string): void {
  t.equal(res.statusCode, 401, description)
  t.equal(res.headers['www-authenticate'], `Bearer realm="zoo-api", error="invalid_token", error_description="${description}"`)
  t.match(res.json(), {
    error: `Invalid access token: ${description}`,
    message: 'Requires authentication',
    documentation_url: String
  })
}

t.test('a token of the external issuer is accepted on /v1 with the scopes it carries', async t => {
  const app = await build(t, externalMode())
  const token = await externalToken({ scope: 'zoos:read animals:read' })
  t.equal((await get(app, token)).statusCode, 200)
  t.equal((await get(app, token, '/v1/animals')).statusCode, 200)
  const other = await get(app, token, '/v1/employees')
  t.equal(other.statusCode, 403)
  t.equal(other.headers['www-authenticate'], 'Bearer realm="zoo-api", error="insufficient_scope", scope="employees:read"')
  const write = await call(app, 'POST', '/v1/zoos', { name: 'Zoo', city: 'Rome' }, { authorization: `Bearer ${token}` })
  t.equal(write.statusCode, 403)
  t.equal(write.headers['www-authenticate'], 'Bearer realm="zoo-api", error="insufficient_scope", scope="zoos:write"')
  t.match(write.json(), { error: 'The access token lacks the scope zoos:write', message: 'Requires the scope zoos:write' })

  t.equal((await call(app, 'GET', '/v1/zoos')).statusCode, 200, "the API's own tokens are still accepted")
})

t.test('scopes may come as scp: an array (Okta) or a space-separated string (Entra ID)', async t => {
  const app = await build(t, externalMode())
  for (const scp of [['zoos:read', 'zoos:write'], 'zoos:read zoos:write']) {
    const token = await externalToken({ scope: undefined, scp })
    const created = await call(app, 'POST', '/v1/zoos', { name: 'Zoo', city: 'Rome' }, { authorization: `Bearer ${token}` })
    t.equal(created.statusCode, 201, JSON.stringify(scp))
  }
  const none = await externalToken({ scope: undefined })
  t.equal((await get(app, none)).statusCode, 403, 'a token without scopes may do nothing')
})

t.test('each way an external token fails answers 401 invalid_token', async t => {
  const app = await build(t, externalMode())
  const now = Math.floor(Date.now() / 1000)
  const other = await startProvider()
  t.teardown(() => other.stop())
  const [known] = issuer.issuer.keys.toJSON()
  const { privateKey } = await generateKeyPair('RS256')
  const forged = (kid: string, alg = 'RS256', key: Parameters<SignJWT['sign']>[0] = privateKey) =>
    new SignJWT({ scope: 'zoos:read' })
      .setProtectedHeader({ alg, kid })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('svc-reporting')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key)

  const cases: [string, Promise<string>, string][] = [
    ['for another audience', externalToken({ aud: 'https://elsewhere.example.test' }), 'the access token has a wrong or missing aud claim'],
    ['without an audience', externalToken({ aud: undefined }), 'the access token has a wrong or missing aud claim'],
    ['expired', externalToken({ exp: now - 60 }), 'the access token expired'],
    ['not valid yet', externalToken({ nbf: now + 600 }), 'the access token is not valid yet'],
    ['without a subject', externalToken({ sub: undefined }), 'the access token has a wrong or missing sub claim'],
    ['of another issuer', externalToken({}, other), 'the access token comes from an issuer this API does not accept'],
    ['signed by a key the JWKS does not have', forged('rogue-key'), 'the access token is signed with an unknown key'],
    ['signed by another key under a known key id', forged(String(known?.kid)), 'the access token signature is invalid'],
    [
      'signed with HMAC (HS256)',
      forged(String(known?.kid), 'HS256', new TextEncoder().encode('a-guessable-shared-secret-0123456789')),
      'the access token is signed with an algorithm this API does not accept'
    ]
  ]
  for (const [why, token, description] of cases) {
    await t.test(why, async t => {
      assertRefused(t, await get(app, await token), description)
    })
  }
})

t.test('with the external mode off, a token of that issuer is refused', async t => {
  const app = await build(t)
  assertRefused(t, await get(app, await externalToken()), 'the access token comes from an issuer this API does not accept')
})

t.test("an issuer whose identifier ends with a slash (as Auth0's does) is matched exactly", async t => {
  const slashed = await startProvider({ trailingSlash: true })
  t.teardown(() => slashed.stop())
  t.match(slashed.issuer.url, /\/$/)
  const app = await build(t, externalMode(slashed))
  t.equal((await get(app, await externalToken({}, slashed))).statusCode, 200)
})

t.test('the keys are fetched once and cached', async t => {
  const shortLived = await startProvider()
  const app = await build(t, externalMode(shortLived))
  const first = await externalToken({}, shortLived)
  const second = await externalToken({ sub: 'svc-other' }, shortLived)
  t.equal((await get(app, first)).statusCode, 200)
  await shortLived.stop()
  t.equal((await get(app, second)).statusCode, 200, 'verified with the cached keys while the issuer is down')
})

t.test('a verified token is not trusted from the cache past its expiry', async t => {
  const app = await build(t, externalMode())
  const token = await externalToken({}, issuer, 2)
  t.equal((await get(app, token)).statusCode, 200)
  t.equal((await get(app, token)).statusCode, 200, 'from the cache')
  const { exp } = JSON.parse(Buffer.from(String(token.split('.')[1]), 'base64url').toString())
  await sleep(exp * 1000 - Date.now() + 50)
  assertRefused(t, await get(app, token), 'the access token expired')
})

t.test('keys that cannot be fetched or read answer 503, not 401', async t => {
  const gone = await startProvider()
  const goneUrl = gone.issuer.url as string
  await gone.stop()
  const unreachable = { ...externalMode(), OAUTH_JWKS_URI: `${goneUrl}/jwks` }
  const notFound = { ...externalMode(), OAUTH_JWKS_URI: `${ISSUER}/no-keys-here` }
  const notKeys = { ...externalMode(), OAUTH_JWKS_URI: `${ISSUER}/.well-known/openid-configuration` }
  for (const [why, settings] of [
    ['unreachable', unreachable],
    ['404', notFound],
    ['not a key set', notKeys]
  ] as const) {
    await t.test(why, async t => {
      const app = await build(t, settings)
      const res = await get(app, await externalToken())
      t.equal(res.statusCode, 503)
      t.same(res.json(), { error: 'The access token cannot be checked now: the keys of its issuer are unavailable' })
    })
  }
})

t.test('the external issuer settings are checked when the configuration is read', async t => {
  const dir = t.testdir()
  t.throws(() => testConfig(dir, { OAUTH_ISSUER: ISSUER }), { message: /go together: OAUTH_JWKS_URI, OAUTH_AUDIENCE missing/ })
  t.throws(() => testConfig(dir, { ...externalMode(), OAUTH_ISSUER: 'http://id.example.com' }), {
    message: /^OAUTH_ISSUER must be an absolute https URL \(http only on loopback\)/
  })
  // A `#` would make `<issuer>#<sub>`, the subject of its tokens, ambiguous; an issuer has no fragment (RFC 8414 §2).
  for (const fragment of ['https://id.example.com/#', 'https://id.example.com/#realm']) {
    t.throws(() => testConfig(dir, { ...externalMode(), OAUTH_ISSUER: fragment }), {
      message: /^OAUTH_ISSUER must be an absolute https URL \(http only on loopback\) without query or fragment/
    }, fragment)
  }
  t.throws(() => testConfig(dir, { ...externalMode(), OAUTH_JWKS_URI: 'https://id.example.com/keys?x=1' }), {
    message: /^OAUTH_JWKS_URI must be an absolute https URL/
  })
  t.match(
    testConfig(dir, {
      OAUTH_ISSUER: 'https://tenant.example.com/',
      OAUTH_JWKS_URI: 'https://tenant.example.com/.well-known/jwks.json',
      OAUTH_AUDIENCE: AUDIENCE
    }),
    {
      oauthIssuer: 'https://tenant.example.com/'
    }
  )
})
