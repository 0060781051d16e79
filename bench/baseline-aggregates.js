// What the hand-written baselines S and Spg share of the aggregate cases: the query as the bench
// sends it (`group_by` fields, a date by `:year`; `min` of fields) and the groups as the service
// answers them. Each baseline writes its own GROUP BY, sorted by the group's fields, a page of
// 100, and X-Total-Count the number of groups, counted by a second statement.
const BUCKETS = { year: 4, month: 7, day: 10 }

/** The groups of `rows` (the keys, then count, then each min), as the service answers them. */
export const groupsOf = (rows, keys, mins) => rows.map(row => {
  const group = { count: row[keys.length] }
  keys.forEach((key, i) => { group[key.field] = row[i] })
  if (mins.length > 0) group.min = Object.fromEntries(mins.map((field, i) => [field, row[keys.length + 1 + i]]))
  return group
})

/** The keys of `group_by` and the fields of `min`, each a field of `fields`; undefined when one is not. */
export function aggregateOf (query, fields) {
  const keys = (query.group_by ?? '').split(',').filter(Boolean).map(key => {
    const [field, bucket] = key.split(':')
    if (!(field in fields) || (bucket !== undefined && !(bucket in BUCKETS))) return undefined
    return { field, expression: bucket === undefined ? field : `substr(${field}, 1, ${BUCKETS[bucket]})` }
  })
  const mins = (query.min ?? '').split(',').filter(Boolean)
  if (keys.includes(undefined) || mins.some(field => !(field in fields))) return undefined
  return { keys, mins }
}
