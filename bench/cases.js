// The bench cases and how each target expresses them. A case is a function returning the next
// request ({ method, path, body }), called once per request so that ids and bodies are random per
// request. A case a target cannot express has a reason instead, printed as "n/a".

export const CASES = [
  'get-one', 'list-zoos', 'list-animals', 'list-employees', 'list-nested', 'list-range',
  'cursor-deep', 'offset-deep', 'post-one', 'patch-one', 'mixed'
]

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
  const api = target.name !== 'B'
  const prefix = api ? '/v1' : ''
  const zooId = () => 1 + int(data.rows)
  const get = path => () => ({ method: 'GET', path })
  const species = encodeURIComponent(data.species)
  const role = encodeURIComponent(data.role)
  const deep = Math.max(0, data.rows - 20)

  const cases = {
    'get-one': () => ({ method: 'GET', path: `${prefix}/zoos/${zooId()}` }),
    'list-zoos': get(api ? '/v1/zoos?country=DE&sortby=name&order=desc&limit=20' : '/zoos?country=DE&_sort=name&_order=desc&_limit=20'),
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
