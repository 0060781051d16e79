import t from 'tap'
import { runCli } from '../../cli/index.ts'
import { basic, build, call, cli, tokenRequest } from '../helper.ts'

t.test('client create prints JSON credentials that work at the token endpoint', async t => {
  const app = await build(t)
  const created = await cli(app, ['client', 'create', '--scope', 'zoos:read animals:read', '--name', 'reporting'])
  t.equal(created.code, 0)
  const { client_id: id, client_secret: secret, scope } = created.json()
  t.match(id, /^client_[A-Za-z0-9_-]{16}$/)
  t.match(secret, /^[A-Za-z0-9_-]{43}$/)
  t.equal(scope, 'zoos:read animals:read')
  const token = await tokenRequest(app, { grant_type: 'client_credentials' }, basic(id, secret))
  t.equal(token.statusCode, 200)
  t.equal(token.json().scope, 'zoos:read animals:read')
  const zoos = await call(app, 'GET', '/v1/zoos', undefined, { authorization: `Bearer ${token.json().access_token}` })
  t.equal(zoos.statusCode, 200)

  const chosen = await cli(app, ['client', 'create', '--scope', 'zoos:write', '--id', 'ci-bot', '--secret', 'a-long-enough-secret-1'])
  t.same(chosen.json(), { client_id: 'ci-bot', client_secret: 'a-long-enough-secret-1', scope: 'zoos:write' })

  const list = await cli(app, ['client', 'list'])
  t.same(
    list
      .json()
      .map((c: { client_id: string }) => c.client_id)
      .sort(),
    ['ci-bot', id, 'test-bootstrap'].sort()
  )
  t.notMatch(list.out, /secret/, 'no secret or hash is listed')
  t.match(
    list.json().find((c: { client_id: string }) => c.client_id === id),
    { name: 'reporting', scope: 'zoos:read animals:read', public: false }
  )

  t.same((await cli(app, ['client', 'delete', 'ci-bot'])).json(), { deleted: 'ci-bot' })
  const gone = await tokenRequest(app, { grant_type: 'client_credentials' }, basic('ci-bot', 'a-long-enough-secret-1'))
  t.equal(gone.statusCode, 401)
})

t.test('user create, list and delete; the password grant accepts the user', async t => {
  const app = await build(t)
  const created = await cli(
    app,
    ['user', 'create', '--username', 'ada', '--scope', 'zoos:read zoos:write', '--password-stdin'],
    'correct horse battery\n'
  )
  t.equal(created.code, 0)
  t.same(created.json(), { id: 1, username: 'ada', scope: 'zoos:read zoos:write' })
  const grant = await tokenRequest(app, { grant_type: 'password', username: 'ada', password: 'correct horse battery' })
  t.equal(grant.statusCode, 200)
  t.equal(grant.json().scope, 'zoos:read zoos:write')

  const flag = await cli(app, ['user', 'create', '--username', 'bo', '--scope', 'animals:read', '--password', 'another password'])
  t.equal(flag.code, 0)
  const list = await cli(app, ['user', 'list'])
  t.same(
    list.json().map((u: { username: string }) => u.username),
    ['ada', 'bo']
  )
  t.notMatch(list.out, /password|scrypt/)
  t.same((await cli(app, ['user', 'delete', 'bo'])).json(), { deleted: 'bo' })
  t.same(
    (await cli(app, ['user', 'list'])).json().map((u: { username: string }) => u.username),
    ['ada']
  )
})

t.test('bad input gets a clear error and changes nothing', async t => {
  const app = await build(t)
  const cases: [string[], number, RegExp][] = [
    [['client', 'create'], 2, /client create needs --scope/],
    [['client', 'create', '--scope', 'zoos:admin'], 1, /unknown scope zoos:admin; known: zoos:read zoos:write/],
    [['client', 'create', '--scope', 'zoos:read', '--id', 'test-bootstrap'], 1, /a client with id test-bootstrap exists already/],
    [['client', 'create', '--scope', 'zoos:read', '--id', 'tab\there'], 1, /client id must be 1 to 200 printable characters/],
    [['client', 'create', '--scope', 'zoos:read', '--id', ''], 1, /client id must be 1 to 200 printable characters/],
    [['client', 'delete'], 2, /client delete needs the client id/],
    [['client', 'delete', 'nobody'], 1, /no client with id nobody/],
    [['user', 'create', '--username', 'x', '--scope', 'zoos:read'], 2, /needs --password or --password-stdin/],
    [['user', 'create', '--username', 'x', '--scope', 'zoos:read', '--password', 'short'], 1, /at least 8 characters/],
    [['user', 'create', '--username', 'bad name', '--scope', 'zoos:read', '--password', 'long enough'], 1, /user name must be/],
    [['user', 'delete', 'nobody'], 1, /no user named nobody/],
    [['zoo', 'feed'], 2, /unknown command "zoo feed"/],
    [['client'], 2, /expected a command/],
    [['client', 'list', '--colour', 'red'], 2, /Unknown option '--colour'/]
  ]
  for (const [argv, code, message] of cases) {
    const res = await cli(app, argv)
    t.equal(res.code, code, argv.join(' '))
    t.equal(res.out, '', argv.join(' '))
    t.match(JSON.parse(res.err.split('\n')[0] ?? ''), { error: message }, argv.join(' '))
  }
  t.same(
    (await cli(app, ['client', 'list'])).json().map((c: { client_id: string }) => c.client_id),
    ['test-bootstrap']
  )
  const help = await cli(app, ['--help'])
  t.equal(help.code, 0)
  t.match(help.out, /client create --scope/)
})

t.test('a bad data directory setting is a usage error', async t => {
  const res = await runCli(['client', 'list', '--data-dir', ' '], { env: {}, stdin: async () => '', stdout: () => {}, stderr: () => {} })
  t.equal(res, 2)
})
