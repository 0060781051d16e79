import { execFileSync } from 'node:child_process'
import t from 'tap'
import { buildApi } from '../../app.js'
import { testConfig } from '../helper.js'

t.test('a generated bootstrap secret is announced once, as a line a shell takes as it is', async t => {
  const dir = t.testdir()
  const said: string[] = []
  const start = async () => {
    const app = buildApi(testConfig(dir, { BOOTSTRAP_CLIENT_ID: '', BOOTSTRAP_CLIENT_SECRET: '' }), { announce: m => said.push(m) })
    await app.ready()
    return app
  }
  const app = await start()
  const line = said
    .join('\n')
    .split('\n')
    .find(l => l.trim().startsWith('export '))
  t.ok(line, 'an export line')
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
