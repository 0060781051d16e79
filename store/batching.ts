import { BatchRefusal, type Write, type WriteResult } from './contract.ts'
import type { CollectionWrites } from './collections.ts'
import type { RecordBudget } from './record-budget.ts'
import type { Change, Sequence } from './sequence.ts'

/*
 * How a write runs, alone or in a batch: one function, so that a check a write holds is made
 * however it comes (store/contract.ts's Write).
 */

/**
 * Where a batch stands: `started` once its writes are asked for, the index of the write being
 * made ready or run, and that write once `next` gave it; `done` once every write has run. A
 * failure before the start or after the end is the batch's own, of no operation.
 */
export interface BatchPosition { started: boolean, index: number, write: Write | undefined, done: boolean }

/** What a batch throws when it fails at `position`: the refusal of an operation, or the failure as it is outside them. */
export const batchFailure = (position: BatchPosition, err: unknown): unknown =>
  position.started && !position.done ? new BatchRefusal(position.index, err) : err

/**
 * One write's sequence, in the transaction that runs it: its parent checked live (and seen by the
 * token) first, then the write of its own collection, spending `budget`.
 */
export function * running (writes: (collection: string) => CollectionWrites, write: Write, now: string, budget: RecordBudget):
Sequence<WriteResult> {
  const { parent } = write
  if (parent === undefined) return yield * writes(write.collection).running(write, now, budget)
  yield * writes(parent.collection).ensuringLive(parent.id, parent.within)
  // A change of many records of a nested path changes only those of its parent.
  const narrowed = write.op === 'updateWhere' || write.op === 'deleteWhere'
    ? { ...write, filters: [...write.filters, { field: parent.field, op: 'eq' as const, value: parent.id }] }
    : write
  return yield * writes(write.collection).running(narrowed, now, budget)
}

/**
 * The writes of a batch as one sequence, for one transaction: each asked of `next` once the one
 * before it is done, and run as it would be alone (`running`); their changes in the order they
 * were made.
 */
export function * batching (
  writes: (collection: string) => CollectionWrites,
  next: (done: readonly WriteResult[]) => Write | undefined,
  now: string,
  position: BatchPosition,
  budget: RecordBudget
): Sequence<WriteResult[]> {
  const result: WriteResult[] = []
  const changes: Change[] = []
  position.started = true
  for (;;) {
    position.index = result.length
    position.write = undefined
    const write = position.write = next(result)
    if (write === undefined) {
      position.done = true
      return { result, changes }
    }
    const step = yield * running(writes, write, now, budget)
    result.push(step.result)
    changes.push(...step.changes)
  }
}
