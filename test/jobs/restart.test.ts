import t from 'tap'
import { addClient, addUser, basic, call, dataDir, ENGINE, query, testConfig, tokenRequest, withAccounts, withStorage } from '../helper.ts'
import { accepted, ASYNC, finished, start, ZOO } from './helper.ts'

const zoo = (name: string) => ({ ...ZOO, name })

t.test('a job queued by an app that closed before running it is run by the next app on the same data directory', async t => {
  const config = testConfig(dataDir(t))
  const first = await start(t, config, { runJobs: false })
  const path = accepted(t, await call(first, 'POST', '/v1/zoos', ZOO, ASYNC))
  t.match((await call(first, 'GET', path)).json(), { status: 'queued', finished_at: null, result: null })
  t.equal((await call(first, 'GET', '/v1/zoos')).json().length, 0, 'not run yet')
  await first.close()

  const second = await start(t, config)
  const job = await finished(second, path)
  t.equal(job.status, 'succeeded')
  t.match(job.result, { status: 201, body: ZOO })
  const zoos = (await call(second, 'GET', '/v1/zoos')).json()
  t.same(zoos, [job.result?.body], 'created once, as the job says')
})

t.test('a job a crashed process left running is run again at the next start, in its place in the queue', async t => {
  const config = testConfig(dataDir(t))
  const first = await start(t, config, { runJobs: false })
  const paths = []
  for (const name of ['First', 'Second', 'Third']) paths.push(accepted(t, await call(first, 'POST', '/v1/zoos', zoo(name), ASYNC)))
  // What the worker does when it takes a job; the process then dies before the job finishes.
  const taken = await withStorage(first, storage => storage.jobs.claimNext())
  t.equal(taken?.id, paths[0]?.split('/').at(-1), 'the oldest job is taken first')
  // On PostgreSQL other instances may be running: a job is taken again only once the lease of the
  // instance that took it has passed, which is what a dead instance leaves behind.
  if (ENGINE === 'postgres') await query(first, "UPDATE jobs SET lease_until = now() - interval '1 second' WHERE id = ?", [taken?.id])
  t.match(taken?.request, {
    method: 'POST',
    url: '/v1/zoos',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(zoo('First'))
  })
  const running = await call(first, 'GET', paths[0] as string)
  t.match(running.json(), { status: 'running', finished_at: null, result: null })
  t.equal(running.headers['retry-after'], '1')
  await first.close()

  const second = await start(t, config)
  const jobs = []
  for (const path of paths) jobs.push(await finished(second, path))
  t.same(jobs.map(job => job.status), ['succeeded', 'succeeded', 'succeeded'])
  const ids = jobs.map(job => (job.result?.body as { id: number }).id)
  t.same(ids, [1, 2, 3], 'run first in, first out')
  t.same((await call(second, 'GET', '/v1/zoos')).json().map((z: { name: string }) => z.name), ['First', 'Second', 'Third'])
})

t.test('a job runs with the scopes its client and user still have when it runs', async t => {
  const config = testConfig(dataDir(t))
  const first = await start(t, config, { runJobs: false })
  const animal = { name: 'Knut', species: 'Polar bear', animal_type_id: 3 }
  const bearer = async (res: Promise<{ json: () => { access_token: string } }>) => `Bearer ${(await res).json().access_token}`

  const clientBearer = (client: Awaited<ReturnType<typeof addClient>>) =>
    bearer(tokenRequest(first, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret as string)))

  const narrowed = await addClient(first, 'zoos:write animals:write')
  const narrowedAuth = { authorization: await clientBearer(narrowed) }
  const deleted = await addClient(first, 'zoos:write')
  const deletedAuth = { authorization: await clientBearer(deleted) }
  await addUser(first, 'ada', 'ada-password-0123', 'zoos:write animals:write')
  const adaAuth = {
    authorization: await bearer(tokenRequest(first, { grant_type: 'password', username: 'ada', password: 'ada-password-0123' }))
  }

  const queued = {
    narrowedZoo: accepted(t, await call(first, 'POST', '/v1/zoos', ZOO, { ...ASYNC, ...narrowedAuth })),
    narrowedAnimal: accepted(t, await call(first, 'POST', '/v1/animals', animal, { ...ASYNC, ...narrowedAuth })),
    deletedZoo: accepted(t, await call(first, 'POST', '/v1/zoos', ZOO, { ...ASYNC, ...deletedAuth })),
    adaZoo: accepted(t, await call(first, 'POST', '/v1/zoos', ZOO, { ...ASYNC, ...adaAuth })),
    adaAnimal: accepted(t, await call(first, 'POST', '/v1/animals', animal, { ...ASYNC, ...adaAuth }))
  }
  await query(first, "UPDATE oauth_clients SET scope = 'animals:write' WHERE client_id = ?", [narrowed.client_id])
  await query(first, "UPDATE users SET scope = 'animals:write' WHERE username = 'ada'")
  await withAccounts(first, async store => store.deleteClient(deleted.client_id))
  await first.close()

  const second = await start(t, config)
  const refused = { status: 403, body: { error: 'The access token lacks the scope zoos:write' } }
  t.match(await finished(second, queued.narrowedZoo, narrowedAuth), { status: 'failed', result: refused })
  t.match(await finished(second, queued.narrowedAnimal, narrowedAuth), { status: 'succeeded', result: { status: 201 } })
  t.match(await finished(second, queued.adaZoo, adaAuth), { status: 'failed', result: refused })
  t.match(await finished(second, queued.adaAnimal, adaAuth), { status: 'succeeded', result: { status: 201 } })
  // Nobody can read the deleted client's job any more; the database says how it ended.
  const id = queued.deletedZoo.split('/').at(-1)
  t.match(await query(second, 'SELECT status, result_status FROM jobs WHERE id = ?', [id]), [{ status: 'failed', result_status: 401 }])
  t.equal((await call(second, 'GET', '/v1/zoos')).json().length, 0, 'no zoo was created')
})

t.test('succeeded jobs are deleted a week after they finished, failed ones after a day; none keeps its request body once run', async t => {
  const config = testConfig(dataDir(t))
  const first = await start(t, config)
  const post = async () => accepted(t, await call(first, 'POST', '/v1/zoos', ZOO, ASYNC))
  // Valid as a request, refused when run: there is no zoo 9999.
  const fail = async () => accepted(t, await call(first, 'PATCH', '/v1/zoos/9999', { city: 'Potsdam' }, ASYNC))
  const [old, recent, failedOld, failedRecent] = [await post(), await post(), await fail(), await fail()]
  for (const path of [old, recent, failedOld, failedRecent]) await finished(first, path)
  await first.close()
  const idOf = (path: string) => path.split('/').at(-1)
  const bodies = await query(first, 'SELECT body FROM jobs ORDER BY created_at')
  t.same(bodies, [{ body: null }, { body: null }, { body: null }, { body: null }], 'the request body is dropped once the job has run')
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000).toISOString()
  await query(first, 'UPDATE jobs SET finished_at = ? WHERE id = ?', [hoursAgo(8 * 24), idOf(old)])
  await query(first, 'UPDATE jobs SET finished_at = ? WHERE id = ?', [hoursAgo(6 * 24), idOf(recent)])
  await query(first, 'UPDATE jobs SET finished_at = ? WHERE id = ?', [hoursAgo(25), idOf(failedOld)])
  await query(first, 'UPDATE jobs SET finished_at = ? WHERE id = ?', [hoursAgo(23), idOf(failedRecent)])

  const second = await start(t, config)
  t.same(await Promise.all([old, recent, failedOld, failedRecent].map(async path => (await call(second, 'GET', path)).statusCode)),
    [404, 200, 404, 200])
})
