import { StoreError } from '../model/refusal.ts'
import type { Resource } from '../model/resource.ts'

/**
 * The records one request may still write (WRITE_MAX_RECORDS), spent by each write it makes as
 * that write runs; the operations of a batch share one. It bounds what one request holds: on
 * SQLite, the database and the event loop, for as long as its writes take; everywhere, the
 * records read and kept in memory and the change feed's rows of one transaction (which ranks them
 * below a million: migrations/postgres/090_changes.sql).
 */
export class RecordBudget {
  readonly max: number
  /** Whether the operations of a batch share it: what its refusals call the request. */
  readonly batch: boolean
  #spent = 0

  constructor (max: number, batch = false) {
    this.max = max
    this.batch = batch
  }

  /** How many records are left to write. */
  get left (): number {
    return this.max - this.#spent
  }

  /** Spends `count` records, or refuses the write that would take more than are left, before it writes any. */
  spend (count: number): void {
    if (count > this.left) {
      throw new StoreError('invalid', `One request may write at most ${this.max} records; this ${this.batch ? 'batch' : 'one'} would ` +
        `write ${this.#spent + count}; nothing was written`)
    }
    this.#spent += count
  }

  /** The refusal of a change whose filters match more records than are left. */
  exceeded (resource: Resource): StoreError {
    const may = this.batch
      ? `this batch may change only ${this.left} more records (one request may write at most ${this.max})`
      : `one request may change at most ${this.max} records`
    return new StoreError('invalid', `More than ${this.left} ${resource.name} match, and ${may}: narrow the filters; nothing was changed`)
  }
}
