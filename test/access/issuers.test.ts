import type { Payload } from 'oauth2-mock-server'
import t, { type Test } from 'tap'
import { startProvider } from '../auth/oauth-provider.ts'
import { accepted, finished, start } from '../jobs/helper.ts'
import { buildServing, call, cli, dataDir, query, testConfig } from '../helper.ts'
import { as, SCOPE, served, unbound, userToken } from './helper.ts'

/*
 * Subjects of two issuers never compare equal: an external issuer's token whose `sub` is that of
 * a built-in user (`user:2`) is not that user to the access rules (`owner=@sub`, `set: { owner:
 * '@sub' }`), and a job it queues runs as itself, on both engines.
 */

const AUDIENCE = 'https://zoo.example.test/v1'
const provider = await startProvider()
t.teardown(() => provider.stop())
const ISSUER = provider.issuer.url as string
const EXTERNAL = { OAUTH_ISSUER: ISSUER, OAUTH_JWKS_URI: `${ISSUER}/jwks`, OAUTH_AUDIENCE: AUDIENCE }

/** A bearer token of the external issuer with `sub` and `claims`, holding the keepers' scopes. */
const externalBearer = async (sub: string, claims: Record<string, unknown> = {}): Promise<string> =>
  `Bearer ${await provider.issuer.buildToken({
    expiresIn: 300,
    scopesOrTransform: (_header, payload: Payload) => {
      Object.assign(payload, { sub, aud: AUDIENCE, azp: 'reporting', scope: SCOPE, ...claims })
    }
  })}`

/** A zoo, a built-in user bob who owns a keeper there, and the app serving keepers with the external issuer. */
async function world (t: Test, settings: Record<string, string> = EXTERNAL) {
  const app = await buildServing(t, served(t), settings)
  const admin = unbound(app)
  const zoo = (await admin('POST', '/v1/zoos', { name: 'Alpha', city: 'Aachen' })).json().id as number
  const bob = await userToken(app, 'bob', {})
  const bobs = (await admin('POST', '/v1/keepers', { name: 'Bea', zoo_id: zoo, owner: bob.sub })).json() as { id: number }
  return { app, zoo, bob, bobs }
}

t.test("an external token whose sub is a built-in user's is not that user to the access rules", async t => {
  const { app, zoo, bob, bobs } = await world(t)
  const mallory = as(app, await externalBearer(bob.sub, { zoo_id: zoo + 1000 }))
  t.same((await mallory('GET', '/v1/keepers')).json(), [], "owner=@sub does not match bob's records")
  t.equal((await mallory('GET', `/v1/keepers/${bobs.id}`)).statusCode, 404)
  t.same((await mallory('GET', `/v1/keepers?owner=${encodeURIComponent(bob.sub)}`)).json(), [])

  const writer = as(app, await externalBearer(bob.sub, { zoo_id: zoo }))
  const created = await writer('POST', '/v1/keepers', { name: 'Mal', zoo_id: zoo })
  t.equal(created.statusCode, 201, created.body)
  t.equal(created.json().owner, `${ISSUER}#${bob.sub}`, 'set: { owner: @sub } writes the subject with its issuer')
  const bobsView = await as(app, bob.bearer)('GET', '/v1/keepers')
  t.same((bobsView.json() as { name: string }[]).map(k => k.name), ['Bea'], 'bob does not see it as his')
  t.same((await mallory('GET', '/v1/keepers')).json().map((k: { name: string }) => k.name), ['Mal'],
    'the external subject sees what it made, by owner=@sub')
})

t.test('a job queued by an external token runs as that token, with its own subject', async t => {
  const { app, zoo, bob } = await world(t)
  const bearer = await externalBearer(bob.sub, { zoo_id: zoo })
  const queued = await call(app, 'POST', '/v1/keepers', { name: 'Job', zoo_id: zoo }, { authorization: bearer, prefer: 'respond-async' })
  const job = await finished(app, accepted(t, queued), { authorization: bearer })
  t.match(job, { status: 'succeeded', result: { status: 201, body: { name: 'Job', owner: `${ISSUER}#${bob.sub}` } } })
  const other = (await unbound(app)('POST', '/v1/zoos', { name: 'Beta', city: 'Bonn' })).json().id as number
  const refused = await call(app, 'POST', '/v1/keepers', { name: 'Elsewhere', zoo_id: other },
    { authorization: bearer, prefer: 'respond-async' })
  t.match((await finished(app, accepted(t, refused), { authorization: bearer })).result,
    { status: 403 }, 'its access rules hold in the job')
})

t.test("a job of an issuer no longer accepted fails 401; every URL of a job's answer is the service's public one", async t => {
  const directory = dataDir(t)
  const collections = served(t)
  const PUBLIC = { PUBLIC_URL: 'https://zoo.example.test' }
  const queuing = await start(t, testConfig(directory, { ...EXTERNAL, ...PUBLIC }), { runJobs: false, collections })
  const zoo = (await unbound(queuing)('POST', '/v1/zoos', { name: 'Alpha', city: 'Aachen' })).json().id as number
  const bearer = await externalBearer('user:1', { zoo_id: zoo })
  const path = accepted(t, await call(queuing, 'POST', '/v1/keepers', { name: 'Late', zoo_id: zoo },
    { authorization: bearer, prefer: 'respond-async' }))
  await queuing.close()

  // Started without OAUTH_ISSUER: the job's token is of an issuer this instance no longer accepts.
  const running = await start(t, testConfig(directory, PUBLIC), { collections })
  const id = path.split('/').at(-1) as string
  let job: Record<string, unknown> | undefined
  for (let poll = 0; poll < 400 && (job === undefined || job.finished_at === null); poll++) {
    await new Promise(resolve => setTimeout(resolve, 5))
    job = (await query(running, 'SELECT status, result_status, result_body, finished_at FROM jobs WHERE id = ?', [id]))[0]
  }
  t.match(job, { status: 'failed', result_status: 401 })
  const body = JSON.parse(String(job?.result_body))
  t.match(body.error, /issuer/)
  t.match(body.documentation_url, /^https:\/\/zoo\.example\.test\/documentation/, 'not the address of the replay')
  t.same((await query(running, "SELECT name FROM keepers WHERE name = 'Late'")), [], 'nothing written')
})

t.test('a built-in client cannot take a subject of the users, nor one with an issuer', async t => {
  const { app } = await world(t, {})
  for (const id of ['user:1', 'user:42', 'https://issuer.example#alice']) {
    const run = await cli(app, ['client', 'create', '--scope', 'zoos:read', '--id', id])
    t.equal(run.code, 1, id)
    t.match(run.err, /client id/, id)
  }
})
