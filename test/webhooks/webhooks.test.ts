import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { bearerWith, build, buildBeside, call, create, POSTGRES_PASS, storageOf } from '../helper.ts'
import { receiver, verifies } from './receiver.ts'

/*
 * Webhooks through the public surface, with a real receiver on loopback (allowed by
 * WEBHOOK_ALLOW_HOSTS, plain http): every delivery's signature checked with the Standard
 * Webhooks library itself.
 */

const SETTINGS = { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRIES: '0.2,0.2,0.2', WEBHOOK_TIMEOUT: '1' }

async function subscribe (app: FastifyInstance, body: Record<string, unknown>, authorization?: string) {
  const res = await call(app, 'POST', '/v1/webhooks', body, authorization === undefined ? {} : { authorization })
  if (res.statusCode !== 201) throw new Error(`subscribe: ${res.statusCode} ${res.body}`)
  return res.json() as { id: number, secret: string, enabled: boolean }
}

async function deliveries (app: FastifyInstance, id: number, query = ''): Promise<Record<string, unknown>[]> {
  return (await call(app, 'GET', `/v1/webhooks/${id}/deliveries${query}`)).json()
}

async function until (what: string, test: () => Promise<boolean>, seconds = 20): Promise<void> {
  const end = Date.now() + seconds * 1000
  while (!await test()) {
    if (Date.now() > end) throw new Error(`not within ${seconds} s: ${what}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

t.test('every event of a subscribed collection is delivered once, in order, signed, as Standard Webhooks says', async t => {
  const app = await build(t, SETTINGS)
  const hook = await receiver(t)
  const made = await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['zoos'] })
  t.equal(made.statusCode, 201)
  const webhook = made.json()
  t.match(webhook, { url: hook.url, collections: ['zoos'], events: ['created', 'updated', 'deleted'], filter: '', enabled: true })
  t.match(webhook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
  t.match(made.headers.location, new RegExp(`^http://localhost(:80)?/v1/webhooks/${webhook.id as number}$`))
  t.notOk('secret' in (await call(app, 'GET', `/v1/webhooks/${webhook.id}`)).json(), 'the secret is shown once')

  const zoo = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin', country: 'DE' })
  await create(app, 'animals', { name: 'Not subscribed', species: 'Lion', animal_type_id: 1 })
  t.equal((await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'Potsdam' })).statusCode, 201)
  t.equal((await call(app, 'DELETE', `/v1/zoos/${zoo.id}`)).statusCode, 204)

  const got = await hook.waitFor(3)
  t.same(got.map(d => d.json.type), ['zoos.created', 'zoos.updated', 'zoos.deleted'])
  t.match(got[0]?.json.data, { id: zoo.id, name: 'Tierpark', city: 'Berlin' })
  t.match(got[1]?.json.data, { id: zoo.id, city: 'Potsdam' })
  t.same(got[2]?.json.data, { id: zoo.id }, 'a delete names the record alone')
  for (const delivery of got) {
    t.ok(verifies(webhook.secret, delivery), `${delivery.json.type} is signed with the secret`)
    t.match(delivery.headers['webhook-id'], /^\d+$/)
    t.equal(delivery.headers['content-type'], 'application/json')
  }
  const ids = got.map(d => BigInt(d.headers['webhook-id'] as string))
  t.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, 'webhook-id is the change\'s position in the feed')
  t.notOk(verifies('whsec_' + Buffer.alloc(32, 1).toString('base64'), got[0]!), 'another secret does not verify')

  // A delivery is kept with its first attempt's outcome once its answer is read, which is after the receiver has it.
  await until('the outcomes kept', async () => {
    const kept = await deliveries(app, webhook.id)
    return kept.length === 3 && kept.every(d => d.status !== 'pending')
  })
  const log = await deliveries(app, webhook.id, '?order=asc')
  t.same(log.map(d => [d.event, d.status, d.attempts, d.last_status]),
    [['created', 'succeeded', 1, 204], ['updated', 'succeeded', 1, 204], ['deleted', 'succeeded', 1, 204]])
  await new Promise(resolve => setTimeout(resolve, 300))
  t.equal(hook.attempts.length, 3, 'nothing is sent twice')
  t.equal(await storageOf(app).webhooks.prune(new Date(0), new Date(0)), 0, 'the log keeps what is recent')
  t.equal(await storageOf(app).webhooks.prune(new Date(Date.now() + 1000), new Date(0)), 3, 'and forgets what was sent long ago')
  t.same(await deliveries(app, webhook.id), [])
})

t.test('the filter and the events choose the changes delivered', async t => {
  const app = await build(t, SETTINGS)
  const hook = await receiver(t)
  await subscribe(app, { url: hook.url, collections: ['zoos'], filter: 'country=DE', events: ['created', 'deleted'] })
  const berlin = await create(app, 'zoos', { name: 'Tierpark', city: 'Berlin', country: 'DE' })
  const paris = await create(app, 'zoos', { name: 'Jardin', city: 'Paris', country: 'FR' })
  await call(app, 'PATCH', `/v1/zoos/${berlin.id}`, { city: 'Potsdam' })
  await call(app, 'DELETE', `/v1/zoos/${paris.id}`)
  await call(app, 'DELETE', `/v1/zoos/${berlin.id}`)
  const got = await hook.waitFor(2)
  await new Promise(resolve => setTimeout(resolve, 500))
  t.same(hook.received.map(d => [d.json.type, d.json.data.id]), [['zoos.created', berlin.id], ['zoos.deleted', berlin.id]],
    'no update (not asked for), nothing of a zoo outside the filter, its delete neither')
  t.equal(got.length, 2)

  // A filter changed applies from the next change on (the deliverer keeps each subscription's filter compiled until it changes).
  const other = await receiver(t)
  const changed = await subscribe(app, { url: other.url, collections: ['zoos'], filter: 'country=DE', events: ['created'] })
  await create(app, 'zoos', { name: 'Zoo', city: 'Leipzig', country: 'DE' })
  await other.waitFor(1)
  t.equal((await call(app, 'PATCH', `/v1/webhooks/${changed.id}`, { filter: 'country=FR' })).statusCode, 201)
  await create(app, 'zoos', { name: 'Zoo', city: 'Dresden', country: 'DE' })
  await create(app, 'zoos', { name: 'Zoo', city: 'Lyon', country: 'FR' })
  await other.waitFor(2)
  await new Promise(resolve => setTimeout(resolve, 500))
  t.same(other.received.map(d => d.json.data.city), ['Leipzig', 'Lyon'], 'the new filter from the next change on, not the one before it')

  const refused = await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['zoos', 'animals'], filter: 'country=DE' })
  t.equal(refused.statusCode, 422, 'a filter a collection does not take')
  t.match(refused.json().errors, [{ field: 'filter', code: 'invalid' }])
  t.equal((await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['zoos'], filter: 'opened_on=soon' })).statusCode, 422)
  t.equal((await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['tigers'] })).statusCode, 422)
})

t.test('a receiver that fails, then recovers, gets every delivery in order per record; one that hangs is timed out', async t => {
  const app = await build(t, SETTINGS)
  const hook = await receiver(t)
  const webhook = await subscribe(app, { url: hook.url, collections: ['zoos'] })
  let failing = true
  hook.answerWith(() => failing ? 503 : 200)
  const zoo = await create(app, 'zoos', { name: 'Z', city: 'A' })
  for (const city of ['B', 'C', 'D']) await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city })
  await until('two attempts failed', async () => hook.attempts.length >= 2)
  t.same(new Set(hook.attempts.map(d => d.json.data.city)), new Set(['A']), 'later changes of the record wait for the first')
  failing = false
  const got = await hook.waitFor(4)
  t.same(got.map(d => d.json.data.city), ['A', 'B', 'C', 'D'])
  const [first] = await deliveries(app, webhook.id, '?order=asc')
  t.match(first, { status: 'succeeded', last_status: 200 })
  t.ok((first?.attempts as number) >= 2)

  hook.answerWith(() => 'hang')
  await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { city: 'E' })
  await until('an attempt timed out', async () => (await deliveries(app, webhook.id, '?limit=1'))[0]?.last_error !== null)
  t.match((await deliveries(app, webhook.id, '?limit=1'))[0], { status: 'pending', last_status: null, last_error: 'no answer within 1 s' })
})

t.test('two subscriptions sent the same change each keep their own outcome', async t => {
  const app = await build(t, SETTINGS)
  const steady = await receiver(t)
  const failing = await receiver(t)
  // Made one after the other with no change between: both start at the same position, sent the same page.
  const taken = await subscribe(app, { url: steady.url, collections: ['zoos'] })
  const refused = await subscribe(app, { url: failing.url, collections: ['zoos'] })
  let refusing = true
  failing.answerWith(() => refusing ? 503 : 200)
  await create(app, 'zoos', { name: 'Z', city: 'A' })
  await steady.waitFor(1)
  await until('the failing receiver asked once', async () => failing.attempts.length >= 1)
  await until('the outcomes kept', async () => (await deliveries(app, taken.id))[0]?.status === 'succeeded' &&
    (await deliveries(app, refused.id))[0]?.last_status === 503)
  t.match((await deliveries(app, taken.id))[0], { status: 'succeeded', attempts: 1, last_status: 204 })
  t.match((await deliveries(app, refused.id))[0], { status: 'pending', attempts: 1, last_status: 503 })
  refusing = false
  await failing.waitFor(1)
  await until('the retry kept', async () => (await deliveries(app, refused.id))[0]?.status === 'succeeded')
  await new Promise(resolve => setTimeout(resolve, 500))
  t.equal(steady.attempts.length, 1, 'the receiver that took it is not sent it again')
  t.equal(failing.received.length, 1)
})

t.test('a delivery out of retries is failed; the retry endpoint sends it again; 410 Gone disables the subscription', async t => {
  const app = await build(t, SETTINGS)
  const hook = await receiver(t)
  const webhook = await subscribe(app, { url: hook.url, collections: ['zoos'] })
  hook.answerWith(() => 500)
  await create(app, 'zoos', { name: 'Z', city: 'A' })
  await until('the delivery failed', async () => (await deliveries(app, webhook.id, '?status=failed')).length === 1)
  t.equal(hook.attempts.length, 4, 'the first attempt and three retries (WEBHOOK_RETRIES)')
  const [failed] = await deliveries(app, webhook.id, '?status=failed')
  t.match(failed, { status: 'failed', attempts: 4, last_status: 500, last_error: 'the receiver answered 500', next_attempt_at: null })

  const notFailed = await call(app, 'POST', `/v1/webhooks/${webhook.id}/deliveries/${failed?.id as number}/retry`)
  t.equal(notFailed.statusCode, 202)
  t.match(notFailed.json(), { id: failed?.id, status: 'pending' })
  hook.answerWith(() => 200)
  await hook.waitFor(1)
  t.equal((await call(app, 'POST', `/v1/webhooks/${webhook.id}/deliveries/${failed?.id as number}/retry`)).statusCode, 409,
    'a delivery that did not fail is not sent again')
  t.equal((await call(app, 'POST', `/v1/webhooks/${webhook.id}/deliveries/999/retry`)).statusCode, 404)

  hook.answerWith(() => 410)
  await create(app, 'zoos', { name: 'Y', city: 'B' })
  await until('the subscription is disabled', async () => (await call(app, 'GET', `/v1/webhooks/${webhook.id}`)).json().enabled === false)
  const sent = hook.attempts.length
  await create(app, 'zoos', { name: 'X', city: 'C' })
  await new Promise(resolve => setTimeout(resolve, 1500))
  t.equal(hook.attempts.length, sent, 'a disabled subscription is sent nothing')
  t.equal((await call(app, 'PATCH', `/v1/webhooks/${webhook.id}`, { enabled: true })).statusCode, 201)
  hook.answerWith(() => 200)
  await until('enabled again, it delivers what came meanwhile', async () => hook.received.some(d => d.json.data.name === 'X'))
})

t.test('a rotated secret: both sign for a day, the new one alone once the old is forgotten', async t => {
  const app = await build(t, SETTINGS)
  const hook = await receiver(t)
  const webhook = await subscribe(app, { url: hook.url, collections: ['zoos'] })
  const rotated = await call(app, 'POST', `/v1/webhooks/${webhook.id}/secret`)
  t.equal(rotated.statusCode, 201)
  const { secret } = rotated.json()
  t.not(secret, webhook.secret)
  await create(app, 'zoos', { name: 'Z', city: 'A' })
  const [delivery] = await hook.waitFor(1)
  t.ok(verifies(secret, delivery!), 'the new secret verifies')
  t.ok(verifies(webhook.secret, delivery!), 'the one before too')
  t.equal(String(delivery?.headers['webhook-signature']).split(' ').length, 2)
  t.equal((await call(app, 'POST', '/v1/webhooks/999/secret')).statusCode, 404)
})

t.test('a subscription is its account\'s alone; scopes webhooks:read and webhooks:write', async t => {
  const app = await build(t, SETTINGS)
  const hook = await receiver(t)
  const webhook = await subscribe(app, { url: hook.url, collections: ['zoos'] })
  const other = await bearerWith(app, 'zoos:read webhooks:read webhooks:write')
  for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/secret'], ['GET', '/deliveries']] as const) {
    const res = await call(app, method, `/v1/webhooks/${webhook.id}${path}`, method === 'PATCH' ? { enabled: false } : undefined,
      { authorization: other })
    t.equal(res.statusCode, 404, `${method} ${path || '/'} of another's`)
  }
  t.same((await call(app, 'GET', '/v1/webhooks', undefined, { authorization: other })).json(), [])
  const reader = await bearerWith(app, 'zoos:read webhooks:read')
  t.equal((await call(app, 'GET', '/v1/webhooks', undefined, { authorization: reader })).statusCode, 200)
  t.equal((await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['zoos'] }, { authorization: reader })).statusCode, 403)
  const list = await call(app, 'GET', '/v1/webhooks')
  t.equal(list.headers['x-total-count'], '1')
  t.equal((await call(app, 'DELETE', `/v1/webhooks/${webhook.id}`)).statusCode, 204)
  t.equal((await call(app, 'GET', `/v1/webhooks/${webhook.id}`)).statusCode, 404)
})

t.test('URLs a delivery must not go to are refused, naming why (SSRF)', async t => {
  const app = await build(t)
  const refusal = async (url: string): Promise<string> => {
    const res = await call(app, 'POST', '/v1/webhooks', { url, collections: ['zoos'] })
    t.equal(res.statusCode, 422, url)
    return res.json().errors[0].message
  }
  t.match(await refusal('http://example.com/hook'), /not https/)
  t.match(await refusal('https://127.0.0.1/hook'), /its address 127\.0\.0\.1 is not a public address/)
  t.match(await refusal('https://[::1]/hook'), /not a public address/)
  t.match(await refusal('https://10.1.2.3/hook'), /not a public address/)
  t.match(await refusal('https://192.168.0.10/hook'), /not a public address/)
  t.match(await refusal('https://169.254.169.254/latest/meta-data'), /not a public address/)
  t.match(await refusal('https://[::ffff:127.0.0.1]/hook'), /not a public address/)
  t.match(await refusal('https://localhost/hook'), /localhost resolves to .*not a public address/)
  t.match(await refusal('ftp://example.com/'), /scheme is ftp/)
  t.match(await refusal('https://user:pw@example.com/'), /user name or password/)
})

t.test('two instances on one database deliver together, each change once', POSTGRES_PASS, async t => {
  const app = await build(t, SETTINGS)
  const other = await buildBeside(t, app, undefined, SETTINGS)
  const hook = await receiver(t)
  hook.answerWith(() => ({ status: 200, after: 20 }))
  await subscribe(app, { url: hook.url, collections: ['zoos'] })
  const writes = Array.from({ length: 40 }, (_, n) => create(n % 2 === 0 ? app : other, 'zoos', { name: `Z${n}`, city: 'A' }))
  await Promise.all(writes)
  await hook.waitFor(40)
  await new Promise(resolve => setTimeout(resolve, 1000))
  const ids = hook.attempts.map(d => d.headers['webhook-id'])
  t.equal(ids.length, 40, 'forty changes, forty deliveries: none sent by both')
  t.equal(new Set(ids).size, 40)
})
