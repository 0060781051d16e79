import type { Scalar, Value } from '../model/kinds.ts'
import { foldsCase, type Column, type Resource, type ResourceRecord } from '../model/resource.ts'
import { recordWords } from '../model/search.ts'
import type { Filter, RecordGuard, SortKey, Versioned } from './contract.ts'
import type { Dialect, SearchIndex } from './dialect.ts'
import { keysetRanges } from './keyset.ts'
import { counted, identifier, join, raw, sql, type Sql } from './sql.ts'
import { quote, storable } from './text.ts'

/*
 * The SQL of one collection's table, for one dialect, and the records of the rows it reads:
 * what both engines say alike of a collection, from the read of a record to the conditions of a
 * list (`where`, `after`) and the statements of every write, which store/collections.ts puts in
 * sequence. Each engine says the rest through its Dialect. Every statement is a fragment of
 * store/sql.ts, its values in place, rendered by the engine that runs it.
 */

/** Between the words of two fields where a record's words are bound as one text: a word holds letters and digits only. */
const FIELDS_APART = '\t'

const NOTHING = raw('')
/** A condition no record meets. */
const NO_RECORD = raw('1 = 0')

/**
 * What must hold for an update to write (`CollectionSql.updated`): the record is `current`, as
 * read in the same write, or is at `version`, and `condition` holds.
 */
export interface UpdateGuard {
  current?: ResourceRecord
  version?: number
  condition?: Sql
  /** Filters whose holding for the record as written is returned after its version (`holds`). */
  check?: Filter[]
}

/** A collection whose field references another: what a delete of a record of that other must ask of it. */
export interface Reference { name: string, field: string }

export class CollectionSql {
  readonly resource: Resource
  readonly dialect: Dialect
  /** The columns, in the order every select lists them (then `version`). */
  readonly columns: Column[]
  readonly table: Sql
  /** The columns of the table, in order. */
  readonly select: Sql
  /** Where the search words are kept; undefined for a collection without text fields. */
  readonly search: SearchIndex | undefined
  readonly #byName: Map<string, Column>
  readonly #names: Sql
  /** What a write of one record returns: the record as it is written, then its version. */
  readonly #returning: Sql

  constructor (resource: Resource, dialect: Dialect) {
    this.resource = resource
    this.dialect = dialect
    this.columns = resource.columns
    this.#byName = new Map(this.columns.map(c => [c.name, c]))
    this.table = identifier(resource.name)
    this.#names = raw(this.columns.map(c => quote(c.name)).join(', '))
    this.select = sql`SELECT ${this.#names} FROM ${this.table}`
    this.search = resource.search.length === 0 ? undefined : dialect.searchIndex(resource.name)
    this.#returning = sql`RETURNING ${this.#names}, version`
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

  /** The live record `id`, its columns then its version, if `within` (filters) all hold for it. */
  read (id: number, within: Filter[] = []): Sql {
    return sql`SELECT ${this.#names}, version FROM ${this.table} WHERE id = ${id}${this.and(within)}`
  }

  /** A row when `id` names a live record; `held`, kept from being deleted until the write that asks commits. */
  live (id: number, held = false, within: Filter[] = []): Sql {
    return sql`SELECT 1 FROM ${this.table} WHERE id = ${id}${this.and(within)}${held ? this.dialect.forKeyShare : NOTHING}`
  }

  /** A row when `id` named a record that was deleted. */
  tombstone (id: number): Sql {
    return sql`SELECT 1 FROM tombstones WHERE collection = ${this.resource.name} AND id = ${id}`
  }

  /** The live records among `ids` for which `within` holds. */
  byIds (ids: readonly number[], within: Filter[] = []): Sql {
    return sql`${this.select} WHERE ${this.dialect.oneOf(raw('id'), 'integer', [...ids])}${this.and(within)}`
  }

  /** The SQL condition of a list filter or a bound access rule (the operator switch both engines share). */
  condition (filter: Filter): Sql {
    if (filter.op === 'any') {
      // No set at all: a rule whose every choice named a claim the token lacks matches nothing.
      if (filter.value.length === 0) return NO_RECORD
      return sql`(${join(filter.value.map(set => this.holds(set)), ' OR ')})`
    }
    if (filter.op === 'search') {
      if (this.search === undefined) throw new Error(`${this.resource.name} has no text field to search`)
      return this.search.match(filter.value as string[])
    }
    const column = this.column(filter.field)
    const expression = this.compared(column.name)
    const { value } = filter
    if (Array.isArray(value)) return this.dialect.oneOf(expression, column.kind, (value as Value[]).map(v => this.#comparable(column, v)))
    if (value === null) return filter.op === 'ne' ? sql`${expression} IS NOT NULL` : sql`${expression} IS NULL`
    const compared = this.#comparable(column, value)
    switch (filter.op) {
      case 'eq': return sql`${expression} = ${compared}`
      // "differs from" includes records that have no value at all.
      case 'ne': return sql`${expression} ${this.dialect.distinct} ${compared}`
      case 'gt': return sql`${expression} > ${compared}`
      case 'gte': return sql`${expression} >= ${compared}`
      case 'lt': return sql`${expression} < ${compared}`
      case 'lte': return sql`${expression} <= ${compared}`
      default: throw new Error(`operator ${filter.op} takes a list`)
    }
  }

  /** ` WHERE ` and the conditions of `filters`, all of them; nothing without filters. */
  where (filters: Filter[]): Sql {
    return filters.length === 0 ? NOTHING : sql` WHERE ${join(filters.map(f => this.condition(f)), ' AND ')}`
  }

  /** Whether every one of `filters` holds, as a value (true without filters): what a write returns to say a record is within a rule. */
  holds (filters: Filter[]): Sql {
    return filters.length === 0 ? raw('1 = 1') : sql`(${join(filters.map(f => this.condition(f)), ' AND ')})`
  }

  /** ` AND ` and the conditions of `filters`; nothing without filters. */
  and (filters: Filter[]): Sql {
    return filters.length === 0 ? NOTHING : sql` AND ${join(filters.map(f => this.condition(f)), ' AND ')}`
  }

  /** How many records `filters` match. */
  count (filters: Filter[]): Sql {
    return sql`SELECT count(*) FROM ${this.table}${this.where(filters)}`
  }

  /**
   * The records after the keyset position `after` in the order of `sort`, as the condition of each
   * of its disjoint ranges, in sort order (store/keyset.ts). `lead` goes before the column of the
   * first key, as it does in the ORDER BY.
   */
  after (sort: SortKey[], after: Scalar[], lead = NOTHING): Sql[] {
    return keysetRanges(sort, after, field => this.column(field).nullable).map(range => sql`(${join(range.map(term => {
      const column = sql`${term.position === 0 ? lead : NOTHING}${this.compared(term.field)}`
      return 'value' in term
        ? sql`${column} ${raw(term.test)} ${this.#comparable(this.column(term.field), term.value)}`
        : sql`${column} ${raw(term.test.toUpperCase())}`
    }), ' AND ')})`)
  }

  /** A column as it compares and sorts: folded for a unique one, which compares without regard to ASCII case. */
  compared (field: string): Sql {
    return foldsCase(this.resource, field) ? this.dialect.folded(identifier(field)) : identifier(field)
  }

  /** A value as `compared(column)` compares with it. */
  #comparable (column: Column, value: Value): Value {
    const stored = this.dialect.bind(column.kind, storable(value) as Value)
    return foldsCase(this.resource, column.name) ? this.dialect.fold(stored) : stored
  }

  /**
   * The first `limit` records after the id `after` whose search words are not kept yet (rows made
   * before the search index), as [id, words]. Each batch starts where the last ended, so making
   * the words of every record reads the table once, not once per batch.
   */
  unindexed (search: SearchIndex, after: number, limit: number): { statement: Sql, words: (row: Scalar[]) => [number, string] } {
    const fields = this.resource.search
    const bound = (record: ResourceRecord): string => search.column === undefined ? this.words(record) : this.#given(record)
    const where = sql`id > ${after} AND ${search.unindexed(after)}`
    return {
      statement: sql`SELECT id, ${raw(fields.map(quote).join(', '))} FROM ${this.table} WHERE ${where} ORDER BY id LIMIT ${counted(limit)}`,
      words: row => [Number(row[0]), bound(Object.fromEntries(fields.map((f, i) => [f, row[i + 1] as Scalar])))]
    }
  }

  /**
   * The statement that sets the search words of the records of given pairs (`unindexed`'s): their
   * `ids` and `words`. Only of those whose words are still not kept: a record written since it was
   * read (by another instance, serving while this one starts) has its new words already, and the
   * pair holds those of the record as it was. (Every id is after 0.)
   */
  indexing (search: SearchIndex, ids: number[], words: string[]): Sql | undefined {
    const { column, given } = search
    if (column === undefined || given === undefined) return undefined
    const set = join(this.#givenWords(column, given), ', ')
    return sql`UPDATE ${this.table} SET ${set} FROM ${given.from(ids, words)} WHERE ${given.on} AND ${search.unindexed(0)}`
  }

  /**
   * The insert of a record, returning it as written (only where `condition` holds, when there is
   * one), then whether `check` holds for it (when given), and its words for a table apart (`apart.put`).
   */
  inserted (input: ResourceRecord, now: string, condition?: Sql, check?: Filter[]): { statement: Sql, words: string } {
    const names = [...this.resource.writable, 'created_at', 'updated_at']
    const values = [...this.resource.writable.map(f => sql`${this.bind(f, input[f])}`), sql`${now}`, sql`${now}`]
    const column = this.search?.column
    if (column !== undefined) {
      names.push(...column.names)
      values.push(...column.values(this.resource.search, this.#fieldWords(input).map(words => sql`${words}`)))
    }
    const into = sql`INSERT INTO ${this.table} (${raw(names.map(quote).join(', '))})`
    const returning = this.#returningChecked(check)
    const statement = condition === undefined
      ? sql`${into} VALUES (${join(values, ', ')}) ${returning}`
      : sql`${into} SELECT ${join(values, ', ')} WHERE ${condition} ${returning}`
    return { statement, words: column === undefined ? this.words(input) : '' }
  }

  /**
   * The update that sets `values` (writable fields) of record `id`, returning it as written, or
   * no row where `guard` does not hold: the record is `current` (read before), at `version`, and
   * `condition` holds. A write that sets no text field leaves the record's words as they are; one
   * that sets some takes the others' from `current`, or, where the record was not read, as the
   * columns keep them (no row while they are not kept). Where a table apart keeps them, `apart`
   * says how to write the new `words` there.
   */
  updated (id: number, values: ResourceRecord, now: string, guard: UpdateGuard):
  { statement: Sql, words: string, apart: SearchIndex['apart'] } {
    const assignments = this.#assignments(values, now)
    const search = this.searchSetBy(values)
    const { current, version, condition } = guard
    const conditions = [sql`id = ${id}`]
    let words = ''
    const column = search?.column
    if (column !== undefined) {
      const made = this.#fieldWords(current === undefined ? values : { ...current, ...values })
      const fieldWords = this.resource.search.map((f, i) => current !== undefined || f in values ? sql`${made[i]}` : column.kept(f))
      assignments.push(...this.#searchAssignments(column, fieldWords))
      const kept = this.resource.search.filter(f => !(f in values))
      if (current === undefined && kept.length > 0) conditions.push(column.everyKept(kept))
    } else if (search !== undefined) {
      if (current === undefined) throw new Error('search words kept apart are made of the record as read')
      words = this.words({ ...current, ...values })
    }
    if (version !== undefined) conditions.push(sql`version = ${version}`)
    if (condition !== undefined) conditions.push(condition)
    const returning = this.#returningChecked(guard.check)
    const statement = sql`UPDATE ${this.table} SET ${join(assignments, ', ')} WHERE ${join(conditions, ' AND ')} ${returning}`
    return { statement, words, apart: search?.apart }
  }

  /**
   * The update that sets the same `values` in each of `records` (as read), returning them as
   * written, in one statement: each keeps its own search words, made in the same statement where
   * columns keep them (a second statement would write every row again).
   */
  updatedEach (records: ResourceRecord[], values: ResourceRecord, now: string, check?: Filter[]): Sql {
    const assignments = this.#assignments(values, now)
    const ids = records.map(record => record.id as number)
    const table = quote(this.resource.name)
    const returned = raw(`RETURNING ${this.columns.map(c => `${table}.${quote(c.name)}`).join(', ')}, ${table}.version`)
    const returning = check === undefined ? returned : sql`${returned}, ${this.holds(check)}`
    const search = this.searchSetBy(values)
    const given = search?.given
    const column = search?.column
    if (given === undefined || column === undefined) {
      return sql`UPDATE ${this.table} SET ${join(assignments, ', ')} WHERE ${this.dialect.oneOf(raw('id'), 'integer', ids)} ${returning}`
    }
    const set = join([...assignments, ...this.#givenWords(column, given)], ', ')
    const words = records.map(record => this.#given({ ...record, ...values }))
    return sql`UPDATE ${this.table} SET ${set} FROM ${given.from(ids, words)} WHERE ${given.on} ${returning}`
  }

  /**
   * The live record `id` as `read`, locked until the write that reads it commits; with a guard,
   * followed by whether the record is within what the token sees, and within what it may write.
   */
  locked (id: number, guard?: RecordGuard): Sql {
    if (guard === undefined) return sql`${this.read(id)}${this.dialect.forUpdate}`
    const within = sql`${this.holds(guard.read)}, ${this.holds(guard.write)}`
    return sql`SELECT ${this.#names}, version, ${within} FROM ${this.table} WHERE id = ${id}${this.dialect.forUpdate}`
  }

  /** The live records `filters` (at least one) match, in id order, at most `limit`, locked until the write commits. */
  matching (filters: Filter[], limit: number): Sql {
    if (filters.length === 0) throw new Error('a change of many records needs a filter')
    const locked = sql`ORDER BY id LIMIT ${counted(limit)}${this.dialect.forUpdate}`
    return sql`SELECT ${this.#names}, version FROM ${this.table}${this.where(filters)} ${locked}`
  }

  /**
   * A row when `value` names a live record of the collection `field` references, for which
   * `condition` holds (the access rules of the token there), kept from being deleted until the write commits.
   */
  referenced (field: string, value: Scalar, condition?: Sql): Sql {
    const within = condition === undefined ? NOTHING : sql` AND ${condition}`
    const target = identifier(this.resource.references[field] as string)
    return sql`SELECT 1 FROM ${target} WHERE id = ${value}${within}${this.dialect.forKeyShare}`
  }

  /** A row when another record than `ownId` holds `value` in the unique `field`, without regard to ASCII case. */
  taken (field: string, value: Scalar, ownId: number | undefined): Sql {
    const same = sql`${this.compared(field)} = ${this.#comparable(this.column(field), value as Value)}`
    return sql`SELECT 1 FROM ${this.table} WHERE ${same} AND id ${this.dialect.distinct} ${ownId ?? null}`
  }

  /** The value of `by.field` in the first record of `by` that names one of `ids` there. */
  naming (by: Reference, ids: number[]): Sql {
    const field = identifier(by.field)
    return sql`SELECT ${field} FROM ${identifier(by.name)} WHERE ${this.dialect.oneOf(field, 'reference', ids)} LIMIT 1`
  }

  /** Deletes the records `ids`. */
  removed (ids: number[]): Sql {
    return sql`DELETE FROM ${this.table} WHERE ${this.dialect.oneOf(raw('id'), 'integer', ids)}`
  }

  /** Keeps the ids of the records deleted at `now`: a request for one is answered 410 from then on. */
  buried (ids: number[], now: string): Sql {
    const rows = ids.map(id => sql`(${this.resource.name}, ${id}, ${now})`)
    return sql`INSERT INTO tombstones (collection, id, deleted_at) VALUES ${join(rows, ', ')}`
  }

  /** The search index where `values` set a searched field: a write that sets none leaves the records' words as they are. */
  searchSetBy (values: ResourceRecord): SearchIndex | undefined {
    return Object.keys(values).some(f => this.resource.search.includes(f)) ? this.search : undefined
  }

  /** A record's search words as a table apart binds them: one text, separated by spaces. */
  words (record: ResourceRecord): string {
    return recordWords(this.resource.search, record).join(' ')
  }

  /** What a write of one record returns: the record, its version, and whether `check` holds for it, when given. */
  #returningChecked (check: Filter[] | undefined): Sql {
    return check === undefined ? this.#returning : sql`${this.#returning}, ${this.holds(check)}`
  }

  /** The assignments of `values`, and of what every write changes: the time and the version. */
  #assignments (values: ResourceRecord, now: string): Sql[] {
    const set = Object.keys(values).map(f => sql`${identifier(f)} = ${this.bind(f, values[f])}`)
    return [...set, sql`updated_at = ${now}`, raw('version = version + 1')]
  }

  /** The assignments of search columns, their values made of the words of each searched field (`words`, SQL expressions). */
  #searchAssignments (column: NonNullable<SearchIndex['column']>, words: Sql[]): Sql[] {
    return column.values(this.resource.search, words).map((value, i) => sql`${identifier(column.names[i] as string)} = ${value}`)
  }

  /** The assignments of the search columns that set each record's words to its `given` ones. */
  #givenWords (column: NonNullable<SearchIndex['column']>, given: NonNullable<SearchIndex['given']>): Sql[] {
    return this.#searchAssignments(column, this.resource.search.map((_, i) => given.field(i)))
  }

  /** The words of each searched field of a record, as columns keep them: a text each, separated by spaces. */
  #fieldWords (record: ResourceRecord): string[] {
    return this.resource.search.map(field => recordWords([field], record).join(' '))
  }

  /** A record's words as `SearchIndex.given` binds them: its fields' words, separated by FIELDS_APART. */
  #given (record: ResourceRecord): string {
    return this.#fieldWords(record).join(FIELDS_APART)
  }
}
