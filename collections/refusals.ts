import type { FieldError } from '../schemas/common.ts'
import type { Resource } from './resource.ts'
import type { CollectionStore, Presence } from './store.ts'

/** The status each kind of refusal answers. */
const STATUS = { not_found: 404, gone: 410, conflict: 409, invalid: 422 } as const

/** Why a store operation was refused, and the HTTP status that says so. */
export class StoreError extends Error {
  override name = 'StoreError'
  readonly kind: 'not_found' | 'gone' | 'conflict' | 'invalid'
  readonly errors: FieldError[]

  constructor (
    kind: 'not_found' | 'gone' | 'conflict' | 'invalid',
    message: string,
    errors: FieldError[] = []
  ) {
    super(message)
    this.kind = kind
    this.errors = errors
  }

  get status (): number {
    return STATUS[this.kind]
  }
}

/**
 * Refuses an id that names no live record: 404 if it never did, 410 if it was deleted (ids are
 * never reused, so a deleted one stays gone).
 */
export function mustBeLive (resource: Resource, id: number, presence: Presence): void {
  if (presence === 'absent') throw new StoreError('not_found', `no ${resource.singular} with id ${id}`)
  if (presence === 'deleted') throw new StoreError('gone', `${resource.singular} ${id} was deleted`)
}

/** `mustBeLive`, asking the collection's store where the id stands. */
export async function ensureLive (collection: CollectionStore, id: number): Promise<void> {
  mustBeLive(collection.resource, id, await collection.presence(id))
}
