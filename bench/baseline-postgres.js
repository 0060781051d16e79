// Baseline Spg: the zoo API's bench cases as a developer would write them by hand with Fastify and
// node-postgres, without auth, on a copy of the same PostgreSQL database the service uses: named
// statements (parsed and planned once per connection), the composite indexes its queries need, a
// count(*) per list for X-Total-Count, keyset cursors of its own, each write a statement of its
// own (autocommit), a pool of 10 connections as the service's.
// Environment: PORT, DATABASE_URL, TLS_CERT and TLS_KEY (HTTPS when both are set).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'
import { aggregateOf, groupsOf } from './baseline-aggregates.js'
import pg from 'pg'

const { PORT, DATABASE_URL, TLS_CERT, TLS_KEY } = process.env

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 })
// One index per list query: its equality filter first, then its sort, so a page is read in order.
await pool.query(`
  CREATE INDEX IF NOT EXISTS zoos_country_name_id ON zoos (country, name, id);
  CREATE INDEX IF NOT EXISTS zoos_name_id ON zoos (name, id);
  CREATE INDEX IF NOT EXISTS animals_species_born_on ON animals (species, born_on, id);
  CREATE INDEX IF NOT EXISTS animals_zoo_id_name ON animals (zoo_id, name);
  CREATE INDEX IF NOT EXISTS employees_role_hired_on ON employees (role, hired_on, id);
  ANALYZE;
`)

const FIELDS = {
  zoos: { name: 'string', city: 'string', country: 'string?', opened_on: 'date?' },
  animals: { name: 'string', species: 'string', animal_type_id: 'integer', zoo_id: 'integer?', born_on: 'date?' },
  employees: { name: 'string', role: 'string', email: 'string', zoo_id: 'integer?', hired_on: 'date?' }
}
const OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=', ne: 'IS DISTINCT FROM' }
const PAGING = new Set(['limit', 'offset', 'sortby', 'order', 'cursor'])

/** A named statement: PostgreSQL parses and plans its text once per connection. */
const named = (text, values) => ({ name: `spg_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text, values })
const query = async (text, values) => (await pool.query(named(text, values))).rows

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
/** bigint ids come back as text: a JSON number in the answer. */
const numbered = row => ({ ...row, id: Number(row.id), ...(row.zoo_id == null ? {} : { zoo_id: Number(row.zoo_id) }) })

for (const [table, fields] of Object.entries(FIELDS)) {
  const columns = ['id', ...Object.keys(fields), 'created_at', 'updated_at']
  const select = columns.join(', ')
  const record = recordSchema(fields)

  /** A page of `table`: filters from the query string, then sort, then cursor or offset. */
  async function list (request, reply, fixed = {}) {
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
      if (value === 'null' && (op === undefined || op === 'ne')) {
        where.push(`${field} IS ${op ? 'NOT ' : ''}NULL`)
        continue
      }
      params.push(value)
      where.push(`${field} ${OPERATORS[op] ?? '='} $${params.length}`)
    }
    const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
    const [{ count }] = await query(`SELECT count(*)::int AS count FROM ${table} ${filter}`, params)

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
      pageParams.push(...after)
      page.push(`(${sortby}, id) ${order === 'asc' ? '>' : '<'} ($${pageParams.length - 1}, $${pageParams.length})`)
    }
    const direction = order.toUpperCase()
    const orderBy = sortby === 'id' ? `id ${direction}` : `${sortby} ${direction}, id ${direction}`
    const pageFilter = page.length > 0 ? `WHERE ${page.join(' AND ')}` : ''
    pageParams.push(size, cursor === undefined ? skip : 0)
    const rows = (await query(`SELECT ${select} FROM ${table} ${pageFilter} ORDER BY ${orderBy} ` +
      `LIMIT $${pageParams.length - 1} OFFSET $${pageParams.length}`, pageParams)).map(numbered)

    reply.header('X-Total-Count', count)
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
  app.get(`/v1/${table}/:id`, { schema: { response: { 200: record } } }, async (request, reply) => {
    const [row] = await query(`SELECT ${select} FROM ${table} WHERE id = $1`, [Number(request.params.id)])
    return row === undefined ? reply.code(404).send({ error: 'not found' }) : numbered(row)
  })
  if (table !== 'zoos') {
    app.get(`/v1/zoos/:zoo_id/${table}`, { schema: listSchema }, async (request, reply) => {
      if ((await query('SELECT 1 FROM zoos WHERE id = $1', [Number(request.params.zoo_id)])).length === 0) {
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
  const columns = [...keys.map(k => k.expression), 'count(*)::int', ...mins.map(field => `min(${field})`)]
  const groupBy = keys.length === 0 ? '' : ` GROUP BY ${keys.map(k => k.expression).join(', ')}`
  const orderBy = keys.length === 0 ? '' : ` ORDER BY ${keys.map(k => `${k.expression} NULLS FIRST`).join(', ')}`
  const [rows, [{ total }]] = await Promise.all([
    pool.query({ text: `SELECT ${columns.join(', ')} FROM animals${groupBy}${orderBy} LIMIT 100`, rowMode: 'array' }).then(r => r.rows),
    query(`SELECT count(*)::int AS total FROM (SELECT 1 FROM animals${groupBy}) AS grouped`, [])
  ])
  reply.header('X-Total-Count', total)
  // bigint comes back as text: a reference key as a JSON number.
  const integers = keys.map(k => k.expression === k.field && AGGREGATED[k.field].startsWith('integer'))
  return groupsOf(rows.map(row => row.map((value, i) => integers[i] && value !== null ? Number(value) : value)), keys, mins)
})

// Writes (zoos only: what the bench sends), each one statement in its own transaction.
const zooFields = FIELDS.zoos
const zooBody = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(Object.entries(zooFields).map(([name, type]) => [name, schemaOf(type)]))
}
const zooSelect = ['id', ...Object.keys(zooFields), 'created_at', 'updated_at'].join(', ')
const zooResponse = { 201: recordSchema(zooFields) }

app.post('/v1/zoos', { schema: { body: { ...zooBody, required: ['name', 'city'] }, response: zooResponse } }, async (request, reply) => {
  const now = new Date().toISOString()
  const { name, city, country = null, opened_on: openedOn = null } = request.body
  const [zoo] = await query('INSERT INTO zoos (name, city, country, opened_on, created_at, updated_at) ' +
    `VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${zooSelect}`, [name, city, country, openedOn, now])
  return reply.code(201).header('Location', `/v1/zoos/${zoo.id}`).send(numbered(zoo))
})

app.patch('/v1/zoos/:id', { schema: { body: { ...zooBody, minProperties: 1 }, response: zooResponse } }, async (request, reply) => {
  const fields = Object.keys(request.body)
  const set = fields.map((field, i) => `${field} = $${i + 1}`).join(', ')
  const values = [...Object.values(request.body), new Date().toISOString(), Number(request.params.id)]
  const [zoo] = await query(`UPDATE zoos SET ${set}, updated_at = $${fields.length + 1}, version = version + 1 ` +
    `WHERE id = $${fields.length + 2} RETURNING ${zooSelect}`, values)
  // 201 like the service's PATCH (its spec's choice), so both answer alike.
  return zoo === undefined ? reply.code(404).send({ error: 'not found' }) : reply.code(201).send(numbered(zoo))
})

await app.listen({ host: '127.0.0.1', port: Number(PORT) })
