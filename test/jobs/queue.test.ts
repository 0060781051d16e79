import type { FastifyBaseLogger } from 'fastify'
import t, { type Test } from 'tap'
import type { Principal } from '../../auth/principal.ts'
import { JobQueue } from '../../jobs/queue.ts'
import { RESOURCES } from '../../schemas/index.ts'
import { openSqliteStorage } from '../../store/sqlite/storage.ts'
import type { ClaimedJob, JobResult } from '../../store/storage.ts'
const PRINCIPAL: Principal = {
  subject: 'c1',
  clientId: 'c1',
  scopes: new Set(['zoos:write']),
  issuer: 'https://localhost:8443',
  jti: 'j',
  expiresAt: Date.now() + 60_000,
  issuedAt: 0,
  clientGeneration: '',
  userGeneration: '',
  claims: {}
}
const CREATED: JobResult = { status: 201, body: { id: 1 } }

/** Errors the queue logs, kept for the test to look at. */
function logger (): FastifyBaseLogger & { errors: unknown[] } {
  const errors: unknown[] = []
  const ignore = () => {}
  return {
    errors,
    error: (entry: unknown) => { errors.push(entry) },
    info: ignore,
    warn: ignore,
    debug: ignore,
    trace: ignore,
    fatal: ignore,
    level: 'info',
    silent: ignore,
    child: () => logger()
  } as unknown as FastifyBaseLogger & { errors: unknown[] }
}

function setUp (t: Test, replay: (job: ClaimedJob) => Promise<JobResult>) {
  const storage = openSqliteStorage(t.testdir(), { resources: RESOURCES })
  t.teardown(() => storage.close())
  const store = storage.jobs
  const log = logger()
  const queue = new JobQueue(store, replay, log)
  const enqueue = async (name: string) =>
    (await queue.enqueue(PRINCIPAL, { method: 'POST', url: '/v1/zoos', headers: {}, body: JSON.stringify({ name }) })).id
  const status = async (id: string) => (await queue.find(id, PRINCIPAL))?.status
  const statuses = async (ids: string[]) => Promise.all(ids.map(status))
  return { queue, enqueue, status, statuses, log }
}

/** A promise the test settles when it chooses. */
function gate () {
  let open: () => void = () => {}
  const opened = new Promise<void>(resolve => { open = resolve })
  return { opened, open }
}

t.test('nothing runs before start; then the jobs run one at a time, oldest first', async t => {
  const order: string[] = []
  let running = 0
  let most = 0
  const done = gate()
  const { queue, enqueue, statuses } = setUp(t, async job => {
    most = Math.max(most, ++running)
    await new Promise(resolve => setImmediate(resolve))
    order.push(JSON.parse(job.request.body as string).name)
    running--
    if (order.length === 3) done.open()
    return CREATED
  })
  const ids = [await enqueue('a'), await enqueue('b'), await enqueue('c')]
  queue.wake()
  t.same(await statuses(ids), ['queued', 'queued', 'queued'], 'a worker not started takes nothing')
  await Promise.all([queue.start(), queue.start()])
  queue.wake()
  await done.opened
  await queue.stop()
  t.same(order, ['a', 'b', 'c'])
  t.equal(most, 1, 'never two at once')
  t.same(await statuses(ids), ['succeeded', 'succeeded', 'succeeded'])
})

t.test('stop waits for the job in progress and takes no other', async t => {
  const release = gate()
  const started = gate()
  const { queue, enqueue, status } = setUp(t, async () => {
    started.open()
    await release.opened
    return CREATED
  })
  await queue.start()
  const first = await enqueue('a')
  const second = await enqueue('b')
  await started.opened
  let stopped = false
  const stopping = queue.stop().then(() => { stopped = true })
  await new Promise(resolve => setImmediate(resolve))
  t.notOk(stopped, 'still waiting for the job in progress')
  t.equal(await status(first), 'running')
  release.open()
  await stopping
  t.equal(await status(first), 'succeeded')
  t.equal(await status(second), 'queued', 'left for the next start')
  queue.wake()
  t.equal(await status(second), 'queued', 'a stopped worker stays stopped')
})

t.test('a request inject() refused because the app is closing leaves its job queued', async t => {
  const { queue, enqueue, status, log } = setUp(t, async () => {
    throw Object.assign(new Error('Fastify has already been closed and cannot be reopened'), { code: 'FST_ERR_REOPENED_CLOSE_SERVER' })
  })
  const id = await enqueue('a')
  await queue.start()
  await queue.stop()
  t.equal(await status(id), 'queued')
  t.same(log.errors, [])
})

t.test('a replay that throws fails its job with 500, logged, and the worker goes on', async t => {
  let calls = 0
  const second = gate()
  const { queue, enqueue, log } = setUp(t, async () => {
    if (++calls === 1) throw new Error('signing key unreadable')
    second.open()
    return CREATED
  })
  const failed = await enqueue('a')
  const next = await enqueue('b')
  await queue.start()
  await second.opened
  await queue.stop()
  t.match(await queue.find(failed, PRINCIPAL), { status: 'failed', result: { status: 500, body: { error: 'Internal server error' } } })
  t.match(log.errors, [{ job: failed, err: { message: 'signing key unreadable' } }])
  t.match(await queue.find(next, PRINCIPAL), { status: 'succeeded', result: CREATED })
  t.equal(await queue.find(failed, { ...PRINCIPAL, clientId: 'c2' }), undefined, 'another client does not find it')
})
