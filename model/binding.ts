import { Type, type TObject } from '@sinclair/typebox'
import type { Binding } from './access.ts'
import type { Filter } from './filters.ts'
import { StoreError } from './refusal.ts'
import type { Resource, ResourceRecord } from './resource.ts'

/*
 * What a binding (a collection's access rules bound to one token, model/access.ts) does to the
 * records, bodies and queries that token reads and writes: the fields it is answered, what a body
 * of its may give, which query parameters it may name. Applied to every operation by the records
 * view of the store (store/bound.ts), and nowhere else.
 */

/** A record without the fields hidden from a binding. */
export function shown (record: ResourceRecord, binding: Binding | undefined): ResourceRecord {
  if (binding === undefined || binding.hidden.size === 0) return record
  const visible: ResourceRecord = {}
  for (const [field, value] of Object.entries(record)) if (!binding.hidden.has(field)) visible[field] = value
  return visible
}

/** A query parameter refused as one the collection does not know: said so, whatever the field, so that it tells nothing of it. */
const unknownParameter = (name: string): StoreError => new StoreError('bad_query', `Invalid query: unknown query parameter ${name}`,
  [{ field: name, code: 'unknown', message: `unknown query parameter ${name}` }])

/** A list parameter naming a field hidden from the token, refused as a field the collection does not have. */
export const noSuchField = (resource: Resource, parameter: string, field: string): StoreError =>
  new StoreError('bad_query', `Invalid query: ${parameter} names ${field}, which is no field of ${resource.name}`,
    [{ field: parameter, code: 'pattern', message: `${parameter} names ${field}, which is no field of ${resource.name}` }])

/** The 403 of a body giving a field the token may not write, naming it. */
const notYours = (resource: Resource, field: string, why: string): StoreError =>
  new StoreError('forbidden', `The access rules of ${resource.name} do not let this access token write ${field}: ${why}`,
    [{ field, code: 'forbidden', message: `${field}: ${why}` }])

/** Refuses filters on a field hidden from the binding, as their parameters (`<field>`, `<field>_<op>`) would be. */
export function refuseHiddenFilters (binding: Binding | undefined, filters: readonly Filter[]): void {
  if (binding === undefined || binding.hidden.size === 0) return
  for (const filter of filters) {
    if (filter.op !== 'any' && binding.hidden.has(filter.field)) {
      throw unknownParameter(filter.op === 'eq' ? filter.field : `${filter.field}_${filter.op}`)
    }
  }
}

/**
 * A body's record as a bound token writes it: a hidden field or a field the rules set to another
 * value than its claim's is refused (403 naming it); on create (`setting`), the fields the rules
 * set take their claims' values.
 */
export function bodyOf (resource: Resource, binding: Binding, record: ResourceRecord, setting: boolean): ResourceRecord {
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
 * create (OPTIONS): a bound token neither a hidden field nor one the rules set from its claims.
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
