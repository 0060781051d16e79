import type { Scalar } from '../model/kinds.ts'
import type { ResourceRecord } from '../model/resource.ts'
import type { Statement } from './dialect.ts'
import { DryRun } from './refusals.ts'

/** A statement a write asks its engine to run, and what it wants back. */
export type Ask =
  | Statement & { want: 'row' }
  | Statement & { want: 'rows' }
  | Statement & { want: 'exists' }
  | Statement & { want: 'run' }
  /**
   * Nothing waits for it: it may run at any point before the write ends, and before any later
   * `rows` of the same write (SQLite runs the search index's upkeep at the end of each write:
   * store/sqlite/collections.ts says why).
   */
  | Statement & { want: 'later' }

/** What a write did to the collection, once it commits: the record before and after (undefined: none). */
export interface Change { before: ResourceRecord | undefined, after: ResourceRecord | undefined }

/** A write's sequence: its statements in turn, then its result and its changes. */
export type Sequence<T> = Generator<Ask, { result: T, changes: Change[] }, unknown>

/** The first row of a statement, its values in the order of the select list, or undefined. */
export function * row (sql: string, params: unknown[]): Generator<Ask, Scalar[] | undefined, unknown> {
  return (yield { sql, params, want: 'row' }) as Scalar[] | undefined
}

/** Every row of a statement, each its values in the order of the select list. */
export function * rows (sql: string, params: unknown[]): Generator<Ask, Scalar[][], unknown> {
  return (yield { sql, params, want: 'rows' }) as Scalar[][]
}

export function * exists (sql: string, params: unknown[]): Generator<Ask, boolean, unknown> {
  return (yield { sql, params, want: 'exists' }) as boolean
}

export function * run (sql: string, params: unknown[]): Generator<Ask, void, unknown> {
  yield { sql, params, want: 'run' }
}

export function * later (sql: string, params: unknown[]): Generator<Ask, void, unknown> {
  yield { sql, params, want: 'later' }
}

/** A sequence run to its end and then undone: its result travels in a DryRun, which undoes the transaction as any refusal does. */
export function * undone<T> (sequence: Sequence<T>): Sequence<T> {
  const { result } = yield * sequence
  throw new DryRun(result)
}

/** `sequence`, undone at its end when `dryRun`. */
export const maybeUndone = <T>(sequence: Sequence<T>, dryRun: boolean): Sequence<T> => dryRun ? undone(sequence) : sequence

/** The result of a write, or of its dry run (`undone`). */
export async function resultOf<T> (write: Promise<T>): Promise<T> {
  try {
    return await write
  } catch (err) {
    if (err instanceof DryRun) return err.result as T
    throw err
  }
}

/** Runs a sequence to its end, each statement answered at once. */
export function runNow<R> (sequence: Generator<Ask, R, unknown>, answer: (ask: Ask) => unknown): R {
  let step = sequence.next()
  while (step.done !== true) step = sequence.next(answer(step.value))
  return step.value
}

/** Runs a sequence to its end, awaiting each answer. */
export async function runAwaiting<R> (sequence: Generator<Ask, R, unknown>, answer: (ask: Ask) => Promise<unknown>): Promise<R> {
  let step = sequence.next()
  while (step.done !== true) step = sequence.next(await answer(step.value))
  return step.value
}
