import type { TObject } from '@sinclair/typebox'
import { bindAccess, type Binding } from '../model/access.ts'
import { bodyOf, noSuchField, refuseHiddenFilters, replacedBy, shown, writableBy } from '../model/binding.ts'
import { matcher, type Filter, type Matcher } from '../model/filters.ts'
import { fieldComparator, type Resource, type ResourceRecord } from '../model/resource.ts'
import {
  comparePositions, type AggregateOptions, type AggregateQuery, type Alongside, type ChangeEntry, type ChangeLog, type Children,
  type CollectionStore, type CollectionStores, type Groups, type ListOptions, type ListQuery, type Page, type RecordGuard,
  type Versioned, type Write, type WriteOptions, type WriteResult
} from './contract.ts'
import { mustBeLive } from './refusals.ts'

/*
 * The one way above the store to reach a collection's records: a view of the collection stores
 * made for the token of a request (its scopes and claims), which applies the collections' access
 * rules (model/access.ts, docs/access-rules.md) itself, to every read and write, the change feed
 * and embedded records included. A record outside `read` is not there for it (404), one outside
 * `write` is not its to change (403), a `set` field takes the token's claim, a `hidden` field is
 * never answered, named in a query, or written. A surface given this view cannot forget a rule.
 */

/** What a token brings to the access rules: its scopes (an unrestricted one lifts a collection's rules) and its claims. */
export interface Bearer {
  readonly scopes: ReadonlySet<string>
  readonly claims: Readonly<Record<string, unknown>>
}

const bindings = new WeakMap<Bearer, Map<Resource, Binding | null>>()

/** What a token may do with the records of `resource`, bound once per token and collection; undefined when nothing binds it. */
function bindingOf (bearer: Bearer | null, resource: Resource): Binding | undefined {
  if (resource.access === undefined || bearer === null) return undefined
  let ofBearer = bindings.get(bearer)
  if (ofBearer === undefined) bindings.set(bearer, ofBearer = new Map())
  let binding = ofBearer.get(resource)
  if (binding === undefined) {
    binding = bindAccess(resource.access, bearer.scopes, bearer.claims) ?? null
    ofBearer.set(resource, binding)
  }
  return binding ?? undefined
}

/** No filter: what an unbound token's reads hold. */
const EVERY: Filter[] = []

/** The records a binding sees, as filters a read must hold; none when nothing binds. */
const seen = (binding: Binding | undefined): Filter[] => binding?.read ?? EVERY

/** What a write did, its records as the binding is answered them. */
function shownResult (result: WriteResult, binding: Binding | undefined): WriteResult {
  if (binding === undefined || binding.hidden.size === 0 || result === undefined) return result
  const versioned = ({ record, version }: Versioned): Versioned => ({ record: shown(record, binding), version })
  if (Array.isArray(result)) return result.map(versioned)
  if ('records' in result) return { records: result.records.map(record => shown(record, binding)) }
  return versioned(result)
}

const feedMatchers = new WeakMap<Binding, Matcher>()

/**
 * Whether a record as the feed keeps it is one the binding sees: its read rules, the filters the
 * stores' reads put in their SQL, evaluated in memory with the SQL's comparisons (`fieldComparator`).
 */
function seenIn (resource: Resource, binding: Binding): Matcher {
  let matches = feedMatchers.get(binding)
  if (matches === undefined) {
    matches = matcher(binding.read, field => fieldComparator(resource, field), resource.search)
    feedMatchers.set(binding, matches)
  }
  return matches
}

/**
 * The collections served, by name, and for each the fields that reference a collection with
 * access rules, with that collection: found once per set of collections served, not on every write.
 */
interface Served { byName: ReadonlyMap<string, Resource>, referencedWithRules: ReadonlyMap<string, [string, Resource][]> }

const servedOnce = new WeakMap<readonly Resource[], Served>()

function servedOf (resources: readonly Resource[]): Served {
  let served = servedOnce.get(resources)
  if (served === undefined) {
    const byName = new Map(resources.map(resource => [resource.name, resource]))
    const referencedWithRules = new Map(resources.map(resource => [resource.name, Object.entries(resource.references)
      .flatMap(([field, name]): [string, Resource][] => {
        const target = byName.get(name)
        return target?.access === undefined ? [] : [[field, target]]
      })]))
    servedOnce.set(resources, served = { byName, referencedWithRules })
  }
  return served
}

/** The change before each change the feed has handed out, asked once per process however many streams need it. */
const previousChanges = new WeakMap<ChangeEntry, Promise<ChangeEntry | undefined>>()

/** The collection stores as one token may use them. */
export class BoundStores {
  readonly #stores: CollectionStores
  readonly #served: Served
  readonly #bearer: Bearer | null
  readonly #standing: Alongside | undefined
  readonly #collections = new Map<string, BoundCollection>()

  /**
   * `served`: every collection of the stores, whose rules a write meets where it names their
   * records; `standing`, whether the token still stands, asked alongside the first statement of
   * the view that can carry it (store/contract.ts's Alongside), and before anything is written.
   */
  constructor (stores: CollectionStores, served: readonly Resource[], bearer: Bearer | null, standing?: Alongside) {
    this.#stores = stores
    this.#served = servedOf(served)
    this.#bearer = bearer
    this.#standing = standing
  }

  collection (resource: Resource): BoundCollection {
    let bound = this.#collections.get(resource.name)
    if (bound === undefined) {
      bound = new BoundCollection(this.#stores.collection(resource), bindingOf(this.#bearer, resource), this.#stores.feed, this.#standing)
      this.#collections.set(resource.name, bound)
    }
    return bound
  }

  /** The change stamps of `collections` (CollectionStores.changes): what they vouch for is read through this view. */
  changes (collections: readonly string[]): Promise<string[]> {
    return this.#stores.changes(collections, { alongside: this.#standing })
  }

  /**
   * What the rules let this token see and write in every collection, as text: equal for equal
   * bindings; empty when none binds it.
   */
  get accessKey (): string {
    const bound = [...this.#served.byName.values()].map(resource => bindingOf(this.#bearer, resource))
    if (bound.every(binding => binding === undefined)) return ''
    return JSON.stringify(bound.map(binding => binding === undefined
      ? null
      : [binding.read, binding.write, [...binding.set], [...binding.hidden]]))
  }

  /** Runs a write as the token may make it (CollectionStores.write): its records answered as it sees them. */
  async write (write: Write, options: Omit<WriteOptions, 'alongside'>): Promise<WriteResult> {
    const [bound, binding] = this.#bound(write)
    return shownResult(await this.#stores.write(bound, { ...options, alongside: this.#standing }), binding)
  }

  /** Runs writes in one transaction as the token may make each (CollectionStores.batch): `next` is given what it sees. */
  async batch (next: (done: readonly WriteResult[]) => Write | undefined, options: Omit<WriteOptions, 'alongside'>):
  Promise<WriteResult[]> {
    const bindingsOf: (Binding | undefined)[] = []
    const answered: WriteResult[] = []
    const results = await this.#stores.batch(done => {
      for (let i = answered.length; i < done.length; i++) answered.push(shownResult(done[i], bindingsOf[i]))
      const write = next(answered)
      if (write === undefined) return undefined
      const [bound, binding] = this.#bound(write)
      bindingsOf.push(binding)
      return bound
    }, { ...options, alongside: this.#standing })
    return results.map((result, i) => answered[i] ?? shownResult(result, bindingsOf[i]))
  }

  /** The served collection named `name`. */
  #resource (name: string): Resource {
    const resource = this.#served.byName.get(name)
    if (resource === undefined) throw new Error(`no collection ${name} is served`)
    return resource
  }

  /**
   * A write as the token may make it: its parent within what it sees there, its values as it may
   * give them (rules' `set` fields filled in, hidden ones refused), a bound replace made a change
   * of the fields it may write, and the guard the store checks its records against.
   */
  #bound (write: Write): [Write, Binding | undefined] {
    const resource = this.#resource(write.collection)
    const binding = bindingOf(this.#bearer, resource)
    const guard = this.#guard(resource, binding)
    const parent = write.parent === undefined
      ? {}
      : { parent: { ...write.parent, within: seen(bindingOf(this.#bearer, this.#resource(write.parent.collection))) } }
    const bound = { ...write, ...parent, ...(guard === undefined ? {} : { guard }) } as Write
    if (binding === undefined) return [bound, binding]
    switch (bound.op) {
      case 'create': return [{ ...bound, inputs: bound.inputs.map(input => bodyOf(resource, binding, input, true)) }, binding]
      case 'replace': return [{ ...bound, op: 'update', values: replacedBy(resource, binding, bound.values) }, binding]
      case 'update': return [{ ...bound, values: bodyOf(resource, binding, bound.values, false) }, binding]
      case 'updateWhere':
        refuseHiddenFilters(binding, bound.filters)
        return [{ ...bound, values: bodyOf(resource, binding, bound.values, false) }, binding]
      case 'deleteWhere':
        refuseHiddenFilters(binding, bound.filters)
        return [bound, binding]
      case 'delete': return [bound, binding]
    }
  }

  /**
   * What a write of `resource` must meet for this token (`binding`, its rules there): those rules,
   * and the rules of each collection a field references, whose records it may name only where it
   * sees them. Undefined when nothing binds it.
   */
  #guard (resource: Resource, binding: Binding | undefined): RecordGuard | undefined {
    const references: Record<string, Filter[]> = {}
    for (const [field, target] of this.#served.referencedWithRules.get(resource.name) ?? []) {
      const within = seen(bindingOf(this.#bearer, target))
      if (within.length > 0) references[field] = within
    }
    if (binding === undefined && Object.keys(references).length === 0) return undefined
    return { read: seen(binding), write: binding?.write ?? [], references, fixed: binding === undefined ? [] : [...binding.set.keys()] }
  }
}

/** One collection's records as one token may use them. */
export class BoundCollection {
  readonly resource: Resource
  readonly #store: CollectionStore
  readonly #binding: Binding | undefined
  readonly #feed: ChangeLog
  readonly #standing: Alongside | undefined

  constructor (store: CollectionStore, binding: Binding | undefined, feed: ChangeLog, standing: Alongside | undefined) {
    this.resource = store.resource
    this.#store = store
    this.#binding = binding
    this.#feed = feed
    this.#standing = standing
  }

  /** Whether the collection's access rules bind the token: what it is answered then depends on them. */
  get bound (): boolean {
    return this.#binding !== undefined
  }

  /** Whether `field` is hidden from the token. */
  hides (field: string): boolean {
    return this.#binding?.hidden.has(field) === true
  }

  /**
   * The fields a read answers: those `fields=` names, or every field the token may see; undefined:
   * every field. A field hidden from it, named, is refused as no field of the collection.
   */
  fields (named: string[] | undefined): string[] | undefined {
    const binding = this.#binding
    if (binding === undefined || binding.hidden.size === 0) return named
    const hidden = named?.find(field => binding.hidden.has(field))
    if (hidden !== undefined) throw noSuchField(this.resource, 'fields', hidden)
    return (named ?? this.resource.columns.map(column => column.name)).filter(field => !binding.hidden.has(field))
  }

  /**
   * A page of the records the token sees that `query` matches, as it sees them: a filter or sort
   * on a field hidden from it is refused, as its parameter would be. `within`, filters of the
   * path (a nested list's parent), are not the client's.
   */
  async list (query: ListQuery, options: ListOptions, within: Filter[] = []): Promise<Page> {
    const binding = this.#binding
    if (binding === undefined) {
      return this.#store.list(within.length === 0 ? query : { ...query, filters: [...query.filters, ...within] }, options)
    }
    refuseHiddenFilters(binding, query.filters)
    const sorted = query.sort.find(key => binding.hidden.has(key.field))
    if (sorted !== undefined) throw noSuchField(this.resource, 'sortby', sorted.field)
    const page = await this.#store.list({ ...query, filters: [...query.filters, ...within, ...binding.read] }, options)
    return { ...page, items: page.items.map(record => shown(record, binding)) }
  }

  /**
   * The groups of the records the token sees that `query` matches: a field hidden from it, named
   * anywhere in the query (a filter, a group, a measure, a condition on a group, a sort), is refused
   * as no field of the collection, as its list refuses one. `within`, filters of the path.
   */
  async aggregate (query: AggregateQuery, options: AggregateOptions, within: Filter[] = []): Promise<Groups> {
    const binding = this.#binding
    if (binding !== undefined) {
      refuseHiddenFilters(binding, query.filters)
      const named: [string, string][] = [
        ...query.groupBy.map(({ field }): [string, string] => ['group_by', field]),
        ...query.measures.map(({ measure, field }): [string, string] => [measure, field]),
        ...query.having.flatMap(({ of }): [string, string][] => 'field' in of ? [['having', of.field]] : []),
        ...query.sort.flatMap(({ by }): [string, string][] => 'field' in by ? [['sortby', by.field]] : [])
      ]
      const hidden = named.find(([, field]) => binding.hidden.has(field))
      if (hidden !== undefined) throw noSuchField(this.resource, ...hidden)
    }
    return this.#store.aggregate({ ...query, filters: [...query.filters, ...within, ...seen(binding)] }, options)
  }

  /**
   * The live record `id` names, as the token sees it: 404 if it never existed or the token does
   * not see it, 410 if deleted. The token's standing is asked in the statement that reads it.
   */
  async live (id: number): Promise<Versioned> {
    const found = await this.#store.get(id, { alongside: this.#standing, within: seen(this.#binding) })
    if (found === undefined) {
      // A live record the read did not find is one the token's access rules keep from it: for it, there is none.
      const presence = await this.#store.presence(id)
      mustBeLive(this.resource, id, presence === 'live' ? 'absent' : presence)
      throw new Error(`${this.resource.singular} ${id} is neither live nor gone`)
    }
    return { record: shown(found.record, this.#binding), version: found.version }
  }

  /** Refuses an id that names no live record the token sees (404), or a deleted one (410). */
  async ensureSeen (id: number): Promise<void> {
    if (seen(this.#binding).length > 0) await this.live(id)
    else mustBeLive(this.resource, id, await this.#store.presence(id))
  }

  /** The records among `ids` the token sees, as it sees them, in one read, in no particular order. */
  async getMany (ids: readonly number[]): Promise<ResourceRecord[]> {
    return (await this.#store.getMany(ids, seen(this.#binding))).map(record => shown(record, this.#binding))
  }

  /**
   * Of the records the token sees whose `field` names each of `parents`, the first `limit` (in id
   * order) as it sees them, and how many each has.
   */
  async children (field: string, parents: readonly number[], limit: number): Promise<Children> {
    const { items, totals } = await this.#store.children(field, parents, limit, seen(this.#binding))
    const binding = this.#binding
    if (binding === undefined || binding.hidden.size === 0) return { items, totals }
    return { items: new Map([...items].map(([parent, records]) => [parent, records.map(record => shown(record, binding))])), totals }
  }

  /**
   * The fields the token may write in a record, and the JSON Schema of a record it may create
   * (OPTIONS): a bound token neither a hidden field nor one the rules set from its claims.
   */
  writable (): { writable: string[], schema: TObject } {
    return writableBy(this.resource, this.#binding)
  }

  /**
   * The changes the token is told of among `entries` (of this collection), in order: a change that
   * leaves the record within its read rules, without the fields hidden from it; a change that takes
   * the record out of them, or deletes it, as a removal with its id alone, when the token saw the
   * record before it (the record's change before it was within the rules, or is no longer kept:
   * then it may have been). Of a record the token never saw, nothing.
   */
  async seen (entries: readonly ChangeEntry[]): Promise<ChangeEntry[]> {
    const binding = this.#binding
    if (binding === undefined) return [...entries]
    const inside = seenIn(this.resource, binding)
    const told: ChangeEntry[] = []
    for (const entry of entries) {
      if (entry.record !== null && inside(entry.record)) {
        told.push({ ...entry, record: shown(entry.record, binding) })
        continue
      }
      if (entry.event === 'created') continue
      let previous = previousChanges.get(entry)
      if (previous === undefined) previousChanges.set(entry, previous = this.#feed.previous(entry))
      const before = await previous
      if (before === undefined || (before.record !== null && inside(before.record))) told.push({ ...entry, event: 'deleted', record: null })
    }
    return told
  }

  /**
   * A page of the changes the token is told of after `start`, at most `limit`, and the position the
   * next page starts after. A bound token gets as many as the feed holds up to `limit`, read on
   * past the changes it is not told of; at the end of the feed its next page starts after the head
   * of the whole feed, which every collection's changes move, so that the changes it is not told of
   * show in neither the page nor its link.
   */
  async changesAfter (start: string, limit: number): Promise<{ seen: ChangeEntry[], next: string }> {
    const log = this.#feed
    const name = this.resource.name
    if (this.#binding === undefined) {
      const page = await log.after(start, name, limit)
      return { seen: page, next: page.at(-1)?.position ?? start }
    }
    // Read first: every change at or before it is final, so the reads after it miss none of them.
    const head = await log.head()
    const told: ChangeEntry[] = []
    let next = start
    for (;;) {
      const wanted = limit - told.length
      const read = await log.after(next, name, wanted)
      told.push(...await this.seen(read))
      next = read.at(-1)?.position ?? next
      if (told.length === limit) return { seen: told, next }
      if (read.length < wanted) return { seen: told, next: comparePositions(head, next) > 0 ? head : next }
    }
  }
}
