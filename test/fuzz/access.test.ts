import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { as, serve, unbound, userToken } from '../access/helper.ts'
import { call } from '../helper.ts'
import { nastyText, runs } from './arbitraries.ts'

/*
 * Property-based fuzzing of access rules (test/access/fixture/keepers.ts): a token bound by them
 * sends hostile queries, bodies and batches to every path that reads or writes keepers. Every
 * record it may not see is named OUTSIDE, and every keeper's hidden phone is a SECRET, so that no
 * answer (its body, headers, totals, a change of many's `affected` and records, the feed, a
 * refusal's message) may hold either. After each request, the keepers the token may not write are
 * as they were, and no total counts more than the records it sees.
 */

const SECRET = /PHONE-SECRET|OUTSIDE/

interface Request { method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', url: string, body?: unknown, prefer?: string }

t.test('a bound token, any request: nothing of a record outside its rules, nor a hidden field, in any answer', async t => {
  const app: FastifyInstance = await serve(t)
  const admin = unbound(app)
  const zooA = (await admin('POST', '/v1/zoos', { name: 'Alpha', city: 'Aachen' })).json().id as number
  const zooB = (await admin('POST', '/v1/zoos', { name: 'Beta', city: 'Bonn' })).json().id as number
  const ann = await userToken(app, 'ann', { zoo_id: zooA, zoos: [zooA] })
  const annAs = as(app, ann.bearer)
  const ids: number[] = []
  for (let i = 0; i < 4; i++) {
    ids.push((await admin('POST', '/v1/keepers', { name: `Inside ${i}`, zoo_id: zooA, phone: `PHONE-SECRET-A${i}` })).json().id)
    ids.push((await admin('POST', '/v1/keepers', { name: `OUTSIDE ${i}`, zoo_id: zooB, phone: `PHONE-SECRET-B${i}` })).json().id)
  }
  // Seen through the second read rule, and not writable: its name may be told, never its phone.
  ids.push((await admin('POST', '/v1/keepers', { name: 'Owned', zoo_id: zooB, owner: ann.sub, phone: 'PHONE-SECRET-O' })).json().id)
  await admin('POST', '/v1/rangers', { name: 'Rex', zoo_id: zooA, keeper_id: ids[1] })
  ids.push(99_999)

  /** What the token may not write, as an unbound token reads it: no request of the token may change it. */
  const untouchable = async (): Promise<string> => (await admin('GET', `/v1/keepers?zoo_id_ne=${zooA}&limit=100`)).body
  /** How many keepers the token sees, as an unbound token counts them. */
  const seenCount = async (): Promise<number> =>
    Number((await admin('GET', `/v1/keepers?zoo_id=${zooA}`)).headers['x-total-count']) +
    Number((await admin('GET', `/v1/keepers?owner=${encodeURIComponent(ann.sub)}&zoo_id_ne=${zooA}`)).headers['x-total-count'])
  const before = await untouchable()

  const id = fc.constantFrom(...ids)
  const zoo = fc.constantFrom(zooA, zooB)
  const text = nastyText.filter(value => !SECRET.test(value))
  const record = fc.record({
    name: fc.oneof(fc.constantFrom('Zed', 'Inside 0'), text),
    zoo_id: fc.oneof(zoo, fc.constant(null)),
    phone: fc.constantFrom('1', null),
    owner: fc.constantFrom(ann.sub, 'someone', null)
  }, { requiredKeys: ['name'] })
  const parameter = fc.oneof(
    zoo.map(z => `zoo_id=${z}`), zoo.map(z => `zoo_id_ne=${z}`), fc.constant(`zoo_id_in=${zooA},${zooB}`),
    fc.constantFrom('name=Owned', 'name_gte=O', 'owner=someone', 'id_gte=1', 'phone=1', 'phone_ne=x', 'q=outside', 'q=inside',
      'q=secret', 'sortby=name', 'sortby=phone', 'fields=name', 'fields=phone', 'fields=name,owner', 'limit=2', 'order=desc',
      'embed=zoo', 'cursor=eyJzIjoiaWQ6YXNjIiwiYSI6WzFdLCJwIjoxfQ')
  )
  const query = fc.array(parameter, { maxLength: 3 }).map(parts => parts.length === 0 ? '' : `?${[...new Set(parts)].join('&')}`)
  const path = fc.oneof(
    fc.constant('/v1/keepers'),
    id.map(i => `/v1/keepers/${i}`),
    zoo.map(z => `/v1/zoos/${z}/keepers`),
    fc.tuple(zoo, id).map(([z, i]) => `/v1/zoos/${z}/keepers/${i}`)
  )
  const prefer = fc.option(fc.constantFrom('tx=rollback', 'return=representation', 'tx=rollback, return=representation',
    'max-affected=1', 'return=minimal'), { nil: undefined })
  const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') as fc.Arbitrary<Request['method']>
  const target = fc.tuple(path, query).map(([p, q]) => p + q)
  const single: fc.Arbitrary<Request> = fc.record({
    method,
    url: target,
    body: fc.oneof(record, fc.array(record, { minLength: 1, maxLength: 3 })),
    prefer
  })
  const operation = fc.record({ method: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'), path: target, body: record })
  const batch = fc.array(operation, { minLength: 1, maxLength: 3 })
    .map(operations => ({ method: 'POST' as const, url: '/v1/batch', body: { operations } }))
  const request: fc.Arbitrary<Request> = fc.oneof(
    { weight: 6, arbitrary: single },
    { weight: 2, arbitrary: batch },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Request>(
        { method: 'GET', url: '/v1/keepers/changes?limit=1000' }, { method: 'GET', url: '/v1/zoos?embed=keepers' },
        { method: 'GET', url: '/v1/rangers?embed=keeper' })
    }
  )

  await fc.assert(fc.asyncProperty(request, async ({ method, url, body, prefer: preferred }) => {
    const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
    const seen = await seenCount()
    const res = await annAs(method, url, withBody ? body : undefined, preferred === undefined ? {} : { prefer: preferred })
    if (res.statusCode >= 500) throw new Error(`${res.statusCode}: ${res.body}`)
    const told = `${JSON.stringify(res.headers)}\n${res.body}`
    if (SECRET.test(told)) throw new Error(`told what the rules keep from the token: ${told.slice(0, 600)}`)
    // A list of keepers counts keepers (one of zoos or rangers, embedding keepers, counts those).
    const total = /^\/v1\/(zoos\/\d+\/)?keepers/.test(url) ? res.headers['x-total-count'] : undefined
    if (total !== undefined && Number(total) > seen) throw new Error(`X-Total-Count ${String(total)}: records it may not see`)
    const wrote = res.statusCode === 200 && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'
    const affected = wrote ? (res.json() as { affected?: number }).affected : undefined
    if (affected !== undefined && affected > seen) throw new Error(`affected ${affected} counts records it may not write`)
    if (await untouchable() !== before) throw new Error(`${method} ${url} changed a keeper the token may not write`)
  }), runs(0.4))
  const feed = await call(app, 'GET', '/v1/keepers/changes?limit=1000', undefined, { authorization: ann.bearer })
  t.notMatch(feed.body, SECRET, 'the feed, after it all')
  t.pass(`${runs(0.4).numRuns} requests`)
})
