import { Type, type TObject } from '@sinclair/typebox'
import type { Principal } from '../auth/tokens.ts'
import { HttpError } from '../http/errors.ts'
import { bindAccess, type Binding } from '../model/access.ts'
import { matcher, termOf, type Filter, type Matcher } from '../model/filters.ts'
import { compareAsciiCaseInsensitive, KINDS, type Comparator } from '../model/kinds.ts'
import type { Column, Resource, ResourceRecord } from '../model/resource.ts'
import type { ChangeEntry, ChangeLog, RecordGuard } from '../store/contract.ts'

/*
 * A collection's access rules (model/access.ts) as a request meets them: bound to the claims of
 * its token, once per token and collection, and what they refuse in a request before the store
 * runs it (a hidden field named, a field set by the rules given another value). Which records a
 * bound token reads and writes is said by the filters of the binding, which the store puts in the
 * SQL of the read or write itself.
 */

const bindings = new WeakMap<Principal, Map<Resource, Binding | null>>()

/** What a token (its principal; null, none) may do with the records of `resource`; undefined when it is bound by nothing. */
export function bindingOf (principal: Principal | null, resource: Resource): Binding | undefined {
  if (resource.access === undefined || principal === null) return undefined
  let ofPrincipal = bindings.get(principal)
  if (ofPrincipal === undefined) bindings.set(principal, ofPrincipal = new Map())
  let binding = ofPrincipal.get(resource)
  if (binding === undefined) {
    binding = bindAccess(resource.access, principal.scopes, principal.claims) ?? null
    ofPrincipal.set(resource, binding)
  }
  return binding ?? undefined
}

/** The records a bound token sees, as filters for a read to hold; none when it is bound by nothing. */
export const seen = (binding: Binding | undefined): Filter[] => binding?.read ?? []

/** Of a nested collection's parent (none: a collection at the top), the records the token sees there. */
export const parentSeen = (principal: Principal | null, nesting: { parent: Resource } | undefined): Filter[] =>
  nesting === undefined ? [] : seen(bindingOf(principal, nesting.parent))

const withRules = new WeakMap<readonly Resource[], Map<Resource, [string, Resource][]>>()

/**
 * The fields of `resource` that reference a collection with access rules, and that collection,
 * among the collections `served`: found once per resource and app, not on every write.
 */
function referencedWithRules (resource: Resource, served: readonly Resource[]): [string, Resource][] {
  let ofServed = withRules.get(served)
  if (ofServed === undefined) withRules.set(served, ofServed = new Map())
  let found = ofServed.get(resource)
  if (found === undefined) {
    found = Object.entries(resource.references).flatMap(([field, name]): [string, Resource][] => {
      const target = served.find(r => r.name === name)
      return target?.access === undefined ? [] : [[field, target]]
    })
    ofServed.set(resource, found)
  }
  return found
}

/**
 * What a write of `resource` must meet for a token (`binding`, its rules here): those rules, and
 * the rules of each collection a field references among those `served`, whose records it may name
 * only where it sees them. Undefined when nothing binds it.
 */
export function guardOf (principal: Principal | null, served: readonly Resource[], resource: Resource, binding: Binding | undefined):
RecordGuard | undefined {
  const references: Record<string, Filter[]> = {}
  for (const [field, target] of referencedWithRules(resource, served)) {
    const within = seen(bindingOf(principal, target))
    if (within.length > 0) references[field] = within
  }
  if (binding === undefined && Object.keys(references).length === 0) return undefined
  return { read: binding?.read ?? [], write: binding?.write ?? [], references, fixed: binding === undefined ? [] : [...binding.set.keys()] }
}

/** What the access rules let the tokens of `bindings` see and write, as text: equal for equal bindings; empty when none binds. */
export function accessKey (bindings: readonly (Binding | undefined)[]): string {
  if (bindings.every(binding => binding === undefined)) return ''
  return JSON.stringify(bindings.map(binding => binding === undefined
    ? null
    : [binding.read, binding.write, [...binding.set], [...binding.hidden]]))
}

/** The 400 of a query parameter that names a hidden field: said as of any unknown one, so that it tells nothing of the field. */
const unknownParameter = (name: string): HttpError => new HttpError(400, `Invalid query: unknown query parameter ${name}`,
  { errors: [{ field: name, code: 'unknown', message: `unknown query parameter ${name}` }] })

/**
 * Refuses a query that names a field the token may not see, as a parameter it does not know: a
 * filter on it, `sortby` or `fields` naming it.
 */
export function refuseHiddenParameters (resource: Resource, binding: Binding | undefined, query: Record<string, unknown>): void {
  if (binding === undefined || binding.hidden.size === 0) return
  const columns = new Map(resource.columns.map(column => [column.name, column]))
  for (const name of Object.keys(query)) {
    const term = termOf(columns, name)
    if (term !== undefined && binding.hidden.has(term.column.name)) throw unknownParameter(name)
  }
  for (const parameter of ['sortby', 'fields'] as const) {
    const value = query[parameter]
    const hidden = typeof value === 'string' ? value.split(',').find(field => binding.hidden.has(field)) : undefined
    if (hidden !== undefined) {
      throw new HttpError(400, `Invalid query: ${parameter} names ${hidden}, which is no field of ${resource.name}`,
        { errors: [{ field: parameter, code: 'pattern', message: `${parameter} names ${hidden}, which is no field of ${resource.name}` }] })
    }
  }
}

/** The fields a read answers a bound token: those `fields=` names, or every field it may see; undefined: every field. */
export function visibleFields (resource: Resource, binding: Binding | undefined, named: string[] | undefined): string[] | undefined {
  if (binding === undefined || binding.hidden.size === 0) return named
  return (named ?? resource.columns.map(column => column.name)).filter(field => !binding.hidden.has(field))
}

/** A record as a bound token is answered it: without the fields hidden from it. */
export function shown (record: ResourceRecord, binding: Binding | undefined): ResourceRecord {
  if (binding === undefined || binding.hidden.size === 0) return record
  const visible: ResourceRecord = {}
  for (const [field, value] of Object.entries(record)) if (!binding.hidden.has(field)) visible[field] = value
  return visible
}

/** The 403 of a body that gives a field the token may not write, naming it. */
const notYours = (resource: Resource, field: string, why: string): HttpError =>
  new HttpError(403, `The access rules of ${resource.name} do not let this access token write ${field}: ${why}`,
    { errors: [{ field, code: 'forbidden', message: `${field}: ${why}` }] })

/**
 * A body's record as a bound token writes it: a hidden field or a field the rules set to another
 * value than its claim's is refused (403 naming it); on create (`setting`), the fields the rules
 * set take their claims' values. Undefined `binding`: as it is.
 */
export function bodyOf (resource: Resource, binding: Binding | undefined, record: ResourceRecord, setting: boolean): ResourceRecord {
  if (binding === undefined) return record
  for (const field of Object.keys(record)) {
    if (binding.hidden.has(field)) throw notYours(resource, field, 'it is hidden from this access token')
  }
  const written = { ...record }
  for (const [field, value] of binding.set) {
    if (value === undefined) {
      if (setting || field in record) throw notYours(resource, field, 'the access token has no claim the rules set it from')
      continue
    }
    if (field in record && record[field] !== value) throw notYours(resource, field, 'the access rules set it from the access token')
    if (setting) written[field] = value
  }
  return written
}

/**
 * A replace (PUT) as a bound token makes it: every field it may see and write, one missing from
 * the body becoming null, as a replace does; the fields hidden from it, and those the rules set,
 * when the body leaves them out, stay as they are. Written as a change of those fields.
 */
export function replacedBy (resource: Resource, binding: Binding, record: ResourceRecord): ResourceRecord {
  const given = bodyOf(resource, binding, record, false)
  const values: ResourceRecord = {}
  for (const field of resource.writable) {
    if (binding.hidden.has(field) || (binding.set.has(field) && !(field in given))) continue
    values[field] = given[field] ?? null
  }
  return values
}

const writableOf = new WeakMap<Binding, { writable: string[], schema: TObject }>()

/**
 * The fields a token may write in a record of `resource`, and the JSON Schema of a record it may
 * create (OPTIONS): for a bound token, neither a hidden field nor one the rules set from its claims.
 */
export function writableBy (resource: Resource, binding: Binding | undefined): { writable: string[], schema: TObject } {
  const create = resource.schemas.create
  if (binding === undefined) return { writable: resource.writable, schema: create }
  let answer = writableOf.get(binding)
  if (answer === undefined) {
    const writable = resource.writable.filter(field => !binding.hidden.has(field) && !binding.set.has(field))
    answer = { writable, schema: Type.Pick(create, writable, { additionalProperties: false }) }
    writableOf.set(binding, answer)
  }
  return answer
}

const feedMatchers = new WeakMap<Binding, Matcher>()

/** Whether a record as the feed keeps it is one the bound token sees: the read rules, evaluated in memory as the stores evaluate them. */
function seenIn (resource: Resource, binding: Binding): Matcher {
  let matches = feedMatchers.get(binding)
  if (matches === undefined) {
    const compare = (field: string): Comparator => resource.unique.includes(field)
      ? compareAsciiCaseInsensitive
      : KINDS[(resource.columns.find(column => column.name === field) as Column).kind].compare
    matches = matcher(binding.read, compare, resource.search)
    feedMatchers.set(binding, matches)
  }
  return matches
}

/** The change before each change the feed has handed out, asked once per process however many streams need it. */
const previousChanges = new WeakMap<ChangeEntry, Promise<ChangeEntry | undefined>>()

/**
 * The changes of `resource` a bound token is told of, in order: a change that leaves the record
 * within its read rules, without the fields hidden from it; a change that takes the record out of
 * them, or deletes it, as a removal with its id alone, when the token saw the record before it (the
 * record's change before it was within the rules, or is no longer kept: then it may have been).
 * Of a record the token never saw, nothing.
 */
export async function changesSeen (
  entries: readonly ChangeEntry[], resource: Resource, binding: Binding | undefined, log: ChangeLog
): Promise<ChangeEntry[]> {
  if (binding === undefined) return [...entries]
  const inside = seenIn(resource, binding)
  const seen: ChangeEntry[] = []
  for (const entry of entries) {
    if (entry.record !== null && inside(entry.record)) {
      seen.push({ ...entry, record: shown(entry.record, binding) })
      continue
    }
    if (entry.event === 'created') continue
    let previous = previousChanges.get(entry)
    if (previous === undefined) previousChanges.set(entry, previous = log.previous(entry))
    const before = await previous
    if (before === undefined || (before.record !== null && inside(before.record))) {
      seen.push({ ...entry, event: 'deleted', record: null })
    }
  }
  return seen
}

/**
 * What an operation's description says of the access rules of its collection, when it has some:
 * which records and fields a bound token reads, and what its 403 and 404 then mean.
 */
export function accessNote (resource: Resource, operation: 'list' | 'read' | 'write' | 'feed'): string {
  const access = resource.access
  if (access === undefined) return ''
  const free = access.unrestricted === undefined ? '' : ` (a token with ${access.unrestricted} is bound by none)`
  const hidden = access.hidden.length === 0 ? '' : `; ${access.hidden.join(', ')} never answered, nor named in a query (400)`
  switch (operation) {
    case 'list': return ` Access rules${free}: only the records the token's rules let it see, and counts of those${hidden}.`
    case 'read': return ` Access rules${free}: a record outside the token's rules is 404${hidden}.`
    case 'feed': return ` Access rules${free}: only the changes of records the token's rules let it see; one that leaves them is a ` +
      `removal, its id alone${hidden}.`
    case 'write': return ` Access rules${free}: a record outside those the token sees is 404; a write of one outside those it may ` +
      'write, that would move one outside them, or that gives a field the rules hide or set, is 403 and writes nothing.'
  }
}
