import { chmodSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { buildLocal, lineOf, makeTree, send, spawnTs } from './helper.ts'

const NOBODY = { uid: 65534, gid: 65534 }
const DENIED = { error: 'Access denied - permission denied' }

/**
 * Permissions do not bind root, which runs these tests here: the server under test then runs as
 * the unprivileged user `nobody` in a child process, which root starts and which gives up root
 * once loaded, since `nobody` may not enter the checkout (a clone in /root, or in a folder of mode
 * 700). Any other user tests in-process.
 */
async function serverFor (t: Test, allowed: string): Promise<(path: string) => Promise<{ status: number; body: unknown }>> {
  if (process.getuid?.() !== 0) {
    const app: FastifyInstance = await buildLocal(t, { ALLOWED_DIRS: allowed })
    return async path => {
      const res = await app.inject({
        method: 'POST',
        url: '/list_directory',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ path })
      })
      return { status: res.statusCode, body: res.json() }
    }
  }
  const asNobody = [String(NOBODY.uid), String(NOBODY.gid)]
  const child = spawnTs('test/local/fixtures/serve.ts', { ALLOWED_DIRS: allowed }, asNobody, { bookkeeping: false })
  t.teardown(() => {
    child.kill()
  })
  let stderr = ''
  child.stderr.on('data', chunk => {
    stderr += chunk
  })
  const line = await lineOf(child.stdout, l => l.startsWith('{')).catch(err => {
    throw new Error(`${String(err)}; stderr: ${stderr}`)
  })
  const { port, uid } = JSON.parse(line) as { port: number, uid: number }
  t.equal(uid, NOBODY.uid, 'the server runs as nobody')
  return async path => {
    const res = await send(port, {
      path: '/list_directory',
      headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path })
    })
    return { status: res.status, body: res.json() }
  }
}

t.test('a directory without permission is refused as access denied', async t => {
  const root = makeTree(t, { allowed: { locked: { inner: {} }, unsearchable: { a: '' }, open: { b: '' } } })
  chmodSync(`${root}/allowed/locked`, 0o000)
  chmodSync(`${root}/allowed/unsearchable`, 0o444)
  t.teardown(() => {
    chmodSync(`${root}/allowed/locked`, 0o755)
    chmodSync(`${root}/allowed/unsearchable`, 0o755)
  })
  const list = await serverFor(t, `${root}/allowed`)

  t.same(await list(`${root}/allowed/locked`), { status: 403, body: DENIED }, 'unreadable')
  t.same(await list(`${root}/allowed/locked/inner`), { status: 403, body: DENIED }, 'under an unsearchable directory')
  t.same(await list(`${root}/allowed/locked/missing`), { status: 403, body: DENIED }, 'nothing told about what is in there')
  t.same(await list(`${root}/allowed/unsearchable`), { status: 403, body: DENIED }, 'readable, but its entries cannot be examined')
  t.match(await list(`${root}/allowed/open`), { status: 200, body: { entries: [{ name: 'b', type: 'file' }] } })
  t.match(
    await list(`${root}/allowed`),
    {
      status: 200,
      body: { entries: [{ name: 'locked', type: 'directory' }, { name: 'open' }, { name: 'unsearchable', type: 'directory' }] }
    },
    'the locked directory is still listed in its parent'
  )
})
