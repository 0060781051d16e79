import type { Column, Resource, ResourceRecord } from '../model/resource.ts'
import type { FieldError } from '../model/values.ts'
import type { Scalar, Value } from '../model/kinds.ts'
import type { BatchResult, BatchWrite, Children, FeedEvent, Filter, Precondition, Versioned } from './contract.ts'
import { Parameters, type Dialect, type SearchIndex, type Statement } from './dialect.ts'
import type { RecordBudget } from './record-budget.ts'
import { invalid, mustBeLive, stillReferenced, tooManyMatches } from './refusals.ts'
import { exists, later, row, rows, run, type Ask, type Change, type Sequence } from './sequence.ts'
import { recordWords } from '../model/search.ts'
import { quote, storable } from './text.ts'

/*
 * What both engines do with a collection, in one place: the SQL of its reads and writes, the
 * conditions of its lists, and the sequence of every write (the record locked and checked, the
 * references and unique values checked, the row written; for a delete, the records that still
 * name it). Each engine keeps what really differs (store/sqlite/, store/postgres/): placeholders
 * and locking (its Dialect), transactions and how a statement runs, the totals and the list
 * planner.
 *
 * A write's sequence is a generator that yields each statement it needs answered: SQLite runs it
 * to the end at once, inside its group commit's transaction, where nothing may wait; PostgreSQL
 * awaits each answer over the network, inside a transaction of its own.
 */

/** Between the words of two fields where a record's words are bound as one text: a word holds letters and digits only. */
const FIELDS_APART = '\t'

/** The assignments of search columns, their values made of the words of each searched field (`words`, SQL expressions). */
const searchAssignments = (column: NonNullable<SearchIndex['column']>, fields: readonly string[], words: string[]): string[] =>
  column.values(fields, words).map((value, i) => `${quote(column.names[i] as string)} = ${value}`)

/**
 * What must hold for an update to write (`CollectionCore.updated`): the record is `current`, as
 * read in the same write, or is at `version`, and `condition` holds, its parameters added to
 * those `params` has.
 */
export interface UpdateGuard {
  current?: ResourceRecord
  version?: number
  condition?: (params: Parameters) => string
}

/** A change as the feed's statement binds it: collection, record id, event, the record as JSON (null once deleted). */
export type FeedRow = [string, number, FeedEvent, string | null]

/** The feed rows of one collection's changes, in the order they were made. */
export function feedRows (collection: string, changes: readonly Change[]): FeedRow[] {
  return changes.map(({ before, after }) => {
    const record = after ?? before as ResourceRecord
    const event: FeedEvent = before === undefined ? 'created' : after === undefined ? 'deleted' : 'updated'
    return [collection, record.id as number, event, after === undefined ? null : JSON.stringify(after)]
  })
}

/** Records one statement of a change of many records handles: its ids are as many parameters. */
const BULK_CHUNK = 1000

/** `items` in runs of BULK_CHUNK. */
function chunks<T> (items: readonly T[]): T[][] {
  const runs: T[][] = []
  for (let i = 0; i < items.length; i += BULK_CHUNK) runs.push(items.slice(i, i + BULK_CHUNK))
  return runs
}

/**
 * The SQL and write sequences of one collection's table, for one dialect. Every statement's text
 * is made once here: an engine may prepare each once.
 */
export class CollectionCore {
  readonly resource: Resource
  readonly dialect: Dialect
  /** The columns, in the order every select lists them (then `version`). */
  readonly columns: Column[]
  readonly table: string
  readonly select: string
  readonly read: string
  readonly live: string
  readonly tombstone: string
  readonly insert: string
  readonly delete: string
  readonly bury: string
  /** Collections with a field that references this one: deleting a referenced record is refused. */
  readonly referencedBy: { name: string, field: string, exists: string }[]
  /** Where the search words are kept; undefined for a collection without text fields. */
  readonly search: SearchIndex | undefined
  readonly #byName: Map<string, Column>
  readonly #inserting: { columns: string, values: string }
  /** What a write of one record returns: the record as it is written, then its version. */
  readonly #returning: string

  constructor (resource: Resource, resources: Resource[], dialect: Dialect) {
    this.resource = resource
    this.dialect = dialect
    this.columns = resource.columns
    this.#byName = new Map(this.columns.map(c => [c.name, c]))
    this.table = quote(resource.name)
    const p = (n: number): string => dialect.placeholder(n)
    const names = this.columns.map(c => quote(c.name)).join(', ')
    this.select = `SELECT ${names} FROM ${this.table}`
    this.read = `SELECT ${names}, version FROM ${this.table} WHERE id = ${p(1)}`
    this.live = `SELECT 1 FROM ${this.table} WHERE id = ${p(1)}`
    this.tombstone = `SELECT 1 FROM tombstones WHERE collection = ${p(1)} AND id = ${p(2)}`
    this.search = resource.search.length === 0 ? undefined : dialect.searchIndex(resource.name)
    const inserted = [...resource.writable, 'created_at', 'updated_at']
    const values = inserted.map((_, i) => p(i + 1))
    const column = this.search?.column
    if (column !== undefined) {
      inserted.push(...column.names)
      const first = values.length + 1
      values.push(...column.values(resource.search, resource.search.map((_, i) => p(first + i))))
    }
    this.#inserting = { columns: inserted.map(quote).join(', '), values: values.join(', ') }
    this.#returning = `RETURNING ${names}, version`
    this.insert = `INSERT INTO ${this.table} (${this.#inserting.columns}) VALUES (${this.#inserting.values}) ${this.#returning}`
    this.delete = `DELETE FROM ${this.table} WHERE id = ${p(1)}`
    this.bury = `INSERT INTO tombstones (collection, id, deleted_at) VALUES (${p(1)}, ${p(2)}, ${p(3)})`
    this.referencedBy = resources.flatMap(r => Object.entries(r.references)
      .filter(([, target]) => target === resource.name)
      .map(([field]) => ({ name: r.name, field, exists: `SELECT 1 FROM ${quote(r.name)} WHERE ${quote(field)} = ${p(1)} LIMIT 1` })))
  }

  /** `insert`, made only where `condition` holds. */
  insertWhere (condition: string): string {
    const { columns, values } = this.#inserting
    return `INSERT INTO ${this.table} (${columns}) SELECT ${values} WHERE ${condition} ${this.#returning}`
  }

  column (field: string): Column {
    const column = this.#byName.get(field)
    if (column === undefined) throw new Error(`no column ${field} in ${this.resource.name}`)
    return column
  }

  /** A field's value as bound to a statement. */
  bind (field: string, value: Scalar | undefined): Scalar {
    const stored = storable(value)
    return stored === null ? null : this.dialect.bind(this.column(field).kind, stored)
  }

  /** A record from a row of the columns in order. */
  record (row: Scalar[]): ResourceRecord {
    const record: ResourceRecord = {}
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i] as Column
      record[column.name] = this.dialect.read(column.kind, row[i] as Scalar)
    }
    return record
  }

  /** A record from a row of the columns in order followed by `version`. */
  versioned (row: Scalar[]): Versioned {
    return { record: this.record(row), version: Number(row[this.columns.length]) }
  }

  /** PUT: every writable field; one missing from `input` becomes null. */
  replaced (input: ResourceRecord): ResourceRecord {
    return Object.fromEntries(this.resource.writable.map(f => [f, input[f] ?? null]))
  }

  /** PATCH: only the fields present in `changes`. */
  changed (changes: ResourceRecord): ResourceRecord {
    return Object.fromEntries(this.resource.writable.filter(f => f in changes).map(f => [f, changes[f] ?? null]))
  }

  /** The live records among `ids`. */
  byIds (ids: readonly number[]): Statement {
    const params = new Parameters(this.dialect)
    return { sql: `${this.select} WHERE ${this.dialect.oneOf('id', 'integer', [...ids], params)}`, params: params.values }
  }

  /**
   * The first `limit` records of each parent, in id order: a branch per parent, each read by the
   * index led by `field` (which holds a parent's records in id order), joined into one statement.
   */
  children (field: string, parents: readonly number[], limit: number): Statement {
    const params = new Parameters(this.dialect)
    const branches = parents.map((parent, i) => `SELECT * FROM (${this.select} WHERE ${quote(field)} = ${params.add(parent)} ` +
      `ORDER BY id LIMIT ${params.add(limit)}) AS parent${i}`)
    return { sql: branches.join(' UNION ALL '), params: params.values }
  }

  /**
   * The rows `children` read, as records by parent (an empty list for a parent without any), and
   * how many each parent has: one with fewer than `limit` has them all; the others, `full`, are
   * counted by `childCounts`.
   */
  grouped (field: string, parents: readonly number[], rows: Scalar[][], limit: number): Children & { full: number[] } {
    const items = new Map<number, ResourceRecord[]>(parents.map(parent => [parent, []]))
    for (const row of rows) {
      const record = this.record(row)
      items.get(Number(record[field]))?.push(record)
    }
    const totals = new Map([...items].map(([parent, records]) => [parent, records.length]))
    const full = [...items].filter(([, records]) => records.length >= limit).map(([parent]) => parent)
    return { items, totals, full }
  }

  /** How many records name each of `parents` in `field`: rows of [parent, count]. */
  childCounts (field: string, parents: readonly number[]): Statement {
    const params = new Parameters(this.dialect)
    const column = quote(field)
    return {
      sql: `SELECT ${column}, count(*) FROM ${this.table} ` +
        `WHERE ${this.dialect.oneOf(column, 'reference', [...parents], params)} GROUP BY ${column}`,
      params: params.values
    }
  }

  /**
   * The first `limit` records after the id `after` whose search words are not kept yet (rows made
   * before the search index), as [id, words]. Each batch starts where the last ended, so making
   * the words of every record reads the table once, not once per batch.
   */
  unindexed (search: SearchIndex, after: number, limit: number): Statement & { words: (row: Scalar[]) => [number, string] } {
    const fields = this.resource.search
    const params = new Parameters(this.dialect)
    const where = `id > ${params.add(after)} AND ${search.unindexed(() => params.add(after))}`
    const bound = (record: ResourceRecord): string => search.column === undefined ? this.#words(record) : this.#given(record)
    return {
      sql: `SELECT id, ${fields.map(quote).join(', ')} FROM ${this.table} WHERE ${where} ORDER BY id LIMIT ${limit}`,
      params: params.values,
      words: row => [Number(row[0]), bound(Object.fromEntries(fields.map((f, i) => [f, row[i + 1] as Scalar])))]
    }
  }

  /**
   * The statement that sets the search words of the records of given pairs (`unindexed`'s): their
   * ids and words, two array parameters. Only of those whose words are still not kept: a record
   * written since it was read (by another instance, serving while this one starts) has its new
   * words already, and the pair holds those of the record as it was. (Every id is after 0.)
   */
  indexing (search: SearchIndex): string | undefined {
    const { column, given } = search
    if (column === undefined || given === undefined) return undefined
    const p = (n: number): string => this.dialect.placeholder(n)
    return `UPDATE ${this.table} SET ${this.#givenWords(column, given).join(', ')} FROM ${given.from(p(1), p(2))} ` +
      `WHERE ${given.on} AND ${search.unindexed(() => '0')}`
  }

  /** The SQL condition of a list filter (the operator switch both engines share), its values bound to `params`. */
  condition (filter: Filter, params: Parameters): string {
    if (filter.op === 'search') {
      if (this.search === undefined) throw new Error(`${this.resource.name} has no text field to search`)
      return this.search.match(filter.value as string[], params)
    }
    const column = this.column(filter.field)
    const folded = this.resource.unique.includes(column.name)
    const expression = folded ? this.dialect.folded(quote(column.name)) : quote(column.name)
    const bound = (value: Value): Value => {
      const stored = this.dialect.bind(column.kind, storable(value) as Value)
      return folded ? this.dialect.fold(stored) : stored
    }
    const { value } = filter
    if (Array.isArray(value)) return this.dialect.oneOf(expression, column.kind, (value as Value[]).map(bound), params)
    if (value === null) return filter.op === 'ne' ? `${expression} IS NOT NULL` : `${expression} IS NULL`
    const placeholder = params.add(bound(value))
    switch (filter.op) {
      case 'eq': return `${expression} = ${placeholder}`
      // "differs from" includes records that have no value at all.
      case 'ne': return `${expression} ${this.dialect.distinct} ${placeholder}`
      case 'gt': return `${expression} > ${placeholder}`
      case 'gte': return `${expression} >= ${placeholder}`
      case 'lt': return `${expression} < ${placeholder}`
      case 'lte': return `${expression} <= ${placeholder}`
      default: throw new Error(`operator ${filter.op} takes a list`)
    }
  }

  /** The values of the insert of a record (`insert`), the search columns' among them, and its words for a table apart. */
  inserted (input: ResourceRecord, now: string): { values: unknown[], words: string } {
    const values = [...this.resource.writable.map(f => this.bind(f, input[f])), now, now]
    if (this.search?.column !== undefined) {
      values.push(...this.#fieldWords(input))
      return { values, words: '' }
    }
    return { values, words: this.#words(input) }
  }

  /**
   * The update that sets `values` (writable fields) of record `id`, returning it as written, or
   * no row where `guard` does not hold: the record is `current` (read before), at `version`, and
   * `condition` (its parameters added to those given) holds. A write that sets no text field
   * leaves the record's words as they are; one that sets some takes the others' from `current`,
   * or, where the record was not read, as the columns keep them (no row while they are not kept).
   * Where a table apart keeps them, `apart` says how to write the new `words` there.
   */
  updated (id: number, values: ResourceRecord, now: string, guard: UpdateGuard):
  Statement & { words: string, apart: SearchIndex['apart'] } {
    const fields = Object.keys(values)
    const params = new Parameters(this.dialect)
    const assignments = [
      ...fields.map(f => `${quote(f)} = ${params.add(this.bind(f, values[f]))}`), `updated_at = ${params.add(now)}`, 'version = version + 1'
    ]
    const search = fields.some(f => this.resource.search.includes(f)) ? this.search : undefined
    const { current, version, condition } = guard
    const conditions: string[] = []
    let words = ''
    const column = search?.column
    if (column !== undefined) {
      const made = this.#fieldWords(current === undefined ? values : { ...current, ...values })
      const fieldWords = this.resource.search.map((f, i) => current !== undefined || f in values ? params.add(made[i]) : column.kept(f))
      assignments.push(...searchAssignments(column, this.resource.search, fieldWords))
      const kept = this.resource.search.filter(f => !(f in values))
      if (current === undefined && kept.length > 0) conditions.push(column.everyKept(kept))
    } else if (search !== undefined) {
      if (current === undefined) throw new Error('search words kept apart are made of the record as read')
      words = this.#words({ ...current, ...values })
    }
    // Placeholders added in the order they appear in the text: SQLite's are positional.
    conditions.unshift(`id = ${params.add(id)}`)
    if (version !== undefined) conditions.push(`version = ${params.add(version)}`)
    if (condition !== undefined) conditions.push(condition(params))
    const sql = `UPDATE ${this.table} SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')} ${this.#returning}`
    return { sql, params: params.values, words, apart: search?.apart }
  }

  /** Creates every input or none; the errors of input i are named `i.<field>` in a batch. */
  * creating (inputs: ResourceRecord[], batch: boolean, now: string, budget: RecordBudget): Sequence<Versioned[]> {
    budget.spend(inputs.length)
    // Checked one by one after the earlier inserts, so a batch cannot repeat a unique value.
    const errors: FieldError[] = []
    const created: Versioned[] = []
    for (const [i, input] of inputs.entries()) {
      const problems = yield * this.#check(input, undefined, batch ? `${i}.` : '')
      if (problems.length > 0) {
        errors.push(...problems)
        continue
      }
      const { values, words } = this.inserted(input, now)
      const record = this.versioned((yield * row(this.insert, values)) as Scalar[])
      if (this.search?.apart !== undefined) yield * later(this.search.apart.put, [record.record.id, words])
      created.push(record)
    }
    if (errors.length > 0) throw invalid(errors)
    return { result: created, changes: created.map(({ record }) => ({ before: undefined, after: record })) }
  }

  /** Sets `values` (writable fields) of a live record, once `precondition` accepts it. */
  * writing (id: number, values: ResourceRecord, precondition: Precondition | undefined, now: string): Sequence<Versioned> {
    const current = yield * this.#current(id, precondition)
    const errors = yield * this.#check(values, id, '')
    if (errors.length > 0) throw invalid(errors)
    const { sql, params, words, apart } = this.updated(id, values, now, { current: current.record })
    const written = this.versioned((yield * row(sql, params)) as Scalar[])
    if (apart !== undefined) {
      yield * later(apart.remove, [id])
      yield * later(apart.put, [id, words])
    }
    return { result: written, changes: [{ before: current.record, after: written.record }] }
  }

  /**
   * Sets `values` in every live record `filters` match, under the rules each record's own write
   * would meet, all or none: more than `max` matches, or more than `budget` has left, refuses them
   * all. In a few statements however many records match (a statement per BULK_CHUNK of them), not
   * several per record: the same values for every record are checked once (a unique value given to
   * two records is refused as the second's own write would be), and each record keeps its own
   * search words.
   */
  * writingWhere (filters: Filter[], values: ResourceRecord, max: number | undefined, now: string, budget: RecordBudget):
  Sequence<Versioned[]> {
    const current = yield * this.#matching(filters, max, budget)
    const taken = this.resource.unique.filter(field => values[field] !== undefined && values[field] !== null)
    if (current.length > 1 && taken.length > 0) {
      throw invalid(taken.map(field => ({
        field,
        code: 'unique',
        message: `${field} "${String(values[field])}" is already used by another ${this.resource.singular}`
      })))
    }
    if (current.length === 0) return { result: [], changes: [] }
    const errors = yield * this.#check(values, current.length === 1 ? current[0]?.record.id as number : undefined, '')
    if (errors.length > 0) throw invalid(errors)

    const fields = Object.keys(values)
    // A write that sets no text field leaves the records' words as they are.
    const search = fields.some(f => this.resource.search.includes(f)) ? this.search : undefined
    const written: Versioned[] = []
    for (const chunk of chunks(current)) {
      const params = new Parameters(this.dialect)
      const assignments = [
        ...fields.map(f => `${quote(f)} = ${params.add(this.bind(f, values[f]))}`),
        `updated_at = ${params.add(now)}`,
        'version = version + 1'
      ]
      const ids = chunk.map(({ record }) => record.id as number)
      const returning = `RETURNING ${this.columns.map(c => `${this.table}.${quote(c.name)}`).join(', ')}, ${this.table}.version`
      const given = search?.given
      const column = search?.column
      // Each record's new words in the same statement: a second one would write every row again.
      const sql = given === undefined || column === undefined
        ? `UPDATE ${this.table} SET ${assignments.join(', ')} WHERE ${this.dialect.oneOf('id', 'integer', ids, params)} ${returning}`
        : `UPDATE ${this.table} SET ${[...assignments, ...this.#givenWords(column, given)].join(', ')} ` +
          `FROM ${given.from(params.add(ids), params.add(chunk.map(({ record }) => this.#given({ ...record, ...values }))))} ` +
          `WHERE ${given.on} ${returning}`
      written.push(...(yield * rows(sql, params.values)).map(row => this.versioned(row)))
    }
    written.sort((a, b) => (a.record.id as number) - (b.record.id as number))
    const apart = search?.apart
    if (apart !== undefined) {
      for (const { record } of written) {
        yield * later(apart.remove, [record.id])
        yield * later(apart.put, [record.id, this.#words(record)])
      }
    }
    const before = new Map(current.map(({ record }) => [record.id, record]))
    return { result: written, changes: written.map(({ record }) => ({ before: before.get(record.id), after: record })) }
  }

  /**
   * Deletes every live record `filters` match, under the rules each record's own delete would
   * meet (none may still be named by a record of another collection), all or none: the records as
   * they were. In a few statements however many match, as `writingWhere`.
   */
  * deletingWhere (filters: Filter[], max: number | undefined, now: string, budget: RecordBudget): Sequence<ResourceRecord[]> {
    const current = (yield * this.#matching(filters, max, budget)).map(({ record }) => record)
    for (const chunk of chunks(current)) {
      const ids = chunk.map(record => record.id as number)
      for (const ref of this.referencedBy) {
        const params = new Parameters(this.dialect)
        const named = yield * row(`SELECT ${quote(ref.field)} FROM ${quote(ref.name)} ` +
          `WHERE ${this.dialect.oneOf(quote(ref.field), 'reference', ids, params)} LIMIT 1`, params.values)
        if (named !== undefined) throw stillReferenced(this.resource, Number(named[0]), ref.name)
      }
      const params = new Parameters(this.dialect)
      yield * run(`DELETE FROM ${this.table} WHERE ${this.dialect.oneOf('id', 'integer', ids, params)}`, params.values)
      const buried = new Parameters(this.dialect)
      const tombstones = ids.map(id => `(${buried.add(this.resource.name)}, ${buried.add(id)}, ${buried.add(now)})`)
      yield * run(`INSERT INTO tombstones (collection, id, deleted_at) VALUES ${tombstones.join(', ')}`, buried.values)
      const apart = this.search?.apart
      if (apart !== undefined) for (const id of ids) yield * later(apart.remove, [id])
    }
    return { result: current, changes: current.map(record => ({ before: record, after: undefined })) }
  }

  /**
   * The live records `filters` (at least one) match, in id order, locked for the write, as they
   * are, and spent from `budget`; more than `max`, or than the budget has left, is refused.
   */
  * #matching (filters: Filter[], max: number | undefined, budget: RecordBudget): Generator<Ask, Versioned[], unknown> {
    if (filters.length === 0) throw new Error('a change of many records needs a filter')
    const params = new Parameters(this.dialect)
    const where = filters.map(filter => this.condition(filter, params)).join(' AND ')
    const names = this.columns.map(c => quote(c.name)).join(', ')
    // One more than the budget has left is enough to refuse them: a change that may not be made
    // reads no more than one that may, however many records match.
    const left = budget.left
    const found = (yield * rows(`SELECT ${names}, version FROM ${this.table} WHERE ${where} ORDER BY id ` +
      `LIMIT ${params.add(left + 1)}${this.dialect.forUpdate}`, params.values)).map(row => this.versioned(row))
    const beyond = found.length > left
    if (max !== undefined && found.length > max) throw tooManyMatches(this.resource, beyond ? `More than ${left}` : found.length, max)
    if (beyond) throw budget.exceeded(this.resource)
    budget.spend(found.length)
    return found
  }

  /** One write of a batch, as the call of this collection's store that it stands for would run it, spending `budget`. */
  * running (write: BatchWrite, now: string, budget: RecordBudget): Sequence<BatchResult> {
    switch (write.op) {
      case 'create': return yield * this.creating(write.inputs, write.many, now, budget)
      case 'replace':
      case 'update': {
        budget.spend(1)
        const values = write.op === 'replace' ? this.replaced(write.values) : this.changed(write.values)
        return yield * this.writing(write.id, values, write.precondition, now)
      }
      case 'delete':
        budget.spend(1)
        return { result: undefined, changes: (yield * this.deleting(write.id, write.precondition, now)).changes }
      case 'updateWhere': {
        const { result, changes } = yield * this.writingWhere(write.filters, this.changed(write.values), undefined, now, budget)
        return { result: { records: result.map(written => written.record) }, changes }
      }
      case 'deleteWhere': {
        const { result, changes } = yield * this.deletingWhere(write.filters, undefined, now, budget)
        return { result: { records: result }, changes }
      }
    }
  }

  /** Refuses an id that names no live record now, in the write's transaction: 404, or 410 once deleted. */
  * ensuringLive (id: number): Generator<Ask, void, unknown> {
    if (yield * exists(`${this.live}${this.dialect.forKeyShare}`, [id])) return
    mustBeLive(this.resource, id, (yield * exists(this.tombstone, [this.resource.name, id])) ? 'deleted' : 'absent')
  }

  /** Deletes a live record that no other record names, once `precondition` accepts it; its id is kept as a tombstone. */
  * deleting (id: number, precondition: Precondition | undefined, now: string): Sequence<void> {
    const current = yield * this.#current(id, precondition)
    for (const ref of this.referencedBy) {
      if (yield * exists(ref.exists, [id])) throw stillReferenced(this.resource, id, ref.name)
    }
    yield * run(this.delete, [id])
    if (this.search?.apart !== undefined) yield * later(this.search.apart.remove, [id])
    yield * run(this.bury, [this.resource.name, id, now])
    return { result: undefined, changes: [{ before: current.record, after: undefined }] }
  }

  /** The assignments of the search columns that set each record's words to its `given` ones. */
  #givenWords (column: NonNullable<SearchIndex['column']>, given: NonNullable<SearchIndex['given']>): string[] {
    return searchAssignments(column, this.resource.search, this.resource.search.map((_, i) => given.field(i)))
  }

  /** A record's search words as a table apart binds them: one text, separated by spaces. */
  #words (record: ResourceRecord): string {
    return recordWords(this.resource.search, record).join(' ')
  }

  /** The words of each searched field of a record, as columns keep them: a text each, separated by spaces. */
  #fieldWords (record: ResourceRecord): string[] {
    return this.resource.search.map(field => recordWords([field], record).join(' '))
  }

  /** A record's words as `SearchIndex.given` binds them: its fields' words, separated by FIELDS_APART. */
  #given (record: ResourceRecord): string {
    return this.#fieldWords(record).join(FIELDS_APART)
  }

  /** The live record, locked for the write, once the precondition accepts it: 404 if it never was, 410 if deleted. */
  * #current (id: number, precondition: Precondition | undefined): Generator<Ask, Versioned, unknown> {
    const found = yield * row(`${this.read}${this.dialect.forUpdate}`, [id])
    if (found === undefined) {
      const live = yield * exists(this.live, [id])
      const deleted = !live && (yield * exists(this.tombstone, [this.resource.name, id]))
      mustBeLive(this.resource, id, live ? 'live' : deleted ? 'deleted' : 'absent')
      throw new Error(`record ${id} is neither live nor gone`)
    }
    const current = this.versioned(found)
    precondition?.(current)
    return current
  }

  /**
   * The rules a schema cannot state: references to live records (which the dialect keeps from
   * being deleted until the write commits) and unique values, without regard to ASCII case.
   */
  * #check (values: ResourceRecord, ownId: number | undefined, prefix: string): Generator<Ask, FieldError[], unknown> {
    const errors: FieldError[] = []
    const p = (n: number): string => this.dialect.placeholder(n)
    for (const [field, target] of Object.entries(this.resource.references)) {
      const value = values[field]
      if (value === undefined || value === null) continue
      if (!(yield * exists(`SELECT 1 FROM ${quote(target)} WHERE id = ${p(1)}${this.dialect.forKeyShare}`, [value]))) {
        const message = `${field} ${String(value)} names no existing record of ${target}`
        errors.push({ field: `${prefix}${field}`, code: 'not_found', message })
      }
    }
    for (const field of this.resource.unique) {
      const value = values[field]
      if (value === undefined || value === null) continue
      const sql = `SELECT 1 FROM ${this.table} WHERE ${this.dialect.folded(quote(field))} = ${p(1)} AND id ${this.dialect.distinct} ${p(2)}`
      if (yield * exists(sql, [this.dialect.fold(this.bind(field, value) as Value), ownId ?? null])) {
        errors.push({
          field: `${prefix}${field}`,
          code: 'unique',
          message: `${field} "${String(value)}" is already used by another ${this.resource.singular}`
        })
      }
    }
    return errors
  }
}
