// Baseline S: the zoo API's bench cases as a developer would write them by hand with Fastify and
// better-sqlite3, without auth: prepared statements, the indexes its queries need, a count(*) per
// list for X-Total-Count, keyset cursors of its own, one commit per write (WAL, synchronous=FULL).
// Environment: PORT, DATA_DIR (holding zoo.db), TLS_CERT and TLS_KEY (HTTPS when both are set).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import Fastify from 'fastify'
import { aggregateOf, groupsOf } from './baseline-aggregates.js'

const { PORT, DATA_DIR, TLS_CERT, TLS_KEY } = process.env

const db = new Database(join(DATA_DIR, 'zoo.db'))
db.pragma('journal_mode = WAL')
db.pragma('synchronous = FULL')
db.pragma('foreign_keys = ON')
// One index per list query: its equality filter first, then its sort, so a page is read in order.
// The file is the service's, whose migrations already index every column alone: the range case
// (opened_on_gte, sorted by city) walks zoos_city, the cursor case zoos_name.
db.exec(`
  CREATE INDEX IF NOT EXISTS zoos_country_name ON zoos (country, name, id);
  CREATE INDEX IF NOT EXISTS animals_species_born_on ON animals (species, born_on, id);
  CREATE INDEX IF NOT EXISTS animals_zoo_id_name ON animals (zoo_id, name);
  CREATE INDEX IF NOT EXISTS employees_role_hired_on ON employees (role, hired_on, id);
`)

const FIELDS = {
  zoos: { name: 'string', city: 'string', country: 'string?', opened_on: 'date?' },
  animals: { name: 'string', species: 'string', animal_type_id: 'integer', zoo_id: 'integer?', born_on: 'date?' },
  employees: { name: 'string', role: 'string', email: 'string', zoo_id: 'integer?', hired_on: 'date?' }
}
const OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=', ne: 'IS NOT' }
const PAGING = new Set(['limit', 'offset', 'sortby', 'order', 'cursor'])

const statements = new Map()
function sql (text) {
  let statement = statements.get(text)
  if (statement === undefined) statements.set(text, statement = db.prepare(text))
  return statement
}

const schemaOf = type => {
  const [kind, nullable] = [type.replace('?', ''), type.endsWith('?')]
  const schema = kind === 'date' ? { type: 'string', format: 'date' } : { type: kind }
  return nullable ? { ...schema, type: [schema.type, 'null'] } : schema
}
const recordSchema = fields => ({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    ...Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, schemaOf(type)])),
    created_at: { type: 'string' },
    updated_at: { type: 'string' }
  }
})

const app = Fastify(TLS_CERT ? { https: { cert: readFileSync(TLS_CERT), key: readFileSync(TLS_KEY) } } : {})
const badRequest = (reply, message) => reply.code(400).send({ error: message })
const encode = values => Buffer.from(JSON.stringify(values)).toString('base64url')

for (const [table, fields] of Object.entries(FIELDS)) {
  const columns = ['id', ...Object.keys(fields), 'created_at', 'updated_at']
  const select = columns.join(', ')
  const record = recordSchema(fields)

  /** A page of `table`: filters from the query string, then sort, then cursor or offset. */
  function list (request, reply, fixed = {}) {
    const { limit = '20', offset = '0', sortby = 'id', order = 'asc', cursor } = request.query
    const size = Number(limit)
    const skip = Number(offset)
    if (!Number.isInteger(size) || size < 1 || size > 100) return badRequest(reply, 'limit must be 1 to 100')
    if (!Number.isInteger(skip) || skip < 0) return badRequest(reply, 'offset must be 0 or more')
    if (!columns.includes(sortby)) return badRequest(reply, `cannot sort by ${sortby}`)
    if (order !== 'asc' && order !== 'desc') return badRequest(reply, 'order is asc or desc')
    const where = []
    const params = []
    for (const [key, value] of Object.entries({ ...request.query, ...fixed })) {
      if (PAGING.has(key)) continue
      const [, field, op] = /^(.+?)(?:_(gt|gte|lt|lte|ne))?$/.exec(key)
      if (!columns.includes(field)) return badRequest(reply, `unknown parameter ${key}`)
      where.push(value === 'null' && (op === undefined || op === 'ne')
        ? `${field} IS ${op ? 'NOT ' : ''}NULL`
        : `${field} ${OPERATORS[op] ?? '='} ?`)
      if (value !== 'null' || (op !== undefined && op !== 'ne')) params.push(value)
    }
    const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
    const total = sql(`SELECT count(*) FROM ${table} ${filter}`).pluck().get(...params)

    // Keyset: the page after the (sort value, id) the cursor holds. Sort columns that may be null
    // are not supported by these cursors (none of the bench's cursor cases sorts by one).
    const page = [...where]
    const pageParams = [...params]
    if (cursor !== undefined) {
      let after
      try {
        after = JSON.parse(Buffer.from(cursor, 'base64url').toString())
      } catch {}
      if (!Array.isArray(after) || after.length !== 2) return badRequest(reply, 'bad cursor')
      page.push(`(${sortby}, id) ${order === 'asc' ? '>' : '<'} (?, ?)`)
      pageParams.push(...after)
    }
    const direction = order.toUpperCase()
    const orderBy = sortby === 'id' ? `id ${direction}` : `${sortby} ${direction}, id ${direction}`
    const pageFilter = page.length > 0 ? `WHERE ${page.join(' AND ')}` : ''
    const rows = sql(`SELECT ${select} FROM ${table} ${pageFilter} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
      .all(...pageParams, size, cursor === undefined ? skip : 0)

    reply.header('X-Total-Count', total)
    if (rows.length === size) {
      const last = rows[rows.length - 1]
      const next = new URLSearchParams(request.query)
      next.delete('offset')
      next.set('cursor', encode([last[sortby], last.id]))
      reply.header('Link', `<${request.url.split('?')[0]}?${next}>; rel="next"`)
    }
    return rows
  }

  const listSchema = { response: { 200: { type: 'array', items: record } } }
  app.get(`/v1/${table}`, { schema: listSchema }, list)
  app.get(`/v1/${table}/:id`, { schema: { response: { 200: record } } }, (request, reply) => {
    const row = sql(`SELECT ${select} FROM ${table} WHERE id = ?`).get(Number(request.params.id))
    return row ?? reply.code(404).send({ error: 'not found' })
  })
  if (table !== 'zoos') {
    app.get(`/v1/zoos/:zoo_id/${table}`, { schema: listSchema }, (request, reply) => {
      if (sql('SELECT 1 FROM zoos WHERE id = ?').get(Number(request.params.zoo_id)) === undefined) {
        return reply.code(404).send({ error: 'zoo not found' })
      }
      return list(request, reply, { zoo_id: request.params.zoo_id })
    })
  }
}

// Aggregates of animals, as the bench sends them (baseline-aggregates.js).
const AGGREGATED = FIELDS.animals

app.get('/v1/animals/aggregate', async (request, reply) => {
  const asked = aggregateOf(request.query, AGGREGATED)
  if (asked === undefined) return badRequest(reply, 'group_by and min name fields of animals')
  const { keys, mins } = asked
  const columns = [...keys.map(k => k.expression), 'count(*)', ...mins.map(field => `min(${field})`)].join(', ')
  const groupBy = keys.length === 0 ? '' : ` GROUP BY ${keys.map(k => k.expression).join(', ')}`
  const orderBy = keys.length === 0 ? '' : ` ORDER BY ${keys.map(k => k.expression).join(', ')}`
  const rows = sql(`SELECT ${columns} FROM animals${groupBy}${orderBy} LIMIT 100`).raw().all()
  reply.header('X-Total-Count', sql(`SELECT count(*) FROM (SELECT 1 FROM animals${groupBy})`).pluck().get())
  return groupsOf(rows, keys, mins)
})

// Writes (zoos only: what the bench sends). Each statement commits on its own. `.all()`, not
// `.get()`: a RETURNING statement read with get() is left unfinished, and its autocommit then
// costs about twice as long here (measured), which would flatter the service's ratio.
const zooFields = FIELDS.zoos
const zooBody = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(Object.entries(zooFields).map(([name, type]) => [name, schemaOf(type)]))
}
const zooSelect = ['id', ...Object.keys(zooFields), 'created_at', 'updated_at'].join(', ')
const zooResponse = { 201: recordSchema(zooFields) }

app.post('/v1/zoos', { schema: { body: { ...zooBody, required: ['name', 'city'] }, response: zooResponse } }, (request, reply) => {
  const now = new Date().toISOString()
  const [zoo] = sql(
    'INSERT INTO zoos (name, city, country, opened_on, created_at, updated_at) ' +
    `VALUES (@name, @city, @country, @opened_on, @now, @now) RETURNING ${zooSelect}`
  ).all({ country: null, opened_on: null, ...request.body, now })
  return reply.code(201).header('Location', `/v1/zoos/${zoo.id}`).send(zoo)
})

app.patch('/v1/zoos/:id', { schema: { body: { ...zooBody, minProperties: 1 }, response: zooResponse } }, (request, reply) => {
  const set = Object.keys(request.body).map(field => `${field} = @${field}`).join(', ')
  const [zoo] = sql(`UPDATE zoos SET ${set}, updated_at = @now, version = version + 1 WHERE id = @id RETURNING ${zooSelect}`)
    .all({ ...request.body, now: new Date().toISOString(), id: Number(request.params.id) })
  // 201 like the service's PATCH (its spec's choice), so both answer alike.
  return zoo === undefined ? reply.code(404).send({ error: 'not found' }) : reply.code(201).send(zoo)
})

await app.listen({ host: '127.0.0.1', port: Number(PORT) })
