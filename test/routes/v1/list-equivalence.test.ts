/**
 * The safety net of the list path: every list answer (items, their order, X-Total-Count and the
 * Link header; with `q`, `fields` and `embed`) must equal what a plain, unoptimised SQL query on the same records gives (on
 * SQLite the app's own file; on PostgreSQL a SQLite copy of its tables, taken after each write),
 * for random filters and sorts over every field of every collection, with random writes (create,
 * update, replace, delete, refused ones, concurrent ones) between the reads. A store that plans,
 * caches or maintains totals differently must still answer exactly this.
 *
 * Deterministic: one seeded PRNG drives every choice. The seed is printed, and is in every failure
 * message; replay one with LIST_EQUIVALENCE_SEED=<seed>.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import t from 'tap'
import type { Test } from 'tap'
import { Animals } from '../../../schemas/animal.ts'
import { Employees } from '../../../schemas/employee.ts'
import { Zoos } from '../../../schemas/zoo.ts'
import { migrationsOf } from '../../../store/migrations.ts'
import { build, call, openDatabaseFile } from '../../helper.ts'

function seedFromEnvironment (): number {
  const raw = process.env.LIST_EQUIVALENCE_SEED
  if (raw === undefined || raw === '') return 20261123
  const seed = Number(raw)
  if (!Number.isSafeInteger(seed)) throw new Error(`LIST_EQUIVALENCE_SEED must be an integer, got "${raw}"`)
  return seed
}

const SEED = seedFromEnvironment()
/** Iterations of the read/write loop per kind of list (5 kinds). */
const ITERATIONS = 120
/** Walks (with writes between their pages) of the weaker-guarantee sub-test. */
const WALKS_WITH_WRITES = 12

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: small, fast, good enough to explore; the same seed gives the same choices. */
class Random {
  #state: number

  constructor (seed: number) {
    this.#state = (seed ^ Math.floor(seed / 2 ** 32)) >>> 0
  }

  next (): number {
    this.#state = (this.#state + 0x6D2B79F5) >>> 0
    let x = this.#state
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }

  /** 0 to n - 1. */
  int (n: number): number {
    return Math.floor(this.next() * n)
  }

  /** lo to hi, both included. */
  between (lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1)
  }

  chance (p: number): boolean {
    return this.next() < p
  }

  pick<T> (items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from nothing')
    return items[this.int(items.length)] as T
  }

  /** k distinct members (fewer if there are fewer), in random order. */
  some<T> (items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, k)
  }

  shuffle<T> (items: readonly T[]): T[] {
    const copy = [...items]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1)
      const swap = copy[i] as T
      copy[i] = copy[j] as T
      copy[j] = swap
    }
    return copy
  }
}

// ---------------------------------------------------------------------------------------------
// The collections as this test knows them (checked against the schemas in the first sub-test)

type Scalar = string | number | null
type Row = Record<string, Scalar>
type Table = 'zoos' | 'animals' | 'employees'
type Kind = 'integer' | 'reference' | 'string' | 'date' | 'timestamp'
type Op = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in'
type Direction = 'asc' | 'desc'

interface Field { name: string, kind: Kind, nullable: boolean }

const field = (name: string, kind: Kind, nullable = false): Field => ({ name, kind, nullable })
const ID = field('id', 'integer')
const ZOO_ID = field('zoo_id', 'reference', true)
const STAMPS = [field('created_at', 'timestamp'), field('updated_at', 'timestamp')]

const FIELDS: Record<Table, Field[]> = {
  zoos: [
    ID, field('name', 'string'), field('city', 'string'), field('country', 'string', true), field('opened_on', 'date', true), ...STAMPS
  ],
  animals: [
    ID, field('name', 'string'), field('species', 'string'), field('animal_type_id', 'integer'), ZOO_ID, field('born_on', 'date', true),
    ...STAMPS
  ],
  // email is COLLATE NOCASE in the table: the plain query compares it that way, so must the API.
  employees: [
    ID, field('name', 'string'), field('role', 'string'), field('email', 'string'), ZOO_ID, field('hired_on', 'date', true), ...STAMPS
  ]
}
const RESOURCES = { zoos: Zoos, animals: Animals, employees: Employees }
/** The text fields q searches: strings that are no country code. */
const TEXT_FIELDS: Record<Table, string[]> = { zoos: ['name', 'city'], animals: ['name', 'species'], employees: ['name', 'role', 'email'] }
/** What the contract calls words: runs of letters and digits, compared without case or diacritics. */
const wordsIn = (text: string): string[] =>
  text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(word => word !== '')
const TABLES: Table[] = ['zoos', 'animals', 'employees']
const READ_ONLY = new Set(['id', 'created_at', 'updated_at'])
const writableOf = (table: Table): Field[] => FIELDS[table].filter(f => !READ_ONLY.has(f.name))

// ---------------------------------------------------------------------------------------------
// Adversarial values: few distinct values (ties everywhere), case variants, non-ASCII, characters
// that sort differently in UTF-16 and in code-point order (an emoji above U+FFFF against U+E000 to
// U+FFFF), the literal text "null" in fields that cannot be null, commas, URL-special characters.

const TEXT = [
  'Zoo', 'zoo', 'ZOO', 'Zoé', 'null', '🦁', '\uE000', 'a',
  'Zoo ', ' Zoo', 'Zoe', 'zoé', 'ZOÉ', 'Straße', 'STRASSE', 'strasse', 'Ärger', 'arger', 'Zürich',
  '日本', '日本動物園', '🦁 Lion', 'Lion 🦁', '𝔘nicode', '\uE000 private', '\uFF21BC', '\uFFFD', '\uFFFF',
  'NULL', 'Null', 'A', 'b', 'B', '_', '~', '10', '9', '100', 'a,b', 'x&y=z', '50%', 'plus+sign', 'Ωmega', 'ω'
]
const HOT_TEXT = TEXT.slice(0, 8)
const CITIES = ['Berlin', 'berlin', 'BERLIN', 'München', 'Munchen', '東京', 'Tokyo', '🦁 City', '\uE001', 'Ǻ', 'null', 'a,b']
const SPECIES = [
  'Panthera leo', 'panthera leo', 'PANTHERA LEO', 'Ursus arctos', 'ursus arctos', 'Équus', 'Equus', 'Strauß', 'STRAUSS',
  '日本猿', '🐧', '\uE000 sp.', '\uFFFF', 'zebra', 'Zebra'
]
const ROLES = ['keeper', 'Keeper', 'KEEPER', 'vet', 'Vet', 'Tierärztin', 'Tierarztin', '案内', '🦒 guide', '\uF8FF', 'guide', 'Guide']
const COUNTRIES = [null, null, 'DE', 'FR', 'AT', 'CH', 'JP', 'US', 'GB']
const DATES = [
  null, null, '0001-01-01', '1899-12-31', '1900-01-01', '1900-02-28', '1969-12-31', '1970-01-01',
  '1999-12-31', '2000-01-01', '2000-02-29', '2024-02-29', '2024-03-01', '2025-12-31', '9999-12-31'
]
const TYPE_IDS = [1, 1, 2, 3, 9, 10, 11, 99, 100, 101, 1000, 65535, 65536, 2147483647, 2147483648, Number.MAX_SAFE_INTEGER]
// With COLLATE NOCASE '_' sorts before letters of either case; with BINARY it sits between them.
const EMAIL_LOCALS = ['ann', 'Ann', 'ANN', 'bob', 'B', 'b', '_x', '~t', 'z', 'Z', '0', '9', 'a.b', "o'neil", 'x+tag', 'x_y', '{c}']
const EMAIL_DOMAINS = ['zoo.example', 'Zoo.Example', 'ZOO.EXAMPLE', 'a.example', 'B.example']

/** Values a filter may name that few or no records hold. */
const ABSENT_TEXT = ['', 'Zoo!', 'm', 'Zz', '\u{10FFFF}', '\uE000\uE000', '~~', 'AAA', 'zzz', '日', '🦁🦁', '\uD83D\uDC27x']
const ABSENT_COUNTRIES = ['', 'XX', 'de', 'ZZ', 'A', 'DEU', '\uE000']
const ABSENT_DATES = ['0001-01-02', '1000-06-15', '1970-01-02', '2000-02-28', '2024-02-28', '3000-01-01']
const ABSENT_STAMPS = ['1970-01-01T00:00:00.000Z', '2999-12-31T23:59:59.999Z']

function swapCase (r: Random, text: string): string {
  return [...text].map(c => r.chance(0.3) ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : c).join('')
}

// ---------------------------------------------------------------------------------------------
// Queries and their plain SQL translation (written here, independently of the store)

interface Filter {
  field: Field
  op: Op
  /** The query-string value as sent. */
  sent: string
  /** What it means: one value (null: "has no value"), or the list of `in`. */
  values: Scalar[]
}

/** A list: a top-level collection, or one nested under a zoo (which filters on that zoo_id). */
interface Target { table: Table, parent?: number }
/** `q=`: as sent, and the words a record's text fields must each have one beginning with. */
interface Search { sent: string, words: string[] }
interface Query { target: Target, filters: Filter[], q?: Search }
interface SortKey { field: string, direction: Direction }
/** sortby/order as sent, and the complete order they mean (the implicit id included). */
interface Sorting { params: [string, string][], keys: SortKey[] }
interface Paging { params: [string, string][], mode: 'offset' | 'page', size: number, position: number }

const SQL_OPERATOR: Record<Exclude<Op, 'in'>, string> = { eq: '=', ne: 'IS NOT', gt: '>', gte: '>=', lt: '<', lte: '<=' }

const paramName = (filter: Filter): string => filter.op === 'eq' ? filter.field.name : `${filter.field.name}_${filter.op}`
const pathOf = (target: Target): string => target.parent === undefined ? `/v1/${target.table}` : `/v1/zoos/${target.parent}/${target.table}`

function whereOf (query: Query): { sql: string, params: Scalar[] } {
  const filters = query.target.parent === undefined
    ? query.filters
    : [...query.filters, { field: ZOO_ID, op: 'eq' as const, sent: '', values: [query.target.parent] }]
  const terms: string[] = []
  const params: Scalar[] = []
  for (const filter of filters) {
    const column = `"${filter.field.name}"`
    if (filter.op === 'in') {
      terms.push(`${column} IN (${filter.values.map(() => '?').join(', ')})`)
      params.push(...filter.values)
      continue
    }
    const value = filter.values[0] ?? null
    if (value === null) {
      // "=null" has no value; "_ne=null" has one.
      terms.push(filter.op === 'ne' ? `${column} IS NOT NULL` : `${column} IS NULL`)
      continue
    }
    // _ne is IS NOT: a record without a value differs from every value.
    terms.push(`${column} ${SQL_OPERATOR[filter.op]} ?`)
    params.push(value)
  }
  if (query.q !== undefined) {
    terms.push(`search_matches(?, ${TEXT_FIELDS[query.target.table].map(f => `"${f}"`).join(', ')})`)
    params.push(JSON.stringify(query.q.words))
  }
  return { sql: terms.length === 0 ? '' : ` WHERE ${terms.join(' AND ')}`, params }
}

/** The plain answer, read on its own read-only connection to the app's database file. */
/**
 * The oracle: plain SQL on SQLite. On SQLite it reads the app's own file, always current. On
 * PostgreSQL it reads an in-memory SQLite database made by the SQLite migrations, with the same
 * collation rules, and filled again with the app's rows after every write (`sync`).
 */
class Reference {
  readonly db: Database.Database
  /** On PostgreSQL, a connection of its own to the app's schema, which the copy is made from. */
  readonly copyOf: pg.Client | undefined

  private constructor (db: Database.Database, copyOf: pg.Client | undefined) {
    this.db = db
    this.copyOf = copyOf
    // q: every word of the query begins a word of one of the text fields.
    db.function('search_matches', { varargs: true, deterministic: true }, (wanted: unknown, ...texts: unknown[]) => {
      const words = texts.flatMap(text => typeof text === 'string' ? wordsIn(text) : [])
      return (JSON.parse(String(wanted)) as string[]).every(prefix => words.some(word => word.startsWith(prefix))) ? 1 : 0
    })
  }

  static async of (app: FastifyInstance): Promise<Reference> {
    if (app.config.databaseUrl === undefined) return new Reference(openDatabaseFile(app), undefined)
    const copy = new Database(':memory:')
    for (const migration of migrationsOf('sqlite')) copy.exec(migration.sql)
    // A copy of rows that were consistent where they came from, made table by table.
    copy.pragma('foreign_keys = OFF')
    const client = new pg.Client({ connectionString: app.config.databaseUrl })
    await client.connect()
    const reference = new Reference(copy, client)
    await reference.sync()
    return reference
  }

  async close (): Promise<void> {
    this.db.close()
    await this.copyOf?.end()
  }

  /** The copy being made: writes sent together each ask for one, made one after the other on the one connection. */
  #syncing: Promise<void> = Promise.resolve()

  /**
   * After a write: the copy made anew from the app's tables, over the one connection and with one
   * insert a table (a connection and a statement a row made this test take two minutes on PostgreSQL).
   */
  async sync (): Promise<void> {
    this.#syncing = this.#syncing.then(() => this.#copied())
    await this.#syncing
  }

  async #copied (): Promise<void> {
    if (this.copyOf === undefined) return
    const tables = ['zoos', 'animals', 'employees', 'tombstones']
    const rows: Record<string, unknown>[][] = []
    for (const table of tables) rows.push((await this.copyOf.query(`SELECT * FROM ${table}`)).rows)
    this.db.transaction(() => {
      for (const [i, table] of tables.entries()) {
        this.db.exec(`DELETE FROM ${table}`)
        const first = rows[i]?.[0]
        if (first === undefined) continue
        // PostgreSQL keeps the search words in the table; SQLite beside it.
        const names = Object.keys(first).filter(name => name !== 'search' && name !== 'search_words')
        const insert = this.db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`)
        for (const row of rows[i] as Record<string, unknown>[]) insert.run(...names.map(name => row[name]))
      }
    })()
  }

  count (query: Query): number {
    const { sql, params } = whereOf(query)
    return this.db.prepare(`SELECT count(*) FROM "${query.target.table}"${sql}`).pluck().get(...params) as number
  }

  /** SQLite puts NULL first ascending and last descending: the contract says the same. */
  rows (query: Query, keys: SortKey[], limit = -1, offset = 0): Row[] {
    const { sql, params } = whereOf(query)
    const orderBy = keys.map(k => `"${k.field}" ${k.direction === 'asc' ? 'ASC' : 'DESC'}`).join(', ')
    const rows = this.db.prepare(`SELECT * FROM "${query.target.table}"${sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as Row[]
    return rows.map(row => {
      const record = { ...row }
      delete record.version
      return record
    })
  }

  all (table: Table): Row[] {
    return this.rows({ target: { table }, filters: [] }, [{ field: 'id', direction: 'asc' }])
  }

  /** The record of `table` with `id`, or null. */
  one (table: Table, id: number): Row | null {
    const found = this.db.prepare(`SELECT * FROM "${table}" WHERE id = ?`).get(id) as Row | undefined
    if (found === undefined) return null
    const record = { ...found }
    delete record.version
    return record
  }

  /** The first `limit` records of `table` that name zoo `zooId`, in id order, and how many there are. */
  children (table: Table, zooId: number, limit: number): { items: Row[], total: number } {
    const query: Query = { target: { table }, filters: [{ field: ZOO_ID, op: 'eq', sent: '', values: [zooId] }] }
    return { items: this.rows(query, [{ field: 'id', direction: 'asc' }], limit), total: this.count(query) }
  }

  live (table: Table): number[] {
    return this.db.prepare(`SELECT id FROM "${table}" ORDER BY id`).pluck().all() as number[]
  }

  deleted (table: Table): number[] {
    return this.db.prepare('SELECT id FROM tombstones WHERE collection = ? ORDER BY id').pluck().all(table) as number[]
  }

  isLive (table: Table, id: number): boolean {
    return this.db.prepare(`SELECT 1 FROM "${table}" WHERE id = ?`).get(id) !== undefined
  }

  version (table: Table, id: number): number | undefined {
    return this.db.prepare(`SELECT version FROM "${table}" WHERE id = ?`).pluck().get(id) as number | undefined
  }
}

// ---------------------------------------------------------------------------------------------
// The Link header, compared as path plus the set of decoded parameters (their order is no contract)

const CURSOR = '(a cursor)'

function canonical (path: string, entries: [string, string][]): string {
  const sorted = [...entries].sort(([a, x], [b, y]) => a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0)
  return `${path} ${JSON.stringify(sorted)}`
}

function rawLinks (header: LightMyRequestResponse['headers'][string]): Record<string, string> {
  if (header === undefined) return {}
  return Object.fromEntries(String(header).split(', ').map(part => {
    const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part) ?? [undefined, part, 'unparsable']
    return [rel, url]
  }))
}

function canonicalLinks (header: LightMyRequestResponse['headers'][string]): Record<string, string> {
  return Object.fromEntries(Object.entries(rawLinks(header)).map(([rel, url]) => {
    const u = new URL(url)
    const entries = [...u.searchParams].map(([k, v]): [string, string] => [k, k === 'cursor' ? CURSOR : v])
    return [rel, canonical(u.pathname, entries)]
  }))
}

/** What the contract says: first, prev, next (a cursor, when more records follow) and last, keeping the other parameters. */
function expectedLinks (
  path: string,
  params: [string, string][],
  paging: Omit<Paging, 'params'>,
  total: number,
  more: boolean
): Record<string, string> {
  const { mode, size, position } = paging
  const kept = params.filter(([name]) => !['offset', 'page', 'cursor'].includes(name))
  const at = (p: number): string =>
    canonical(path, [...kept, mode === 'page' ? ['page', String(Math.floor(p / size) + 1)] : ['offset', String(p)]])
  const links: Record<string, string> = { first: at(0) }
  if (position > 0) links.prev = at(Math.max(0, position - size))
  if (more) links.next = canonical(path, [...kept, ['cursor', CURSOR]])
  links.last = at(total === 0 ? 0 : Math.floor((total - 1) / size) * size)
  return links
}

const urlOf = (path: string, params: [string, string][]): string =>
  params.length === 0 ? path : `${path}?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`

const paramsOf = (url: string): [string, string][] => [...new URL(url, 'http://localhost').searchParams]

// ---------------------------------------------------------------------------------------------
// The world: the app, the reference connection, the PRNG and what the writes need

interface Stats {
  reads: number
  walks: number
  walkPages: number
  writes: Record<string, number>
}

interface World {
  app: FastifyInstance
  ref: Reference
  r: Random
  /** A few zoos that get most animals and employees, so that nested lists are long. */
  hotZoos: number[]
  emails: number
  stats: Stats
}

const failure = (what: string): string => `seed ${SEED} (replay: LIST_EQUIVALENCE_SEED=${SEED}): ${what}`

function freshEmail (w: World): string {
  w.emails++
  return swapCase(w.r, `${w.r.pick(EMAIL_LOCALS)}.${w.emails}@${w.r.pick(EMAIL_DOMAINS)}`)
}

/** A zoo to reference: mostly a live one (often a hot one), sometimes none, rarely one that is gone (422). */
function zooRef (w: World, stale: boolean): number | null {
  const x = w.r.next()
  if (x < 0.2) return null
  const live = w.ref.live('zoos')
  if (x < 0.6) {
    const hot = w.hotZoos.filter(id => live.includes(id))
    if (hot.length > 0) return w.r.pick(hot)
  }
  if (stale && x > 0.97) return w.r.pick([...w.ref.deleted('zoos'), 999_999_999])
  return live.length === 0 ? null : w.r.pick(live)
}

function valueOf (w: World, table: Table, name: string, stale: boolean): Scalar {
  const r = w.r
  switch (`${table}.${name}`) {
    case 'zoos.city': return r.pick(CITIES)
    case 'zoos.country': return r.pick(COUNTRIES)
    case 'animals.species': return r.pick(SPECIES)
    case 'animals.animal_type_id': return r.pick(TYPE_IDS)
    case 'employees.role': return r.pick(ROLES)
    case 'employees.email': return freshEmail(w)
    case 'animals.zoo_id':
    case 'employees.zoo_id': return zooRef(w, stale)
    case 'zoos.opened_on':
    case 'animals.born_on':
    case 'employees.hired_on': return r.pick(DATES)
    default: return r.chance(0.5) ? r.pick(HOT_TEXT) : r.pick(TEXT)
  }
}

/** A body for POST or PUT; an optional field is sometimes left out (it is then null). */
function newRecord (w: World, table: Table, { stale = true, without = '' } = {}): Row {
  const body: Row = {}
  for (const f of writableOf(table)) {
    if (f.name === without || (f.nullable && w.r.chance(0.25))) continue
    body[f.name] = valueOf(w, table, f.name, stale)
  }
  return body
}

// ---------------------------------------------------------------------------------------------
// Random writes

interface Outcome {
  label: string
  status: number
  allowed: number[]
  body: string
  /** Records of `table` a write went for (update, replace, delete), created ones aside. */
  touched: { table: Table, id: number }[]
}

type WriteKind = 'create' | 'create-nested' | 'refused-batch' | 'patch' | 'put' | 'delete' | 'stale' | 'if-match'
const WRITE_WEIGHTS: [WriteKind | 'burst', number][] = [
  ['create', 14], ['create-nested', 6], ['refused-batch', 4], ['patch', 30], ['put', 12],
  ['delete', 16], ['stale', 3], ['if-match', 5], ['burst', 10]
]

function weighted<T> (r: Random, choices: [T, number][]): T {
  let x = r.next() * choices.reduce((sum, [, weight]) => sum + weight, 0)
  for (const [choice, weight] of choices) {
    x -= weight
    if (x < 0) return choice
  }
  return (choices.at(-1) as [T, number])[0]
}

interface WriteOptions {
  /** The collection to write to; random when left out. */
  table?: Table
  /** A zoo that must stay (the parent of a walk in progress). */
  protectZoo?: number
}

/** One random write, or a burst of concurrent ones; every outcome is returned, none asserted here. */
async function randomWrite (w: World, options: WriteOptions = {}): Promise<Outcome[]> {
  const kind = weighted(w.r, WRITE_WEIGHTS)
  if (kind !== 'burst') return [await oneWrite(w, kind, options.table ?? w.r.pick(TABLES), options, false)]
  const writes = Array.from({ length: w.r.between(2, 5) }, () => {
    const k = weighted(w.r, WRITE_WEIGHTS.filter(([name]) => name !== 'burst') as [WriteKind, number][])
    return oneWrite(w, k, options.table ?? w.r.pick(TABLES), options, true)
  })
  return Promise.all(writes)
}

/**
 * Picks its target synchronously (before its first await), so that the writes of a burst are
 * chosen from one state and then run concurrently. In a burst, a write may meet the effect of
 * another (its record deleted, its zoo gone, its email taken): 404, 409, 410 and 422 are fine then.
 */
async function oneWrite (w: World, kind: WriteKind, table: Table, options: WriteOptions, concurrent: boolean): Promise<Outcome> {
  const { r, ref } = w
  const live = ref.live(table).filter(id => !(table === 'zoos' && id === options.protectZoo))
  if (live.length === 0 && ['patch', 'put', 'delete', 'if-match'].includes(kind)) kind = 'create'
  const send = async (
    label: string,
    method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    body: unknown,
    allowed: number[],
    touched: Outcome['touched'] = [],
    headers: Record<string, string> = {}
  ): Promise<Outcome> => {
    w.stats.writes[kind] = (w.stats.writes[kind] ?? 0) + 1
    const res = await call(w.app, method, url, body, headers)
    await w.ref.sync()
    return {
      label: `${label}: ${method} ${url}${body === undefined ? '' : ` ${JSON.stringify(body).slice(0, 300)}`}`,
      status: res.statusCode,
      allowed: concurrent ? [...allowed, 404, 409, 410, 422] : allowed,
      body: res.body.slice(0, 300),
      touched
    }
  }
  const refersToZoo = table !== 'zoos'

  switch (kind) {
    case 'create': {
      const body = r.chance(0.6) ? newRecord(w, table) : Array.from({ length: r.between(2, 40) }, () => newRecord(w, table))
      return send('create', 'POST', `/v1/${table}`, body, refersToZoo ? [201, 422] : [201])
    }
    case 'create-nested': {
      const child: Table = r.chance(0.5) ? 'animals' : 'employees'
      const parent = zooRef(w, false) ?? ref.live('zoos')[0]
      if (parent === undefined) return oneWrite(w, 'create', 'zoos', options, concurrent)
      const body = r.chance(0.6)
        ? newRecord(w, child, { without: 'zoo_id' })
        : Array.from({ length: r.between(2, 20) }, () => newRecord(w, child, { without: 'zoo_id' }))
      return send('create in a zoo', 'POST', `/v1/zoos/${parent}/${child}`, body, [201])
    }
    case 'refused-batch': {
      // All or none: a batch with one bad record changes nothing, totals included.
      const body = Array.from({ length: r.between(2, 20) }, () => newRecord(w, table, { stale: false }))
      const bad = r.int(body.length)
      if (table === 'employees') {
        const emails = ref.all('employees').map(e => String(e.email))
        if (emails.length === 0) return oneWrite(w, 'create', table, options, concurrent)
        // email is unique whatever its case: a case variant of a taken one is refused.
        ;(body[bad] as Row).email = r.pick(emails).toUpperCase()
        return send('refused batch (an email taken in another case)', 'POST', '/v1/employees', body, [422])
      }
      if (table === 'animals') {
        (body[bad] as Row).zoo_id = 999_999_999
        return send('refused batch (a zoo that does not exist)', 'POST', '/v1/animals', body, [422])
      }
      (body[bad] as Row).country = 'XX'
      return send('refused batch (a country that does not exist)', 'POST', '/v1/zoos', body, [422])
    }
    case 'patch': {
      const id = r.pick(live)
      const changes: Row = {}
      let refusable = false
      for (const f of r.some(writableOf(table), r.int(4))) {
        if (f.nullable && r.chance(0.35)) changes[f.name] = null
        else if (f.name === 'email') {
          const own = String(ref.all('employees').find(e => e.id === id)?.email)
          const others = ref.all('employees').filter(e => e.id !== id).map(e => String(e.email))
          const x = r.next()
          // Its own email in another case is no conflict; another's is.
          if (x < 0.25) changes.email = swapCase(r, own)
          else if (x < 0.4 && others.length > 0) {
            changes.email = swapCase(r, r.pick(others))
            refusable = true
          } else changes.email = freshEmail(w)
        } else changes[f.name] = valueOf(w, table, f.name, true)
        if (f.name === 'zoo_id') refusable = true
      }
      return send('update', 'PATCH', `/v1/${table}/${id}`, changes, refusable ? [201, 422] : [201], [{ table, id }])
    }
    case 'put': {
      const id = r.pick(live)
      const current = ref.all(table).find(row => row.id === id) as Row
      const body = newRecord(w, table)
      if (table === 'employees' && r.chance(0.5)) body.email = current.email ?? null
      // Read-only fields may be sent back as read; they are ignored.
      if (r.chance(0.2)) Object.assign(body, { id, created_at: current.created_at, updated_at: current.updated_at })
      return send('replace', 'PUT', `/v1/${table}/${id}`, body, refersToZoo ? [201, 422] : [201], [{ table, id }])
    }
    case 'delete': {
      const id = r.pick(live)
      if (table !== 'zoos' && r.chance(0.4)) {
        const zoo = ref.all(table).find(row => row.id === id)?.zoo_id ?? null
        if (zoo !== null) {
          // Through the nested path; the wrong zoo is 404 and deletes nothing.
          const wrong = r.chance(0.15)
          const url = `/v1/zoos/${wrong ? Number(zoo) + 1 : zoo}/${table}/${id}`
          return send('delete in a zoo', 'DELETE', url, undefined, wrong ? [404, 410] : [204], [{ table, id }])
        }
      }
      // A zoo that animals or employees still name is 409: nothing is deleted.
      return send('delete', 'DELETE', `/v1/${table}/${id}`, undefined, table === 'zoos' ? [204, 409] : [204], [{ table, id }])
    }
    case 'stale': {
      const gone = ref.deleted(table)
      const id = gone.length > 0 && r.chance(0.7) ? r.pick(gone) : 999_999_999
      const body = r.chance(0.5) ? { name: r.pick(TEXT) } : undefined
      const method = body === undefined ? 'DELETE' : 'PATCH'
      return send('write to a record that is not there', method, `/v1/${table}/${id}`, body, gone.includes(id) ? [410] : [404])
    }
    case 'if-match': {
      const id = r.pick(live)
      const version = ref.version(table, id) ?? 0
      const right = r.chance(0.4)
      const headers = { 'if-match': `"${right ? version : version + 7}"` }
      if (r.chance(0.3)) {
        const allowed = right ? (table === 'zoos' ? [204, 409] : [204]) : [412]
        return send('conditional delete', 'DELETE', `/v1/${table}/${id}`, undefined, allowed, [{ table, id }], headers)
      }
      const body = { name: r.pick(TEXT) }
      return send('conditional update', 'PATCH', `/v1/${table}/${id}`, body, right ? [201] : [412], [{ table, id }], headers)
    }
  }
}

/** A body for POST whose fields take the values the query filters on (when it can: ranges take their bound). */
function matching (w: World, query: Query): Row {
  const body = newRecord(w, query.target.table, { stale: false, ...(query.target.parent === undefined ? {} : { without: 'zoo_id' }) })
  for (const filter of query.filters) {
    if (READ_ONLY.has(filter.field.name) || (filter.op === 'ne' && filter.values[0] !== null)) continue
    // A nested POST takes zoo_id from its path only.
    if (query.target.parent !== undefined && filter.field.name === 'zoo_id') continue
    if (filter.op === 'ne') body[filter.field.name] = valueOf(w, query.target.table, filter.field.name, false)
    else body[filter.field.name] = w.r.pick(filter.values)
  }
  return body
}

/**
 * A write aimed at a recurring query, which is read right after it: a total kept per filter set
 * and not maintained exactly on that kind of write shows there. One record gets a field the query
 * filters on set to the filter's own value (into the filter, or onto a range's bound) or to another
 * (out of it), or, for a nested list, moves into or out of its zoo, through PATCH or PUT; or records
 * that match are created, or a batch of them is refused; or one that matches is deleted.
 */
async function targetedWrite (w: World, pool: Query[]): Promise<{ outcome: Outcome, query: Query } | undefined> {
  const r = w.r
  if (pool.length === 0) return undefined
  const query = r.pick(pool)
  const { table, parent } = query.target
  if (parent !== undefined && !w.ref.isLive('zoos', parent)) return undefined
  const rows = w.ref.all(table)
  if (rows.length === 0) return undefined
  const path = parent === undefined ? `/v1/${table}` : `/v1/zoos/${parent}/${table}`
  const send = async (
    method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    body: unknown,
    allowed: number[],
    touched: Outcome['touched']
  ) => {
    w.stats.writes[`targeted ${method}`] = (w.stats.writes[`targeted ${method}`] ?? 0) + 1
    const res = await call(w.app, method, url, body)
    await w.ref.sync()
    const label = `targeted ${method} ${url}${body === undefined ? '' : ` ${JSON.stringify(body).slice(0, 300)}`}`
    return { query, outcome: { label, status: res.statusCode, allowed, body: res.body.slice(0, 300), touched } }
  }
  const action = weighted(r, [['update', 60], ['create', 15], ['delete', 15], ['refused', 10]] as [string, number][])
  // A filter's value need not be a valid field value ("", "XX", -1, a taken email): 422 then.
  if (action === 'create') {
    const body = r.chance(0.5) ? matching(w, query) : Array.from({ length: r.between(2, 5) }, () => matching(w, query))
    return send('POST', path, body, [201, 422], [])
  }
  if (action === 'refused') {
    const body = Array.from({ length: r.between(2, 5) }, () => matching(w, query))
    const bad = body[r.int(body.length)] as Row
    if (table === 'employees') bad.email = String(r.pick(rows).email).toUpperCase()
    else if (table === 'animals') bad.animal_type_id = 0
    else bad.country = 'XX'
    return send('POST', path, body, [422], [])
  }
  if (action === 'delete') {
    const matches = w.ref.rows(query, [{ field: 'id', direction: 'asc' }])
    const id = (matches.length > 0 ? r.pick(matches) : r.pick(rows)).id as number
    return send('DELETE', `/v1/${table}/${id}`, undefined, table === 'zoos' ? [204, 409] : [204], [{ table, id }])
  }
  const filters = query.filters.filter(f => !READ_ONLY.has(f.field.name))
  if (parent === undefined && filters.length === 0) return undefined
  let name: string
  let value: Scalar
  if (parent !== undefined && (filters.length === 0 || r.chance(0.3))) {
    name = 'zoo_id'
    value = r.chance(0.5) ? parent : zooRef(w, false)
  } else {
    const filter = r.pick(filters)
    name = filter.field.name
    value = r.chance(0.7) ? r.pick(filter.values) : valueOf(w, table, name, false)
  }
  const mine = parent === undefined ? [] : rows.filter(row => row.zoo_id === parent)
  const current = mine.length > 0 && r.chance(0.5) ? r.pick(mine) : r.pick(rows)
  const id = current.id as number
  if (r.chance(0.6)) return send('PATCH', `/v1/${table}/${id}`, { [name]: value }, [201, 422], [{ table, id }])
  const body = { ...Object.fromEntries(writableOf(table).map(f => [f.name, current[f.name] ?? null])), [name]: value }
  return send('PUT', `/v1/${table}/${id}`, body, [201, 422], [{ table, id }])
}

function checkOutcomes (t: Test, outcomes: Outcome[]): void {
  for (const o of outcomes) {
    if (!o.allowed.includes(o.status)) {
      t.fail(failure(`${o.label} answered ${o.status}, expected one of ${o.allowed.join(', ')}: ${o.body}`))
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Random reads

const OPS: Op[] = ['eq', 'eq', 'eq', 'ne', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'in']

/** A value of the field: mostly one a record holds (so that filters match), sometimes another. */
function sampleValue (w: World, f: Field, rows: Row[], forList: boolean): string | number {
  const r = w.r
  const held = rows.map(row => row[f.name]).filter((v): v is string | number => v !== null && v !== undefined)
  if (held.length > 0 && r.chance(0.75)) {
    const value = r.pick(held)
    if (f.kind === 'string' && r.chance(0.25)) {
      return r.pick([String(value).toUpperCase(), String(value).toLowerCase(), swapCase(r, String(value))])
    }
    if (f.kind === 'timestamp' && r.chance(0.2)) return new Date(new Date(String(value)).getTime() + r.pick([-1, 1])).toISOString()
    return value
  }
  switch (f.kind) {
    case 'integer':
    case 'reference': {
      const max = held.length === 0 ? 0 : Math.max(...held.map(Number))
      return r.pick(f.name === 'animal_type_id' ? [0, -5, 4, 5000, 2147483646] : [0, -1, max + 1, 999_999_999, Number.MAX_SAFE_INTEGER])
    }
    case 'date': return r.pick(ABSENT_DATES)
    case 'timestamp': return r.pick(ABSENT_STAMPS)
    case 'string': {
      const pool = (f.nullable ? ABSENT_COUNTRIES : ABSENT_TEXT).filter(v => !forList || v !== '')
      return r.pick(pool)
    }
  }
}

/** Timestamps are compared as instants: now and then one is sent with +00:00 instead of Z. */
const sentForm = (r: Random, f: Field, value: string | number): string =>
  f.kind === 'timestamp' && r.chance(0.15) ? String(value).replace(/Z$/, '+00:00') : String(value)

function randomFilter (w: World, f: Field, rows: Row[]): Filter {
  const r = w.r
  const op = r.pick(OPS)
  if ((op === 'eq' || op === 'ne') && f.nullable && r.chance(0.3)) return { field: f, op, sent: 'null', values: [null] }
  if (op === 'in') {
    const picked = Array.from({ length: r.between(1, 4) }, () => sampleValue(w, f, rows, true))
    const sent = picked.map(v => sentForm(r, f, v)).join(',')
    // The list is comma-separated: a value holding a comma is two values.
    const values = f.kind === 'string' ? sent.split(',') : picked
    return { field: f, op, sent, values }
  }
  const value = sampleValue(w, f, rows, false)
  return { field: f, op, sent: sentForm(r, f, value), values: [value] }
}

function randomFilters (w: World, table: Table, rows: Row[], count: number): Filter[] {
  const filters: Filter[] = []
  for (let attempt = 0; filters.length < count && attempt < 20; attempt++) {
    const filter = randomFilter(w, w.r.pick(FIELDS[table]), rows)
    // A parameter given twice is 400: one of each name.
    if (!filters.some(f => paramName(f) === paramName(filter))) filters.push(filter)
  }
  return filters
}

function randomSorting (r: Random, table: Table): Sorting {
  const count = r.pick([0, 1, 1, 1, 2, 2])
  if (count === 0) {
    const direction: Direction = r.chance(0.5) ? 'asc' : 'desc'
    const withOrder = r.chance(0.3)
    return { params: withOrder ? [['order', direction]] : [], keys: [{ field: 'id', direction: withOrder ? direction : 'asc' }] }
  }
  const names = r.some(FIELDS[table].map(f => f.name), count)
  const style = r.pick(['none', 'one', 'each'] as const)
  const directions: Direction[] = style === 'none'
    ? []
    : Array.from({ length: style === 'one' ? 1 : count }, () => r.pick(['asc', 'desc'] as const))
  const keys: SortKey[] = names.map((name, i) => ({
    field: name,
    direction: directions.length === 0 ? 'asc' : (directions[directions.length === 1 ? 0 : i] as Direction)
  }))
  // The implicit tie-breaker: id, in the direction of the last sort field.
  if (!names.includes('id')) keys.push({ field: 'id', direction: (keys.at(-1) as SortKey).direction })
  const params: [string, string][] = [['sortby', names.join(',')]]
  if (directions.length > 0) params.push(['order', directions.join(',')])
  return { params, keys }
}

function randomPaging (r: Random, total: number): Paging {
  const size = (): number => r.chance(0.5) ? r.pick([1, 2, 3, 7, 10, 20, 50, 100]) : r.between(1, 100)
  const x = r.next()
  if (x < 0.2) return { params: [], mode: 'offset', size: 20, position: 0 }
  if (x < 0.65) {
    const limit = r.chance(0.85) ? size() : undefined
    const y = r.next()
    const offset = y < 0.25 ? undefined : y < 0.4 ? 0 : y < 0.85 ? r.between(0, Math.max(0, total - 1)) : total + r.between(0, 50)
    const params: [string, string][] = []
    if (limit !== undefined) params.push(['limit', String(limit)])
    if (offset !== undefined) params.push(['offset', String(offset)])
    return { params, mode: 'offset', size: limit ?? 20, position: offset ?? 0 }
  }
  const perPage = r.chance(0.85) ? size() : undefined
  const pages = Math.ceil(total / (perPage ?? 20))
  const page = r.chance(0.2) ? undefined : r.between(1, pages + 2)
  const params: [string, string][] = []
  if (perPage !== undefined) params.push(['per_page', String(perPage)])
  if (page !== undefined) params.push(['page', String(page)])
  // Without page or per_page, the links are in offset form.
  return { params, mode: params.length === 0 ? 'offset' : 'page', size: perPage ?? 20, position: ((page ?? 1) - 1) * (perPage ?? 20) }
}

/** The parameters of a query's filters and search. */
const queryParams = (query: Query): [string, string][] => [
  ...query.filters.map((f): [string, string] => [paramName(f), f.sent]),
  ...(query.q === undefined ? [] : [['q', query.q.sent] as [string, string]])
]

/** What a read answers of each record: `fields` (id and these), `embed` (the members added). */
interface Shape { params: [string, string][], fields?: string[], embed: string[] }

const CHILD_LIMIT = 100
const EMBEDS: Record<Table, string[]> = { zoos: ['animals', 'employees'], animals: ['zoo'], employees: ['zoo'] }

function randomShape (r: Random, table: Table): Shape {
  const shape: Shape = { params: [], embed: [] }
  if (r.chance(0.25)) {
    const names = r.some(FIELDS[table].map(f => f.name), r.between(1, 3))
    shape.params.push(['fields', names.join(',')])
    shape.fields = FIELDS[table].map(f => f.name).filter(name => name === 'id' || names.includes(name))
  }
  if (r.chance(0.2)) {
    shape.embed = r.some(EMBEDS[table], r.between(1, EMBEDS[table].length))
    shape.params.push(['embed', shape.embed.join(',')])
  }
  return shape
}

/** The reference's rows as a read of `shape` answers them. */
function shaped (ref: Reference, table: Table, shape: Shape, rows: Row[]): Record<string, unknown>[] {
  return rows.map(row => {
    const answered: Record<string, unknown> = shape.fields === undefined
      ? { ...row }
      : Object.fromEntries(shape.fields.map(name => [name, row[name]]))
    for (const name of shape.embed) {
      if (name === 'zoo') {
        answered.zoo = row.zoo_id === null ? null : ref.one('zoos', row.zoo_id as number)
      } else {
        const { items, total } = ref.children(name as Table, row.id as number, CHILD_LIMIT)
        answered[name] = items
        answered[`${name}_total`] = total
      }
    }
    return answered
  })
}

/** A search of one or two words that records hold (a prefix, in another case), sometimes with one they do not. */
function randomSearch (w: World, table: Table, rows: Row[]): Search | undefined {
  const r = w.r
  const held = rows.flatMap(row => TEXT_FIELDS[table].flatMap(f => typeof row[f] === 'string' ? wordsIn(row[f] as string) : []))
  if (held.length === 0) return undefined
  const sent = Array.from({ length: r.pick([1, 1, 2]) }, () => {
    const word = r.chance(0.1) ? r.pick(['zz9', 'qqq', 'ö']) : r.pick(held)
    const prefix = [...word].slice(0, r.between(1, [...word].length)).join('')
    return r.chance(0.3) ? prefix.toUpperCase() : prefix
  })
  const text = r.chance(0.2) ? `${sent.join(', ')}!` : sent.join(' ')
  const words = [...new Set(wordsIn(text))]
  return words.length === 0 ? undefined : { sent: text, words }
}

/** What the API answered, in the shape the reference is put in. */
function answerOf (res: LightMyRequestResponse) {
  return {
    status: res.statusCode,
    items: res.statusCode === 200 ? res.json() : res.body,
    total: res.headers['x-total-count'],
    links: canonicalLinks(res.headers.link)
  }
}

/** One list read against the reference: one assertion. */
async function checkRead (t: Test, w: World, query: Query, sorting: Sorting): Promise<void> {
  const total = w.ref.count(query)
  const paging = randomPaging(w.r, total)
  const shape = randomShape(w.r, query.target.table)
  const params = w.r.shuffle([...queryParams(query), ...sorting.params, ...paging.params, ...shape.params])
  const path = pathOf(query.target)
  const url = urlOf(path, params)
  const res = await call(w.app, 'GET', url)
  w.stats.reads++
  const expected = {
    status: 200,
    items: shaped(w.ref, query.target.table, shape, w.ref.rows(query, sorting.keys, paging.size, paging.position)),
    total: String(w.ref.count(query)),
    links: expectedLinks(path, params, paging, total, total > paging.position + paging.size)
  }
  t.strictSame(answerOf(res), expected, failure(`GET ${url}`))
}

interface WalkResult {
  url: string
  items: Row[]
  problems: string[]
}

/**
 * Follows next links from a first page to the end. With `between`, something happens between two
 * pages, and only what stays exact then is checked per page (the total, first, prev and last).
 */
async function walk (
  w: World,
  query: Query,
  sorting: Sorting,
  start: { mode: 'offset' | 'page', size: number, offset: number },
  between?: () => Promise<void>
): Promise<WalkResult> {
  const path = pathOf(query.target)
  const paging: [string, string][] = start.mode === 'offset'
    ? [['limit', String(start.size)], ...(start.offset > 0 ? [['offset', String(start.offset)] as [string, string]] : [])]
    : [['per_page', String(start.size)], ...(w.r.chance(0.5) ? [['page', '1'] as [string, string]] : [])]
  const filterParams = queryParams(query)
  const first = urlOf(path, w.r.shuffle([...filterParams, ...sorting.params, ...paging]))
  const result: WalkResult = { url: first, items: [], problems: [] }
  const cap = Math.ceil(w.ref.count(query) / start.size) + (between === undefined ? 3 : 100)
  let url: string | undefined = first
  let position = start.offset
  w.stats.walks++
  for (let page = 0; url !== undefined; page++) {
    if (page > cap) {
      result.problems.push(`more than ${cap} pages: the next links never end`)
      break
    }
    const res = await call(w.app, 'GET', url)
    w.stats.walkPages++
    const where = `page ${page} (GET ${url})`
    if (res.statusCode !== 200) {
      result.problems.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`)
      break
    }
    const total = w.ref.count(query)
    if (res.headers['x-total-count'] !== String(total)) {
      result.problems.push(`${where}: X-Total-Count ${res.headers['x-total-count']}, the reference counts ${total}`)
    }
    const links = canonicalLinks(res.headers.link)
    const thisPage = { mode: start.mode, size: start.size, position }
    const expected = expectedLinks(path, paramsOf(url), thisPage, total, total > position + start.size)
    if (between !== undefined) {
      // Under writes, whether more records follow depends on where they went: not checked per page.
      delete links.next
      delete expected.next
    }
    if (JSON.stringify(links) !== JSON.stringify(expected)) {
      result.problems.push(`${where}: Link ${JSON.stringify(links)}, expected ${JSON.stringify(expected)}`)
    }
    result.items.push(...res.json())
    const next = rawLinks(res.headers.link).next
    if (next === undefined) break
    const u = new URL(next)
    url = `${u.pathname}${u.search}`
    position += start.size
    await between?.()
  }
  return result
}

// ---------------------------------------------------------------------------------------------
// Which list a read goes to

interface ListKind { label: string, table: Table, nested: boolean }
const LIST_KINDS: ListKind[] = [
  { label: 'zoos', table: 'zoos', nested: false },
  { label: 'animals', table: 'animals', nested: false },
  { label: 'employees', table: 'employees', nested: false },
  { label: 'zoos/<id>/animals', table: 'animals', nested: true },
  { label: 'zoos/<id>/employees', table: 'employees', nested: true }
]

/** A live zoo: mostly one with records in `table` (weighted by how many), sometimes any. */
function chooseParent (w: World, table: Table): number | undefined {
  const children = w.ref.all(table).map(row => row.zoo_id).filter((id): id is number => typeof id === 'number')
  if (children.length > 0 && w.r.chance(0.75)) return w.r.pick(children)
  const live = w.ref.live('zoos')
  return live.length === 0 ? undefined : w.r.pick(live)
}

function targetRows (w: World, target: Target): Row[] {
  const rows = w.ref.all(target.table)
  if (target.parent === undefined) return rows
  const mine = rows.filter(row => row.zoo_id === target.parent)
  return mine.length > 0 ? mine : rows
}

const POOL_SIZE = 6

/**
 * Mostly a query from a small pool that recurs, so that any total kept for a filter set is read
 * again after the writes that should have changed it; otherwise a fresh one, sometimes pooled.
 */
function chooseQuery (w: World, kind: ListKind, pool: Query[]): Query | undefined {
  const r = w.r
  if (pool.length > 0 && r.chance(0.5)) {
    const pooled = r.pick(pool)
    if (pooled.target.parent !== undefined && !w.ref.isLive('zoos', pooled.target.parent)) {
      const parent = chooseParent(w, kind.table)
      if (parent === undefined) return undefined
      pooled.target.parent = parent
    }
    return pooled
  }
  const parent = kind.nested ? chooseParent(w, kind.table) : undefined
  if (kind.nested && parent === undefined) return undefined
  const target: Target = { table: kind.table, ...(parent === undefined ? {} : { parent }) }
  const rows = targetRows(w, target)
  const search = r.chance(0.25) ? randomSearch(w, kind.table, rows) : undefined
  const query: Query = {
    target,
    filters: randomFilters(w, kind.table, rows, r.pick(search === undefined ? [0, 1, 1, 2, 2, 3] : [0, 0, 1, 2])),
    ...(search === undefined ? {} : { q: search })
  }
  if (r.chance(0.3)) {
    if (pool.length < POOL_SIZE) pool.push(query)
    else pool[r.int(pool.length)] = query
  }
  return query
}

// ---------------------------------------------------------------------------------------------

t.test('list answers equal a plain SQL query on the same file', async t => {
  t.comment(`seed ${SEED} (set LIST_EQUIVALENCE_SEED to replay another)`)
  const started = Date.now()
  const app = await build(t)
  const ref = await Reference.of(app)
  t.teardown(() => ref.close())
  const w: World = { app, ref, r: new Random(SEED), hotZoos: [], emails: 0, stats: { reads: 0, walks: 0, walkPages: 0, writes: {} } }

  t.test('the test knows every field of every collection', async t => {
    for (const table of TABLES) {
      t.strictSame(
        FIELDS[table],
        RESOURCES[table].columns.map(c => ({ name: c.name, kind: c.kind, nullable: c.nullable })),
        `${table}: extend FIELDS and the values when a field is added`
      )
    }
  })

  await t.test('seed adversarial records through the API', async t => {
    const outcomes: Outcome[] = []
    const post = async (url: string, body: unknown): Promise<void> => {
      const res = await call(app, 'POST', url, body)
      await ref.sync()
      outcomes.push({ label: `seed: POST ${url}`, status: res.statusCode, allowed: [201], body: res.body.slice(0, 300), touched: [] })
    }
    // Batches share one created_at (ties on timestamps); single creates add more.
    for (const size of [90, 90, 40]) await post('/v1/zoos', Array.from({ length: size }, () => newRecord(w, 'zoos')))
    for (let i = 0; i < 15; i++) await post('/v1/zoos', newRecord(w, 'zoos'))
    w.hotZoos = w.r.some(ref.live('zoos'), 6)
    for (const table of ['animals', 'employees'] as const) {
      for (const size of table === 'animals' ? [150, 150, 100] : [120, 120, 60]) {
        await post(`/v1/${table}`, Array.from({ length: size }, () => newRecord(w, table, { stale: false })))
      }
      for (let i = 0; i < 15; i++) {
        const parent = w.r.pick(w.hotZoos)
        if (i % 3 === 0) await post(`/v1/zoos/${parent}/${table}`, newRecord(w, table, { without: 'zoo_id' }))
        else await post(`/v1/${table}`, newRecord(w, table, { stale: false }))
      }
    }
    // Updates make updated_at differ from created_at; deletes leave gaps and tombstones.
    for (let i = 0; i < 60; i++) {
      const table = w.r.pick(TABLES)
      outcomes.push(await oneWrite(w, i % 4 === 0 ? 'delete' : w.r.chance(0.7) ? 'patch' : 'put', table, {}, false))
    }
    checkOutcomes(t, outcomes)
    w.stats.writes = {}
    t.ok(ref.count({ target: { table: 'zoos' }, filters: [] }) > 200 && ref.count({ target: { table: 'animals' }, filters: [] }) > 350 &&
      ref.count({ target: { table: 'employees' }, filters: [] }) > 250, failure('a few hundred records in each collection'))
  })

  const pools = new Map(LIST_KINDS.map(kind => [kind.label, [] as Query[]]))
  for (const kind of LIST_KINDS) {
    await t.test(`GET /v1/${kind.label}: random reads, random writes between them, some complete walks`, async t => {
      const pool = pools.get(kind.label) as Query[]
      for (let i = 0; i < ITERATIONS; i++) {
        if (w.r.chance(0.35)) {
          const targeted = w.r.chance(0.35) ? await targetedWrite(w, pool) : undefined
          if (targeted === undefined) {
            checkOutcomes(t, await randomWrite(w, w.r.chance(0.6) ? { table: kind.table } : {}))
          } else {
            checkOutcomes(t, [targeted.outcome])
            await checkRead(t, w, targeted.query, randomSorting(w.r, kind.table))
          }
          continue
        }
        const query = chooseQuery(w, kind, pool)
        if (query === undefined) continue
        const sorting = randomSorting(w.r, kind.table)
        if (w.r.chance(0.1)) {
          // The whole result through next links: no record repeated, none skipped, every total exact.
          const mode = w.r.chance(0.6) ? 'offset' : 'page'
          const offset = mode === 'offset' && w.r.chance(0.2) ? w.r.between(1, 30) : 0
          const result = await walk(w, query, sorting, { mode, size: w.r.pick([3, 7, 7, 10]), offset })
          t.strictSame(
            { items: result.items, problems: result.problems },
            { items: ref.rows(query, sorting.keys, -1, offset), problems: [] },
            failure(`walk from GET ${result.url}`)
          )
        } else {
          await checkRead(t, w, query, sorting)
        }
      }
    })
  }

  await t.test('keyset walks with writes between pages: no record that stays put is skipped or repeated', async t => {
    // The weaker guarantee: a record that exists throughout the walk and keeps its sort values
    // (here: one no write went for) appears exactly once, in order. Others may appear twice or not at all.
    for (let i = 0; i < WALKS_WITH_WRITES; i++) {
      const kind = w.r.pick(LIST_KINDS)
      const query = chooseQuery(w, kind, pools.get(kind.label) as Query[])
      if (query === undefined) continue
      const sorting = randomSorting(w.r, kind.table)
      const before = ref.rows(query, sorting.keys).map(row => row.id)
      const touched = new Set<number>()
      const result = await walk(w, query, sorting, { mode: w.r.chance(0.6) ? 'offset' : 'page', size: 7, offset: 0 }, async () => {
        if (!w.r.chance(0.6)) return
        const table = w.r.chance(0.7) ? kind.table : w.r.pick(TABLES)
        const outcomes = await randomWrite(w, { table, ...(query.target.parent === undefined ? {} : { protectZoo: query.target.parent }) })
        checkOutcomes(t, outcomes)
        for (const o of outcomes) for (const x of o.touched) if (x.table === kind.table) touched.add(x.id)
      })
      const after = new Set(ref.rows(query, sorting.keys).map(row => row.id))
      const stable = new Set(before.filter(id => after.has(id) && !touched.has(Number(id))))
      t.strictSame({ stable: result.items.map(row => row.id).filter(id => stable.has(id)), problems: result.problems },
        { stable: before.filter(id => stable.has(id)), problems: [] },
        failure(`walk with writes from GET ${result.url} (${stable.size} records stayed put, ${touched.size} were written)`))
    }
  })

  await t.test('regressions: a range against "null" compares with the text; a cursor holding null for a later descending key', async t => {
    // A range is no equality: on country, the text "null" is a value like any other, not IS NULL.
    const country = FIELDS.zoos.find(f => f.name === 'country') as Field
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
      await checkRead(
        t,
        w,
        { target: { table: 'zoos' }, filters: [{ field: country, op, sent: 'null', values: ['null'] }] },
        randomSorting(w.r, 'zoos')
      )
    }
    // Three animals of a new zoo, sorted by zoo_id then born_on, descending: the first page ends
    // on one with a zoo_id and no born_on, whose next link once answered 500.
    const zoo = await call(app, 'POST', '/v1/zoos', { name: 'keyset', city: 'null' })
    const animals = await call(app, 'POST', `/v1/zoos/${zoo.json().id}/animals`, [
      { name: 'a', species: 's', animal_type_id: 1 },
      { name: 'b', species: 's', animal_type_id: 1 },
      { name: 'c', species: 's', animal_type_id: 1, born_on: '2000-01-01' }
    ])
    t.equal(animals.statusCode, 201)
    await ref.sync()
    const query: Query = {
      target: { table: 'animals' },
      filters: [{ field: ZOO_ID, op: 'eq', sent: String(zoo.json().id), values: [zoo.json().id] }]
    }
    const sorting: Sorting = {
      params: [['sortby', 'zoo_id,born_on'], ['order', 'desc']],
      keys: [{ field: 'zoo_id', direction: 'desc' }, { field: 'born_on', direction: 'desc' }, { field: 'id', direction: 'desc' }]
    }
    const result = await walk(w, query, sorting, { mode: 'offset', size: 2, offset: 0 })
    t.strictSame(
      { items: result.items, problems: result.problems },
      { items: ref.rows(query, sorting.keys), problems: [] },
      failure(`walk from GET ${result.url}`)
    )
  })

  t.comment(`seed ${SEED}: ${w.stats.reads} reads, ${w.stats.walks} walks (${w.stats.walkPages} pages), ` +
    `writes ${JSON.stringify(w.stats.writes)}, ${Date.now() - started} ms`)
})
