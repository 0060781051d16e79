import { execFileSync } from 'node:child_process'
import t from 'tap'
import { buildApi } from '../../app.ts'
import { testConfig } from '../helper.ts'

t.test('a generated bootstrap secret is announced once, as a line a shell takes as it is', async t => {
  const dir = t.testdir()
  const said: string[] = []
  const start = async () => {
    const app = buildApi(testConfig(dir, { BOOTSTRAP_CLIENT_ID: '', BOOTSTRAP_CLIENT_SECRET: '' }), { announce: m => said.push(m) })
    await app.ready()
    return app
  }
  const app = await start()
  t.equal(said.length, 1, 'one announcement')
  t.match(said[0], /shown only now; paste this line/, 'it says the secret will not be shown again')
  const line = said[0]?.split('\n').find(l => l.startsWith('export '))
  // Generated ids and secrets are base64url: nothing in them a shell would change, so no quotes.
  t.match(line, /^export CLIENT_ID=client_[A-Za-z0-9_-]+ CLIENT_SECRET=[A-Za-z0-9_-]{43}$/, 'exactly one line to paste')
  // What the shell makes of it is what the token endpoint must accept.
  const [id, secret] = execFileSync('sh', ['-c', `${line as string}; printf '%s\\n%s' "$CLIENT_ID" "$CLIENT_SECRET"`])
    .toString()
    .split('\n')
  const token = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded'
    },
    payload: 'grant_type=client_credentials'
  })
  t.equal(token.statusCode, 200, 'the pasted credentials get a token')
  await app.close()
  said.length = 0
  await (await start()).close()
  t.same(said, [], 'nothing on the next start')
})

t.test('a configured client id a shell would change is quoted in the export line', async t => {
  const said: string[] = []
  const config = testConfig(t.testdir(), { BOOTSTRAP_CLIENT_ID: '~zoo', BOOTSTRAP_CLIENT_SECRET: '' })
  const app = buildApi(config, { announce: m => said.push(m) })
  await app.ready()
  t.teardown(() => app.close())
  const line = said.join('\n').split('\n').find(l => l.startsWith('export ')) ?? ''
  t.match(line, /^export CLIENT_ID='~zoo' CLIENT_SECRET=[A-Za-z0-9_-]{43}$/)
  t.equal(execFileSync('sh', ['-c', `${line}; printf '%s' "$CLIENT_ID"`]).toString(), '~zoo', 'not expanded to a home directory')
})
