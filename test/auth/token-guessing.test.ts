import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { HASH_COST, setHashCostForTests } from '../../auth/secrets.ts'
import { addClient, addUser, basic, BOOTSTRAP, build, tokenRequest, withAccounts } from '../helper.ts'

// The limits on hashing are about its real cost: this file hashes, and checks the decoy of
// unknown names (made when the authorization server loads, with the first app), at the
// production cost, not at the low one test/helper.ts sets for the other files.
setHashCostForTests(HASH_COST.N)

const password = (username: string, guess: string, from = '127.0.0.1') => ({ grant_type: 'password', username, password: guess, from })

/** A token request from a given client address. */
async function attempt (app: FastifyInstance, params: Record<string, string>, authorization = basic(BOOTSTRAP.id, BOOTSTRAP.secret)) {
  const { from = '127.0.0.1', ...form } = params
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress: from,
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
    payload: new URLSearchParams(form).toString()
  })
}

const sleep = (seconds: number) => new Promise(resolve => setTimeout(resolve, seconds * 1000 + 50))

t.test('wrong passwords for one user, from many addresses: after five, each further failure locks the user out for longer', async t => {
  const app = await build(t)
  await addUser(app, 'ada', 'correct horse battery', 'zoos:read')
  // Through a client with a generated secret, which a digest checks: the user's one-second lock is
  // then checked at once, not after a chosen secret's scrypt, which on a busy machine outlasts it.
  const client = await addClient(app, 'zoos:read')
  const as = (params: Record<string, string>) => attempt(app, params, basic(client.client_id, client.client_secret))
  for (let i = 1; i <= 5; i++) t.equal((await as(password('ada', `guess-${i}`, `10.0.0.${i}`))).statusCode, 401)
  t.equal((await as(password('ada', 'guess-6', '10.0.0.6'))).statusCode, 401, 'the sixth failure is checked, and locks')

  const locked = await as(password('ada', 'correct horse battery', '10.0.1.1'))
  t.equal(locked.statusCode, 429, 'even the right password waits while the user is locked')
  t.equal(locked.headers['retry-after'], '1')
  t.equal(locked.json().error, 'invalid_request')
  t.match(locked.json().error_description, /too many failed attempts/)

  await sleep(1)
  t.equal((await as(password('ada', 'guess-7', '10.0.0.7'))).statusCode, 401)
  const longer = await as(password('ada', 'guess-8', '10.0.0.8'))
  t.equal(longer.statusCode, 429)
  t.equal(longer.headers['retry-after'], '2', 'the lock doubles with every failure')
  await sleep(2)
  t.equal((await as(password('Ada', 'correct horse battery', '10.0.1.2'))).statusCode, 200, 'the right password after the lock')
  for (let i = 1; i <= 5; i++) {
    t.equal((await as(password('ada', `again-${i}`, `10.0.2.${i}`))).statusCode, 401, 'a success starts the count again')
  }
})

t.test('wrong secrets for one client id lock that client; other clients and addresses go on', async t => {
  const app = await build(t)
  const other = await addClient(app, 'zoos:read')
  // The bootstrap client's secret was chosen (BOOTSTRAP_CLIENT_SECRET): it is hashed with scrypt.
  const chosen = BOOTSTRAP
  for (let i = 1; i <= 6; i++) {
    t.equal((await attempt(app, { grant_type: 'client_credentials', from: `10.1.0.${i}` }, basic(chosen.id, `wrong-${i}`))).statusCode, 401)
  }
  const locked = await attempt(app, { grant_type: 'client_credentials', from: '10.1.1.1' }, basic(chosen.id, chosen.secret))
  t.equal(locked.statusCode, 429)
  t.ok(Number(locked.headers['retry-after']) >= 1)
  const revoke = await app.inject({
    method: 'POST',
    url: '/oauth/revoke',
    remoteAddress: '10.1.1.2',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(chosen.id, chosen.secret) },
    payload: 'token=x'
  })
  t.equal(revoke.statusCode, 429, 'the revocation endpoint authenticates clients too')
  const otherClient = await attempt(app, { grant_type: 'client_credentials', from: '10.1.1.3' },
    basic(other.client_id, other.client_secret))
  t.equal(otherClient.statusCode, 200, 'another client is not locked')
})

t.test('wrong guesses from one address, for ever-new users and clients, lock that address', async t => {
  const app = await build(t)
  const client = await addClient(app, 'zoos:read')
  for (let i = 1; i <= 6; i++) t.equal((await attempt(app, password(`nobody-${i}`, 'guess', '10.2.0.1'))).statusCode, 401)
  const credentials = basic(client.client_id, client.client_secret)
  t.equal((await attempt(app, { grant_type: 'client_credentials', from: '10.2.0.1' }, credentials)).statusCode, 429)
  const elsewhere = await attempt(app, { grant_type: 'client_credentials', from: '10.2.0.2' }, credentials)
  t.equal(elsewhere.statusCode, 200, 'another address is not locked')
})

t.test('at most a few secrets are hashed at once: a burst of guesses gets 503, and a generated secret is checked at once', async t => {
  const app = await build(t)
  const client = await addClient(app, 'zoos:read')
  const stored = await withAccounts(app, async store => (await store.client(client.client_id))?.secret_hash)
  t.match(stored, /^sha256\$/, 'a generated secret is kept as a digest')

  const finished: string[] = []
  // Each guess names another user from another address: no lock applies, every one is hashed.
  const guesses = Array.from({ length: 60 }, (_, i) =>
    attempt(app, password(`user-${i}`, 'guess', `10.3.${i >> 8}.${i & 255}`)).then(res => {
      finished.push('guess')
      return res
    }))
  const legitimate = tokenRequest(app, { grant_type: 'client_credentials' }, basic(client.client_id, client.client_secret)).then(res => {
    finished.push('legitimate')
    return res
  })
  const answers = await Promise.all(guesses)
  t.equal((await legitimate).statusCode, 200)
  t.ok(finished.indexOf('legitimate') < finished.lastIndexOf('guess') - 10, 'the legitimate request did not wait behind the guesses')
  const statuses = new Set(answers.map(res => res.statusCode))
  t.same([...statuses].sort(), [401, 503], 'each guess is refused, or turned away unhashed')
  for (const res of answers.filter(res => res.statusCode === 503)) {
    t.equal(res.headers['retry-after'], '1')
    t.equal(res.json().error, 'temporarily_unavailable')
  }
})
