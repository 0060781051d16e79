import { once } from 'node:events'
import type { Readable } from 'node:stream'
import t, { type Test } from 'tap'
import { lineOf, makeTree, send, startServer } from './helper.ts'

interface LogLine {
  name?: string
  msg?: string
  level?: number
}

const parse = (line: string): LogLine => {
  try {
    return JSON.parse(line) as LogLine
  } catch {
    return {}
  }
}
const logLine = async (stream: Readable, accept: (log: LogLine) => boolean): Promise<LogLine> =>
  parse(await lineOf(stream, line => accept(parse(line))))
const listening = (log: LogLine): boolean => log.msg?.startsWith('Server listening at ') ?? false

function start (t: Test, env: Record<string, string>) {
  const child = startServer(t, makeTree(t, {}), env)
  const exit = once(child, 'exit') as Promise<[number | null, string | null]>
  return { child, exit }
}

t.test('npm start runs the API and the local tool server; a signal stops both', async t => {
  const root = makeTree(t, { allowed: { 'a.txt': 'a' } })
  const { child, exit } = start(t, { ALLOWED_DIRS: `${root}/allowed` })
  const local = logLine(child.stdout, log => log.name === 'local' && listening(log))
  const api = logLine(child.stdout, log => log.name === undefined && listening(log))
  const port = Number(/:(\d+)$/.exec((await local).msg ?? '')?.[1])
  t.match(await api, { msg: /^Server listening at https:\/\/127\.0\.0\.1:\d+$/ }, 'the API listens too, over HTTPS')
  const res = await send(port, { path: '/list_allowed_directories', headers: { host: `localhost:${port}` } })
  t.equal(res.status, 200)
  t.same(res.json(), { directories: [`${root}/allowed`] })
  child.kill('SIGTERM')
  t.same(await exit, [0, null], 'a clean exit')
})

t.test('without allowed directories the local tool server starts, says so (info, not a warning), and lists none', async t => {
  const { child, exit } = start(t, {})
  const warning = logLine(
    child.stdout,
    log => log.name === 'local' && log.level === 30 && (log.msg ?? '').startsWith('no allowed ' + 'directories')
  )
  const local = await logLine(child.stdout, log => log.name === 'local' && listening(log))
  t.match(await warning, { msg: 'no allowed directories (ALLOWED_DIRS or --allow): list_directory refuses every path' })
  const port = Number(/:(\d+)$/.exec(local.msg ?? '')?.[1])
  const res = await send(port, { path: '/list_allowed_directories', headers: { host: `127.0.0.1:${port}` } })
  t.same(res.json(), { directories: [] })
  child.kill('SIGINT')
  t.same(await exit, [0, null])
})

t.test('a bad directory stops start-up with one line naming it', async t => {
  const { child, exit } = start(t, { ALLOWED_DIRS: '/nope/not/here' })
  let stderr = ''
  child.stderr.on('data', chunk => {
    stderr += chunk
  })
  t.same(await exit, [2, null])
  t.equal(stderr, 'zoo-api: ALLOWED_DIRS: /nope/not/here does not exist\n')
})
