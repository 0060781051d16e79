import type { FieldError } from './values.ts'

export type RefusalKind = 'not_found' | 'gone' | 'conflict' | 'invalid' | 'forbidden' | 'bad_query' | 'timed_out'

/**
 * Why the data refused an operation: no such record, one deleted, a conflict with others, invalid
 * values, an access rule, a query naming what the token may not see, or a read that ran longer
 * than it may.
 */
export class StoreError extends Error {
  override name = 'StoreError'
  readonly kind: RefusalKind
  readonly errors: FieldError[]

  constructor (
    kind: RefusalKind,
    message: string,
    errors: FieldError[] = []
  ) {
    super(message)
    this.kind = kind
    this.errors = errors
  }
}
