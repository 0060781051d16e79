import type { Resource, ResourceRecord } from '../model/resource.ts'
import type { FieldError } from '../model/values.ts'
import type { Scalar } from '../model/kinds.ts'
import type { Filter, Precondition, RecordGuard, Versioned, Write, WriteResult } from './contract.ts'
import { CollectionSql, type Reference } from './collection-sql.ts'
import type { RecordBudget } from './record-budget.ts'
import { alreadyUsed, invalid, mustBeLive, namesNoRecord, outsideWrite, setByRules, stillReferenced, tooManyMatches } from './refusals.ts'
import { exists, later, row, rows, run, type Ask, type Change, type Sequence } from './sequence.ts'

/*
 * What both engines do when they write a collection, in one place: the sequence of every write
 * (the record locked and checked, the references and unique values checked, the row written; for
 * a delete, the records that still name it), over the statements of store/collection-sql.ts.
 * Each engine keeps what really differs
 * (store/sqlite/, store/postgres/): transactions, how a statement runs, the totals and the list
 * planner.
 */

/** A condition's value as either engine returns it: SQLite's 1 or 0, PostgreSQL's true or false. */
const truthy = (value: unknown): boolean => value === 1 || value === true

/** Refuses a change giving a field the token's rules fix (`guard.fixed`) another value than `record` has. */
function keepingFixed (resource: Resource, record: ResourceRecord, values: ResourceRecord, guard: RecordGuard | undefined): void {
  const changed = guard?.fixed.find(field => field in values && values[field] !== record[field])
  if (changed !== undefined) throw setByRules(resource, changed)
}

/** Records one statement of a change of many records handles: its ids are as many parameters. */
const BULK_CHUNK = 1000

/** `items` in runs of BULK_CHUNK. */
function chunks<T> (items: readonly T[]): T[][] {
  const runs: T[][] = []
  for (let i = 0; i < items.length; i += BULK_CHUNK) runs.push(items.slice(i, i + BULK_CHUNK))
  return runs
}

/** The write sequences of one collection, over its SQL. */
export class CollectionWrites {
  readonly sql: CollectionSql
  readonly resource: Resource
  /** Collections with a field that references this one: deleting a referenced record is refused. */
  readonly referencedBy: Reference[]

  /** The SQL of each collection a field references, by field: what the access rules a write meets there are written in. */
  readonly #targets: Map<string, CollectionSql>

  constructor (sql: CollectionSql, resources: Resource[]) {
    this.sql = sql
    this.resource = sql.resource
    this.#targets = new Map(Object.entries(sql.resource.references).flatMap(([field, name]) => {
      const target = resources.find(r => r.name === name)
      return target === undefined ? [] : [[field, new CollectionSql(target, sql.dialect)]]
    }))
    this.referencedBy = resources.flatMap(r => Object.entries(r.references)
      .filter(([, target]) => target === sql.resource.name)
      .map(([field]) => ({ name: r.name, field })))
  }

  /** Creates every input or none; the errors of input i are named `i.<field>` in a batch. */
  * creating (inputs: ResourceRecord[], batch: boolean, now: string, budget: RecordBudget, guard?: RecordGuard): Sequence<Versioned[]> {
    budget.spend(inputs.length)
    // Checked one by one after the earlier inserts, so a batch cannot repeat a unique value.
    const errors: FieldError[] = []
    const created: Versioned[] = []
    const apart = this.sql.search?.apart
    for (const [i, input] of inputs.entries()) {
      const problems = yield * this.#check(input, undefined, batch ? `${i}.` : '', guard)
      if (problems.length > 0) {
        errors.push(...problems)
        continue
      }
      const { statement, words } = this.sql.inserted(input, now, undefined, guard?.write)
      const inserted = (yield * row(statement)) as Scalar[]
      if (guard !== undefined && !this.#holds(inserted)) throw outsideWrite(this.resource, undefined)
      const record = this.sql.versioned(inserted)
      if (apart !== undefined) yield * later(apart.put(record.record.id as number, words))
      created.push(record)
    }
    if (errors.length > 0) throw invalid(errors)
    return { result: created, changes: created.map(({ record }) => this.#change(undefined, record)) }
  }

  /** Sets `values` (writable fields) of a live record, once `precondition` accepts it. */
  * writing (id: number, values: ResourceRecord, precondition: Precondition | undefined, now: string, guard?: RecordGuard):
  Sequence<Versioned> {
    const current = yield * this.#current(id, precondition, guard)
    keepingFixed(this.resource, current.record, values, guard)
    const errors = yield * this.#check(values, id, '', guard)
    if (errors.length > 0) throw invalid(errors)
    const { statement, words, apart } = this.sql.updated(id, values, now, { current: current.record, check: guard?.write })
    const updated = (yield * row(statement)) as Scalar[]
    if (guard !== undefined && !this.#holds(updated)) throw outsideWrite(this.resource, id)
    const written = this.sql.versioned(updated)
    if (apart !== undefined) {
      yield * later(apart.remove(id))
      yield * later(apart.put(id, words))
    }
    return { result: written, changes: [this.#change(current.record, written.record)] }
  }

  /**
   * Sets `values` in every live record `filters` match, under the rules each record's own write
   * would meet, all or none: more than `max` matches, or more than `budget` has left, refuses them
   * all. In a few statements however many records match (a statement per BULK_CHUNK of them), not
   * several per record: the same values for every record are checked once (a unique value given to
   * two records is refused as the second's own write would be), and each record keeps its own
   * search words.
   */
  * writingWhere (
    filters: Filter[], values: ResourceRecord, max: number | undefined, now: string, budget: RecordBudget, guard?: RecordGuard
  ): Sequence<Versioned[]> {
    const current = yield * this.#matching(filters, max, budget, guard)
    for (const { record } of current) keepingFixed(this.resource, record, values, guard)
    const taken = this.resource.unique.filter(field => values[field] !== undefined && values[field] !== null)
    if (current.length > 1 && taken.length > 0) {
      throw invalid(taken.map(field => alreadyUsed(this.resource, field, values[field])))
    }
    if (current.length === 0) return { result: [], changes: [] }
    const errors = yield * this.#check(values, current.length === 1 ? current[0]?.record.id as number : undefined, '', guard)
    if (errors.length > 0) throw invalid(errors)

    const written: Versioned[] = []
    for (const chunk of chunks(current)) {
      const statement = this.sql.updatedEach(chunk.map(({ record }) => record), values, now, guard?.write)
      for (const updated of yield * rows(statement)) {
        if (guard !== undefined && !this.#holds(updated)) throw outsideWrite(this.resource, Number(updated[0]))
        written.push(this.sql.versioned(updated))
      }
    }
    written.sort((a, b) => (a.record.id as number) - (b.record.id as number))
    const apart = this.sql.searchSetBy(values)?.apart
    if (apart !== undefined) {
      for (const { record } of written) {
        yield * later(apart.remove(record.id as number))
        yield * later(apart.put(record.id as number, this.sql.words(record)))
      }
    }
    const before = new Map(current.map(({ record }) => [record.id, record]))
    return { result: written, changes: written.map(({ record }) => this.#change(before.get(record.id), record)) }
  }

  /**
   * Deletes every live record `filters` match, under the rules each record's own delete would
   * meet (none may still be named by a record of another collection), all or none: the records as
   * they were. In a few statements however many match, as `writingWhere`.
   */
  * deletingWhere (filters: Filter[], max: number | undefined, now: string, budget: RecordBudget, guard?: RecordGuard):
  Sequence<ResourceRecord[]> {
    const current = (yield * this.#matching(filters, max, budget, guard)).map(({ record }) => record)
    for (const chunk of chunks(current)) {
      const ids = chunk.map(record => record.id as number)
      for (const by of this.referencedBy) {
        const named = yield * row(this.sql.naming(by, ids))
        if (named !== undefined) throw stillReferenced(this.resource, Number(named[0]), by.name)
      }
      yield * this.#removing(ids, now)
    }
    return { result: current, changes: current.map(record => this.#change(record, undefined)) }
  }

  /**
   * The live records `filters` (at least one) match, in id order, locked for the write, as they
   * are, and spent from `budget`; more than `max`, or than the budget has left, is refused. With a
   * guard, only those the token sees and may write: the others are not there for it.
   */
  * #matching (filters: Filter[], max: number | undefined, budget: RecordBudget, guard: RecordGuard | undefined):
  Generator<Ask, Versioned[], unknown> {
    // One more than the budget has left is enough to refuse them: a change that may not be made
    // reads no more than one that may, however many records match.
    const left = budget.left
    const chosen = guard === undefined ? filters : [...filters, ...guard.read, ...guard.write]
    const found = (yield * rows(this.sql.matching(chosen, left + 1))).map(row => this.sql.versioned(row))
    const beyond = found.length > left
    if (max !== undefined && found.length > max) throw tooManyMatches(this.resource, beyond ? `More than ${left}` : found.length, max)
    if (beyond) throw budget.exceeded(this.resource)
    budget.spend(found.length)
    return found
  }

  /** A write of this collection, of any kind, spending `budget` (store/batching.ts runs it, its parent checked first). */
  * running (write: Write, now: string, budget: RecordBudget): Sequence<WriteResult> {
    switch (write.op) {
      case 'create': return yield * this.creating(write.inputs, write.many, now, budget, write.guard)
      case 'replace':
      case 'update': {
        budget.spend(1)
        const values = write.op === 'replace' ? this.sql.replaced(write.values) : this.sql.changed(write.values)
        return yield * this.writing(write.id, values, write.precondition, now, write.guard)
      }
      case 'delete':
        budget.spend(1)
        return { result: undefined, changes: (yield * this.deleting(write.id, write.precondition, now, write.guard)).changes }
      case 'updateWhere': {
        const values = this.sql.changed(write.values)
        const { result, changes } = yield * this.writingWhere(write.filters, values, write.max, now, budget, write.guard)
        return { result: { records: result.map(written => written.record) }, changes }
      }
      case 'deleteWhere': {
        const { result, changes } = yield * this.deletingWhere(write.filters, write.max, now, budget, write.guard)
        return { result: { records: result }, changes }
      }
    }
  }

  /**
   * Refuses an id that names no live record now, in the write's transaction, or one outside
   * `within` (the token's access rules here): 404, or 410 once deleted.
   */
  * ensuringLive (id: number, within: Filter[] = []): Generator<Ask, void, unknown> {
    if (yield * exists(this.sql.live(id, true, within))) return
    mustBeLive(this.resource, id, (yield * exists(this.sql.tombstone(id))) ? 'deleted' : 'absent')
  }

  /** Deletes a live record that no other record names, once `precondition` accepts it; its id is kept as a tombstone. */
  * deleting (id: number, precondition: Precondition | undefined, now: string, guard?: RecordGuard): Sequence<void> {
    const current = yield * this.#current(id, precondition, guard)
    for (const by of this.referencedBy) {
      if (yield * exists(this.sql.naming(by, [id]))) throw stillReferenced(this.resource, id, by.name)
    }
    yield * this.#removing([id], now)
    return { result: undefined, changes: [this.#change(current.record, undefined)] }
  }

  /** Whether a row a guarded write returned (the record, its version, then `holds(guard.write)`) is within what the token may write. */
  #holds (written: Scalar[]): boolean {
    return truthy(written[this.sql.columns.length + 1])
  }

  #change (before: ResourceRecord | undefined, after: ResourceRecord | undefined): Change {
    return { collection: this.resource.name, before, after }
  }

  /** Deletes the records `ids`, their words kept apart with them, and keeps their ids as tombstones. */
  * #removing (ids: number[], now: string): Generator<Ask, void, unknown> {
    yield * run(this.sql.removed(ids))
    const apart = this.sql.search?.apart
    if (apart !== undefined) for (const id of ids) yield * later(apart.remove(id))
    yield * run(this.sql.buried(ids, now))
  }

  /**
   * The live record, locked for the write, once the precondition accepts it: 404 if it never was
   * (or the token's access rules do not let it see it), 410 if deleted; 403 when they do not let
   * it write it.
   */
  * #current (id: number, precondition: Precondition | undefined, guard: RecordGuard | undefined): Generator<Ask, Versioned, unknown> {
    const found = yield * row(this.sql.locked(id, guard))
    if (found !== undefined && guard !== undefined) {
      const [seen, writable] = found.slice(this.sql.columns.length + 1)
      if (!truthy(seen)) mustBeLive(this.resource, id, 'absent')
      if (!truthy(writable)) throw outsideWrite(this.resource, id, false)
    }
    if (found === undefined) {
      const live = yield * exists(this.sql.live(id))
      const deleted = !live && (yield * exists(this.sql.tombstone(id)))
      mustBeLive(this.resource, id, live ? 'live' : deleted ? 'deleted' : 'absent')
      throw new Error(`record ${id} is neither live nor gone`)
    }
    const current = this.sql.versioned(found)
    precondition?.(current)
    return current
  }

  /**
   * The rules a schema cannot state: references to live records (which the dialect keeps from
   * being deleted until the write commits), and of those only the ones the token's access rules
   * there let it see, as if the others did not exist; and unique values, without regard to ASCII case.
   */
  * #check (values: ResourceRecord, ownId: number | undefined, prefix: string, guard: RecordGuard | undefined):
  Generator<Ask, FieldError[], unknown> {
    const errors: FieldError[] = []
    for (const [field, target] of Object.entries(this.resource.references)) {
      const value = values[field]
      if (value === undefined || value === null) continue
      const within = guard?.references[field]
      const seen = within === undefined || within.length === 0 ? undefined : this.#targets.get(field)?.holds(within)
      if (!(yield * exists(this.sql.referenced(field, value, seen)))) errors.push(namesNoRecord(field, target, value, prefix))
    }
    for (const field of this.resource.unique) {
      const value = values[field]
      if (value === undefined || value === null) continue
      if (yield * exists(this.sql.taken(field, value, ownId))) errors.push(alreadyUsed(this.resource, field, value, prefix))
    }
    return errors
  }
}
