import t from 'tap'
import { clientToken, SCOPE, served } from '../access/helper.ts'
import { buildServing, call, create, query, withAccounts } from '../helper.ts'
import { receiver } from './receiver.ts'

/*
 * A subscription delivers only what its account may read when each delivery is made: the access
 * rules of test/access/fixture/keepers.ts (a bound token sees the keepers of its zoo, never their
 * phone), and its scopes as they are then.
 */

const SETTINGS = { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRIES: '0.2', WEBHOOK_TIMEOUT: '2' }

t.test('a bound account receives only the records inside its rules, without a hidden field, nothing once its scope is gone', async t => {
  const app = await buildServing(t, served(t), SETTINGS)
  const hook = await receiver(t)
  const mine = await create(app, 'zoos', { name: 'Mine', city: 'A' })
  const theirs = await create(app, 'zoos', { name: 'Theirs', city: 'B' })
  const clientId = 'webhook-keeper'
  const bound = await clientToken(app, { zoo_id: mine.id }, `${SCOPE} webhooks:read webhooks:write`, clientId)
  const subscribed = await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['keepers'] }, { authorization: bound })
  t.equal(subscribed.statusCode, 201, subscribed.body)
  const webhook = subscribed.json()

  const hidden = await call(app, 'POST', '/v1/webhooks', { url: hook.url, collections: ['keepers'], filter: 'phone=123' },
    { authorization: bound })
  t.equal(hidden.statusCode, 422, 'a filter on a field hidden from the account is refused as no field')
  t.match(hidden.json().errors, [{ field: 'filter', message: /phone names no field of keepers/ }])

  const inside = await create(app, 'keepers', { name: 'Inside', zoo_id: mine.id, phone: '555' })
  await create(app, 'keepers', { name: 'Outside', zoo_id: theirs.id, phone: '666' })
  await call(app, 'PATCH', `/v1/keepers/${inside.id}`, { zoo_id: theirs.id })
  const got = await hook.waitFor(2)
  await new Promise(resolve => setTimeout(resolve, 500))
  t.same(hook.received.map(d => d.json.type), ['keepers.created', 'keepers.deleted'],
    'the keeper of another zoo is not told of; the one moved out of the rules is gone for it')
  const { created_at: createdAt, updated_at: updatedAt } = got[0]?.json.data ?? {}
  t.same(got[0]?.json.data, { id: inside.id, name: 'Inside', zoo_id: mine.id, owner: null, created_at: createdAt, updated_at: updatedAt },
    'no phone')
  t.same(got[1]?.json.data, { id: inside.id })

  await withAccounts(app, store => store.changeClient(clientId, { scope: 'zoos:read webhooks:read webhooks:write' }))
  const later = await create(app, 'keepers', { name: 'Later', zoo_id: mine.id })
  // The client's token went with its scope (a new generation): the table tells what became of the delivery.
  const log = async () => await query(app, 'SELECT status, attempts, last_error FROM webhook_deliveries ' +
    `WHERE webhook_id = ${webhook.id as number} AND record_id = ${later.id}`)
  const until = Date.now() + 10_000
  const settled = async (): Promise<boolean> => !['pending', undefined].includes((await log())[0]?.status as string | undefined)
  while (!await settled() && Date.now() < until) await new Promise(resolve => setTimeout(resolve, 50))
  t.match((await log())[0], { status: 'skipped', attempts: 1, last_error: /outside what the subscription's account may read now/ })
  t.equal(hook.received.length, 2, 'an account that lost the scope receives nothing more')
})
