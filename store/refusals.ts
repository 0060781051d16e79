import { StoreError } from '../model/refusal.ts'
import type { Resource } from '../model/resource.ts'
import type { FieldError } from '../model/values.ts'
import type { Presence } from './contract.ts'

/**
 * Refuses an id that names no live record: 404 if it never did, 410 if it was deleted (ids are
 * never reused, so a deleted one stays gone).
 */
export function mustBeLive (resource: Resource, id: number, presence: Presence): void {
  if (presence === 'absent') throw new StoreError('not_found', `no ${resource.singular} with id ${id}`)
  if (presence === 'deleted') throw new StoreError('gone', `${resource.singular} ${id} was deleted`)
}

/** A change of every matching record refused for their number (Prefer: max-affected): `count`, or how many at least. */
export function tooManyMatches (resource: Resource, count: number | string, max: number): StoreError {
  return new StoreError('invalid', `${count} ${count === 1 ? resource.singular : resource.name} match, more than the ${max} ` +
    'that Prefer: max-affected allows; nothing was changed')
}

/**
 * Thrown by a dry run once its work is done, carrying the result: what undoes a refused write
 * (the transaction rolled back, nothing kept in memory) undoes it, and the caller answers `result`.
 */
export class DryRun<T> extends Error {
  override name = 'DryRun'
  readonly result: T

  constructor (result: T) {
    super('a dry run, undone')
    this.result = result
  }
}

export function invalid (errors: FieldError[]): StoreError {
  return new StoreError('invalid', `Validation failed: ${errors.map(e => e.message).join('; ')}`, errors)
}

/** A unique field's value another record holds, `value` shown when given, the field named after `prefix` (a batch's operation). */
export const alreadyUsed = (resource: Resource, field: string, value?: unknown, prefix = ''): FieldError => ({
  field: `${prefix}${field}`,
  code: 'unique',
  message: `${field}${value === undefined ? '' : ` "${String(value)}"`} is already used by another ${resource.singular}`
})

/** A reference to no record of `target`, as alreadyUsed's. */
export const namesNoRecord = (field: string, target: string, value?: unknown, prefix = ''): FieldError => ({
  field: `${prefix}${field}`,
  code: 'not_found',
  message: `${field}${value === undefined ? '' : ` ${String(value)}`} names no existing record of ${target}`
})

/** The refusal of deleting a record that others still name. */
export const stillReferenced = (resource: Resource, id: number | undefined, what: string): StoreError =>
  new StoreError('conflict', `${id === undefined ? `a ${resource.singular}` : `${resource.singular} ${id}`} still has ${what}; ` +
    'delete or move them first')

/**
 * A write the token's access rules do not allow: of a record it may see but not write
 * (`moved` false), or that would leave the record outside what it may write (a create's, or a
 * change's). Nothing is written.
 */
export function outsideWrite (resource: Resource, id: number | undefined, moved = true): StoreError {
  const record = id === undefined ? `the new ${resource.singular}` : `${resource.singular} ${id}`
  return new StoreError('forbidden', moved
    ? `The access rules of ${resource.name} do not let this access token write ${record} with these values; nothing was written`
    : `The access rules of ${resource.name} do not let this access token change ${record}; nothing was written`)
}

/** A change giving `field`, which the access rules set from the token that created the record, another value. */
export function setByRules (resource: Resource, field: string): StoreError {
  const message = `${field}: the access rules set it when the ${resource.singular} was made; it keeps that value`
  return new StoreError('forbidden', `The access rules of ${resource.name} do not let this access token write ${message}`,
    [{ field, code: 'forbidden', message }])
}

/** A read that ran longer than it may: what every engine's aggregate is refused as once its time runs out. */
export const timedOut = (): StoreError => new StoreError('timed_out', 'the read ran longer than its time limit')
