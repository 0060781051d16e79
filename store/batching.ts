import { BatchRefusal, type BatchResult, type BatchWrite } from './contract.ts'
import type { CollectionWrites } from './collections.ts'
import type { RecordBudget } from './record-budget.ts'
import type { Change, Sequence } from './sequence.ts'

/**
 * Where a batch stands: `started` once its writes are asked for, the index of the write being
 * made ready or run, and that write once `next` gave it; `done` once every write has run. A
 * failure before the start or after the end is the batch's own, of no operation.
 */
export interface BatchPosition { started: boolean, index: number, write: BatchWrite | undefined, done: boolean }

/** What a batch throws when it fails at `position`: the refusal of an operation, or the failure as it is outside them. */
export const batchFailure = (position: BatchPosition, err: unknown): unknown =>
  position.started && !position.done ? new BatchRefusal(position.index, err) : err

/**
 * The writes of a batch as one sequence, for one transaction: each asked of `next` once the one
 * before it is done, and run as a write of its own collection would be; their changes in the
 * order they were made.
 */
export function * batching (
  writes: (collection: string) => CollectionWrites,
  next: (done: readonly BatchResult[]) => BatchWrite | undefined,
  now: string,
  position: BatchPosition,
  budget: RecordBudget
): Sequence<BatchResult[]> {
  const result: BatchResult[] = []
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
    if (write.parent !== undefined) yield * writes(write.parent.collection).ensuringLive(write.parent.id, write.parent.within)
    const step = yield * writes(write.collection).running(write, now, budget)
    result.push(step.result)
    changes.push(...step.changes)
  }
}
