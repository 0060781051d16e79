import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { addUser, basic, build, call, cli, tokenRequest } from '../helper.ts'

/** A client made with the CLI, and a token it got; the token has been used once, so the service has verified it. */
async function clientWithToken (app: FastifyInstance, scope = 'zoos:read zoos:write') {
  const { client_id: id, client_secret: secret } = (await cli(app, ['client', 'create', '--scope', scope])).json()
  const token = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(id, secret))
  const authorization = `Bearer ${token.json().access_token as string}`
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization })).statusCode, 200)
  return { id, secret, authorization }
}

const zoo = { name: 'Ghost Zoo', city: 'Nowhere' }

t.test('a deleted client\'s access token is refused at once: no record written, no job queued', async t => {
  const app = await build(t)
  const { id, authorization } = await clientWithToken(app)
  t.equal((await cli(app, ['client', 'delete', id])).code, 0)

  for (const headers of [{ authorization }, { authorization, prefer: 'respond-async' }] as Array<Record<string, string>>) {
    const res = await call(app, 'POST', '/v1/zoos', zoo, headers)
    t.equal(res.statusCode, 401)
    t.match(res.json().error, /client .*no longer exists/)
  }
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization })).statusCode, 401)
  t.same((await call(app, 'GET', '/v1/zoos?name=Ghost%20Zoo')).json(), [], 'nothing was written')
})

t.test('a client deleted and made again under the same id does not bring its old tokens back', async t => {
  const app = await build(t)
  const { authorization } = await clientWithToken(app)
  const id = 'reborn'
  const first = (await cli(app, ['client', 'create', '--scope', 'zoos:read', '--id', id, '--secret', 'first-secret-0123456789']))
    .json()
  const issued = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(id, first.client_secret))
  const old = `Bearer ${issued.json().access_token as string}`
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization: old })).statusCode, 200)
  await cli(app, ['client', 'delete', id])
  // A token issued in the second the client is made again would pass: wait for the next one.
  await new Promise(resolve => setTimeout(resolve, 1000 - Date.now() % 1000 + 10))
  await cli(app, ['client', 'create', '--scope', 'zoos:read', '--id', id, '--secret', 'second-secret-0123456789'])
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization: old })).statusCode, 401)
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization })).statusCode, 200, 'other clients\' tokens stand')
})

t.test('a deleted user\'s access and refresh tokens are refused', async t => {
  const app = await build(t)
  await addUser(app, 'leaver', 'correct horse battery', 'zoos:read')
  const tokens = (await tokenRequest(app, { grant_type: 'password', username: 'leaver', password: 'correct horse battery' })).json()
  const authorization = `Bearer ${tokens.access_token as string}`
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization })).statusCode, 200)
  t.equal((await cli(app, ['user', 'delete', 'leaver'])).code, 0)

  const res = await call(app, 'GET', '/v1/zoos', undefined, { authorization })
  t.equal(res.statusCode, 401)
  t.match(res.json().error, /user .*no longer exists/)
  const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
  t.equal(refresh.statusCode, 401)
  t.equal(refresh.json().error, 'invalid_grant')
})

t.test('client rotate-secret: a new secret works, the old one and every token issued before it do not', async t => {
  const app = await build(t)
  const { id, secret, authorization } = await clientWithToken(app, 'zoos:read')
  await addUser(app, 'ada', 'correct horse battery', 'zoos:read')
  const refreshToken = (await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'correct horse battery' },
    basic(id, secret))).json().refresh_token

  const rotated = await cli(app, ['client', 'rotate-secret', id])
  t.equal(rotated.code, 0)
  const { client_id: sameId, client_secret: newSecret } = rotated.json()
  t.equal(sameId, id)
  t.match(newSecret, /^[A-Za-z0-9_-]{43}$/)
  t.not(newSecret, secret)

  t.equal((await tokenRequest(app, { grant_type: 'client_credentials' }, basic(id, secret))).statusCode, 401, 'the old secret is refused')
  const res = await call(app, 'GET', '/v1/zoos', undefined, { authorization })
  t.equal(res.statusCode, 401, 'a token issued before the rotation is refused')
  t.match(res.json().error, /credentials .*changed/)
  t.equal((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refreshToken }, basic(id, newSecret))).statusCode, 401,
    'refresh tokens issued before the rotation are revoked')

  const fresh = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(id, newSecret))
  t.equal(fresh.statusCode, 200)
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${fresh.json().access_token}` })).statusCode, 200)

  const chosen = await cli(app, ['client', 'rotate-secret', id, '--secret', 'a-chosen-secret-0123456789'])
  t.same(chosen.json(), { client_id: id, client_secret: 'a-chosen-secret-0123456789' })
  t.equal((await tokenRequest(app, { grant_type: 'client_credentials' }, basic(id, 'a-chosen-secret-0123456789'))).statusCode, 200)
})

t.test('client scope: the new scope is granted from now on, and tokens of the old one are refused', async t => {
  const app = await build(t)
  const { id, secret, authorization } = await clientWithToken(app, 'zoos:read zoos:write')
  const changed = await cli(app, ['client', 'scope', id, '--scope', 'zoos:read'])
  t.same(changed.json(), { client_id: id, scope: 'zoos:read' })

  t.equal((await call(app, 'POST', '/v1/zoos', zoo, { authorization })).statusCode, 401, 'the old token is refused')
  const fresh = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(id, secret))
  t.equal(fresh.json().scope, 'zoos:read')
  const denied = await call(app, 'POST', '/v1/zoos', zoo, { authorization: `Bearer ${fresh.json().access_token}` })
  t.equal(denied.statusCode, 403)
  t.equal((await tokenRequest(app, { grant_type: 'client_credentials', scope: 'zoos:write' }, basic(id, secret))).statusCode, 400)
})

t.test('rotate-secret and scope refuse what they cannot do, and change nothing', async t => {
  const app = await build(t)
  const { id, secret, authorization } = await clientWithToken(app, 'zoos:read')
  const cases: Array<[string[], RegExp, number]> = [
    [['client', 'rotate-secret', 'nobody'], /no client with id nobody/, 1],
    [['client', 'scope', 'nobody', '--scope', 'zoos:read'], /no client with id nobody/, 1],
    [['client', 'scope', id, '--scope', 'zoos:fly'], /unknown scope/, 1],
    [['client', 'scope', id], /needs --scope/, 2],
    [['client', 'rotate-secret'], /needs the client id/, 2]
  ]
  for (const [argv, message, code] of cases) {
    const run = await cli(app, argv)
    t.equal(run.code, code, argv.join(' '))
    t.match(JSON.parse(run.err.split('\n')[0] as string).error, message)
  }
  t.equal((await call(app, 'GET', '/v1/zoos', undefined, { authorization })).statusCode, 200, 'the token still stands')
  t.equal((await tokenRequest(app, { grant_type: 'client_credentials' }, basic(id, secret))).statusCode, 200, 'the secret still works')
})
