import { randomBytes } from 'node:crypto'
import t from 'tap'
import { lineOf, listeningLocal, makeTree, post, send, spawnTs } from './helper.ts'

/** Long enough for thousands of requests to meet thousands of swaps; the outcome is not timed. */
const SWAPPING_MS = '3000'

t.test('a directory swapped for a link to outside while it is listed never shows what is outside', async t => {
  const secret = `outside-secret-${randomBytes(8).toString('hex')}`
  const root = makeTree(t, {
    allowed: { d: { 'inside-a': '', 'inside-b': '', sub: { 'inside-sub': '' } } },
    outside: { [secret]: '', sub: { [secret]: '' } }
  })
  const { app, port } = await listeningLocal(t, { ALLOWED_DIRS: `${root}/allowed` })
  const requests = [`${root}/allowed/d`, `${root}/allowed/d/sub`].flatMap(path => [
    async () => {
      const res = await post(app, '/list_directory', { path })
      return { status: res.statusCode, text: res.body }
    },
    async () => send(port, {
      path: '/list_directory',
      headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path })
    })
  ])

  const swapper = spawnTs('test/local/fixtures/swap-directory.ts', {}, [`${root}/allowed/d`, `${root}/outside`, SWAPPING_MS])
  t.teardown(() => {
    swapper.kill()
  })
  let stderr = ''
  swapper.stderr.on('data', chunk => {
    stderr += chunk
  })
  await lineOf(swapper.stdout, line => line === 'ready').catch(err => {
    throw new Error(`${String(err)}; stderr: ${stderr}`)
  })
  const stopped = lineOf(swapper.stdout, line => line.startsWith('swaps '))

  let answers = 0
  let leaks = 0
  const statuses = new Map<number, number>()
  while (swapper.exitCode === null) {
    for (const res of await Promise.all(requests.map(async request => request()))) {
      answers++
      if (res.text.includes(secret)) leaks++
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    }
  }
  const swaps = await stopped.then(line => line.slice('swaps '.length), err => {
    throw new Error(`${String(err)}; stderr: ${stderr}`)
  })

  t.comment(`${answers} answers during ${swaps} swaps; statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
  t.equal(leaks, 0, `of ${answers} answers, ${leaks} named the file outside`)
  t.same([...statuses.keys()].filter(status => ![200, 403, 404].includes(status)), [], 'only 200, 403 and 404')
  t.ok(statuses.has(200), 'the directory was listed while it was in place')
})
