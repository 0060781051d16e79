// The bench cases and how each target expresses them. A case is a function returning the next
// request ({ method, path, body }), called once per request so that ids and bodies are random per
// request. A case a target cannot express has a reason instead, printed as "n/a".

export const CASES = [
  'get-one', 'list-zoos', 'list-animals', 'list-employees', 'list-nested', 'list-range',
  'cursor-deep', 'offset-deep', 'list-fields', 'list-embed-zoo', 'list-embed-animals', 'list-q-one', 'list-q-two',
  'list-304', 'get-keeper', 'get-bound', 'list-keepers', 'list-bound',
  'aggregate-species', 'aggregate-zoo-year',
  'post-one', 'patch-one', 'mixed', 'batch-100', 'bulk-patch', 'feed', 'webhooks', 'hold', 'aggregate-hold'
]

/**
 * The read-power cases measured against the service's own plain page of the same list
 * (docs/collection-reads.md): `rate`, a least share of its req/s; `p99`, a most multiple of its p99.
 */
export const READ_POWER = {
  'list-fields': { plain: 'list-zoos', rate: 0.8 },
  'list-embed-zoo': { plain: 'list-animals', rate: 0.8 },
  'list-embed-animals': { plain: 'list-zoos', rate: 0.4 },
  'list-q-one': { plain: 'list-zoos', p99: 3 },
  'list-q-two': { plain: 'list-zoos', p99: 3 },
  'list-304': { plain: 'list-zoos', rate: 2 },
  // A token bound by access rules against its unrestricted twin: the same records, the rule in the
  // WHERE of the same query (docs/access-rules.md).
  'get-bound': { plain: 'get-keeper', rate: 0.9 },
  'list-bound': { plain: 'list-keepers', rate: 0.9 }
}
/** The cases that send the bound client's token (targets.js, authorizeBound). */
export const BOUND_CASES = ['get-bound', 'list-bound']
export const SERVICE_ONLY = 'a feature of the service only'

/**
 * The write-power cases (write-power.js), each measuring the service against its own other way,
 * and what each should reach: a least ratio of records a second, a most number of milliseconds,
 * a most p99 delay and a least ratio of writes.
 */
export const WRITE_POWER = {
  'batch-100': { ratio: 10 },
  'bulk-patch': { ms: 1000 },
  feed: { p99: 100, ratio: 0.8 },
  // A subscription on each collection, against none (docs/webhooks.md); the delay is told, not judged.
  webhooks: { ratio: 0.9 },
  hold: { ms: 1000 },
  // Not a write: ten aggregates of every animal at once, /health asked meanwhile (hold.js).
  'aggregate-hold': { ms: 100 }
}

/** The cases `mixed` draws its reads (90%) and writes (10%) from. */
export const MIXED_READS = ['get-one', 'list-zoos', 'list-animals', 'list-employees', 'list-nested', 'list-range']
const MIXED_WRITES = ['post-one', 'patch-one']

const COUNTRIES = ['DE', 'FR', 'AT', 'IT', null]
const int = n => Math.floor(Math.random() * n)
const pick = list => list[int(list.length)]
const randomDate = () => new Date(Date.UTC(1850, 0, 1) + int(175 * 365) * 86_400_000).toISOString().slice(0, 10)

/**
 * The request makers of one target. `data`: what the seed made ({ rows, zoosWithAnimals, species,
 * role, cities }); `target.cursorPath`: a deep keyset page of that target, when it has cursors.
 * json-server (B) has its own query syntax: `_sort`, `_order`, `_start`, `_limit`, `<field>_gte`.
 */
export function casesFor (target, data) {
  if (target.name === 'P') return platformaticCases(data)
  const api = target.name !== 'B'
  const prefix = api ? '/v1' : ''
  const zooId = () => 1 + int(data.rows)
  const get = path => () => ({ method: 'GET', path })
  const species = encodeURIComponent(data.species)
  const role = encodeURIComponent(data.role)
  const deep = Math.max(0, data.rows - 20)

  const listZoos = '/v1/zoos?country=DE&sortby=name&order=desc&limit=20'
  const service = (make, baseline = SERVICE_ONLY) => target.name === 'service' ? make : baseline
  const bound = () => ({ method: 'GET', headers: { authorization: target.boundAuthorization } })
  const cases = {
    'get-one': () => ({ method: 'GET', path: `${prefix}/zoos/${zooId()}` }),
    'list-zoos': get(api ? listZoos : '/zoos?country=DE&_sort=name&_order=desc&_limit=20'),
    'list-animals': get(api
      ? `/v1/animals?species=${species}&sortby=born_on&order=desc&limit=20`
      : `/animals?species=${species}&_sort=born_on&_order=desc&_limit=20`),
    'list-employees': get(api ? `/v1/employees?role=${role}&sortby=hired_on&limit=20` : `/employees?role=${role}&_sort=hired_on&_limit=20`),
    'list-nested': () => {
      const zoo = 1 + int(data.zoosWithAnimals)
      return {
        method: 'GET',
        path: api ? `/v1/zoos/${zoo}/animals?sortby=name&limit=20` : `/zoos/${zoo}/animals?_sort=name&_limit=20`
      }
    },
    'list-range': get(api
      ? '/v1/zoos?opened_on_gte=2000-01-01&sortby=city&limit=20'
      : '/zoos?opened_on_gte=2000-01-01&_sort=city&_limit=20'),
    'cursor-deep': target.name === 'B'
      ? 'json-server has no keyset cursors'
      : get(target.cursorPath ?? `/v1/zoos?sortby=name&limit=20&cursor=${deep}`),
    'offset-deep': get(api ? `/v1/zoos?limit=20&offset=${deep}` : `/zoos?_start=${deep}&_limit=20`),
    'list-fields': service(get(`${listZoos}&fields=name`)),
    'list-embed-zoo': service(get(`/v1/animals?species=${species}&sortby=born_on&order=desc&limit=20&embed=zoo`)),
    // The zoos that hold animals (about 1000 each): 20 zoos, each with its first 100 animals and their count.
    'list-embed-animals': service(get(`/v1/zoos?id_lte=${data.zoosWithAnimals}&sortby=name&limit=20&embed=animals`)),
    // One city's zoos (1 in 100), then the same with a word every zoo's name has.
    'list-q-one': service(get('/v1/zoos?q=berlin&sortby=name&limit=20'),
      target.name === 'B' ? get('/zoos?q=berlin&_sort=name&_limit=20') : SERVICE_ONLY),
    'list-q-two': service(get('/v1/zoos?q=zoo+berlin&sortby=name&limit=20')),
    // The list-zoos page again, with the ETag its last answer had (target.listEtag, taken just before).
    'list-304': service(Object.assign(() => ({ method: 'GET', path: listZoos, headers: { 'if-none-match': target.listEtag } }),
      { expect: 304 })),
    // The keepers of one zoo (about 1000 at any --rows), in the bench's collection with access rules
    // (bench/access/): read by a token its rules bind to that zoo, and by the bootstrap client, which
    // no rule binds, with the same filter in its query.
    'get-keeper': service(() => ({ method: 'GET', path: `/v1/keepers/${pick(data.boundKeepers)}` })),
    'get-bound': service(() => ({ ...bound(), path: `/v1/keepers/${pick(data.boundKeepers)}` })),
    'list-keepers': service(get(`/v1/keepers?zoo_id=${data.boundZoo}&sortby=name&limit=20`)),
    'list-bound': service(() => ({ ...bound(), path: '/v1/keepers?sortby=name&limit=20' })),
    // Every animal grouped, as S and Spg write the same GROUP BY by hand: 50 species; about 3,600
    // groups of a zoo and a year (100 zoos at 100,000 rows, 35 years and none), a page of 100.
    'aggregate-species': api ? get('/v1/animals/aggregate?group_by=species&min=born_on') : 'json-server has no aggregates',
    'aggregate-zoo-year': api ? get('/v1/animals/aggregate?group_by=zoo_id,born_on:year') : 'json-server has no aggregates',
    'post-one': () => ({
      method: 'POST',
      path: `${prefix}/zoos`,
      body: JSON.stringify({
        name: `bench zoo ${int(1e9)}`,
        city: pick(data.cities),
        country: pick(COUNTRIES),
        opened_on: Math.random() < 0.1 ? null : randomDate()
      })
    }),
    'patch-one': () => ({ method: 'PATCH', path: `${prefix}/zoos/${zooId()}`, body: JSON.stringify({ city: pick(data.cities) }) })
  }
  cases.mixed = () => cases[Math.random() < 0.9 ? pick(MIXED_READS) : pick(MIXED_WRITES)]()
  return cases
}

/**
 * The cases in Platformatic DB's own syntax (P): `where.<field>.<op>`, `orderby.<field>`,
 * camel-cased fields, `totalCount=true` for the X-Total-Count the service always gives. Its
 * writes set what the service sets itself (timestamps, the version), and its only update is
 * `PUT /zoos/:id` with every required field. It has no keyset cursor, and the service's own features are n/a.
 */
function platformaticCases (data) {
  const zooId = () => 1 + int(data.rows)
  const list = query => () => ({ method: 'GET', path: `${query}&limit=20&totalCount=true` })
  const now = () => new Date().toISOString()
  const cases = {
    'get-one': () => ({ method: 'GET', path: `/zoos/${zooId()}` }),
    'list-zoos': list('/zoos?where.country.eq=DE&orderby.name=desc'),
    'list-animals': list(`/animals?where.species.eq=${encodeURIComponent(data.species)}&orderby.bornOn=desc`),
    'list-employees': list(`/employees?where.role.eq=${encodeURIComponent(data.role)}&orderby.hiredOn=asc`),
    'list-nested': () => list(`/animals?where.zooId.eq=${1 + int(data.zoosWithAnimals)}&orderby.name=asc`)(),
    'list-range': list('/zoos?where.openedOn.gte=2000-01-01&orderby.city=asc'),
    'cursor-deep': 'Platformatic DB has no keyset cursor in its REST API',
    'offset-deep': list(`/zoos?orderby.id=asc&offset=${Math.max(0, data.rows - 20)}`),
    'post-one': () => {
      const at = now()
      return {
        method: 'POST',
        path: '/zoos',
        body: JSON.stringify({
          name: `bench zoo ${int(1e9)}`,
          city: pick(data.cities),
          country: pick(COUNTRIES),
          openedOn: Math.random() < 0.1 ? null : randomDate(),
          createdAt: at,
          updatedAt: at,
          version: 1
        })
      }
    },
    // Its update takes every required field: the record's own name and creation are not known here.
    'patch-one': () => {
      const at = now()
      const body = { name: `bench zoo ${int(1e9)}`, city: pick(data.cities), createdAt: at, updatedAt: at, version: 1 }
      return { method: 'PUT', path: `/zoos/${zooId()}`, body: JSON.stringify(body) }
    }
  }
  cases['aggregate-species'] = cases['aggregate-zoo-year'] = 'Platformatic DB\'s REST API has no grouping'
  for (const name of CASES) cases[name] ??= SERVICE_ONLY
  cases.mixed = () => cases[Math.random() < 0.9 ? pick(MIXED_READS) : pick(MIXED_WRITES)]()
  return cases
}
