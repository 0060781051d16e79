import type { Scalar } from '../model/kinds.ts'
import type { ResourceRecord } from '../model/resource.ts'
import { DryRun } from './refusals.ts'
import type { Sql } from './sql.ts'

/*
 * A write's sequence is a generator that yields each statement it needs answered: SQLite runs it
 * to the end at once, inside its group commit's transaction, where nothing may wait; PostgreSQL
 * awaits each answer over the network, inside a transaction of its own. The engine renders each
 * statement for itself (store/sql.ts).
 */

/**
 * A statement a write asks its engine to run, and what it wants back. `later`: nothing waits for
 * it; it may run at any point before the write ends, and before any later `rows` of the same
 * write (SQLite runs the search index's upkeep at the end of each write:
 * store/sqlite/collections.ts says why).
 */
export interface Ask { statement: Sql, want: 'row' | 'rows' | 'exists' | 'run' | 'later' }

/** What a write did to a collection, once it commits: the record before and after (undefined: none). */
export interface Change { collection: string, before: ResourceRecord | undefined, after: ResourceRecord | undefined }

/** A write's sequence: its statements in turn, then its result and its changes. */
export type Sequence<T> = Generator<Ask, { result: T, changes: Change[] }, unknown>

/** The first row of a statement, its values in the order of the select list, or undefined. */
export function * row (statement: Sql): Generator<Ask, Scalar[] | undefined, unknown> {
  return (yield { statement, want: 'row' }) as Scalar[] | undefined
}

/** Every row of a statement, each its values in the order of the select list. */
export function * rows (statement: Sql): Generator<Ask, Scalar[][], unknown> {
  return (yield { statement, want: 'rows' }) as Scalar[][]
}

/** Whether a statement finds a row. */
export function * exists (statement: Sql): Generator<Ask, boolean, unknown> {
  return (yield { statement, want: 'exists' }) as boolean
}

/** Runs a statement whose rows the write does not need. */
export function * run (statement: Sql): Generator<Ask, void, unknown> {
  yield { statement, want: 'run' }
}

/** Leaves a statement for the engine to run before the write ends (`later`). */
export function * later (statement: Sql): Generator<Ask, void, unknown> {
  yield { statement, want: 'later' }
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

/** Runs a sequence to its end, each statement answered at once (a write's, or a work of the database port: store/database.ts). */
export function runNow<A, R> (sequence: Generator<A, R, unknown>, answer: (ask: A) => unknown): R {
  let step = sequence.next()
  while (step.done !== true) step = sequence.next(answer(step.value))
  return step.value
}

/** Runs a sequence to its end, awaiting each answer. */
export async function runAwaiting<A, R> (sequence: Generator<A, R, unknown>, answer: (ask: A) => Promise<unknown>): Promise<R> {
  let step = sequence.next()
  while (step.done !== true) step = sequence.next(await answer(step.value))
  return step.value
}
