import { raw, type Sql } from './sql.ts'

/*
 * The database port: what the stores written once for both engines (accounts.ts, idempotency.ts,
 * jobs.ts, keys.ts) ask of the database, and what each engine implements in its database.ts. A
 * statement is written once, as a `sql` template of store/sql.ts whose values stay apart from its
 * text: each engine writes their placeholders its own way (`?`, `$1..$n`), so none can be
 * miscounted. A work runs as a write's sequence does (runNow, runAwaiting: store/sequence.ts).
 */

/**
 * A statement a transaction asks its engine to run, and what it wants back: its rows, or how many
 * rows it changed; or a script of statements without values (a migration) to run as it is.
 */
export interface PortQuery { statement: Sql, want: 'rows' | 'changes' | 'script' }

/**
 * A transaction's work: a generator that yields each statement it needs answered (`yield *
 * rowsOf(...)`, `rowOf`, `changesOf`) and returns its result. SQLite runs it to the end at once, inside one
 * synchronous transaction, so that nothing else of the process runs on its connection meanwhile;
 * PostgreSQL awaits each answer on the transaction's own connection.
 */
export type Work<T> = Generator<PortQuery, T, unknown>

/** Every row of a statement, in a transaction. */
export function * rowsOf<R> (statement: Sql): Work<R[]> {
  return (yield { statement, want: 'rows' }) as R[]
}

/** The first row of a statement, in a transaction; undefined when there is none. */
export function * rowOf<R> (statement: Sql): Work<R | undefined> {
  return (yield * rowsOf<R>(statement))[0]
}

/** Runs a statement that returns no rows, in a transaction: how many rows it changed. */
export function * changesOf (statement: Sql): Work<number> {
  return (yield { statement, want: 'changes' }) as number
}

/** Runs a script of statements that hold no values, in a transaction. */
export function * scriptOf (text: string): Work<void> {
  yield { statement: raw(text), want: 'script' }
}

/** What a store asks of its database, whichever the engine: each engine answers a statement and runs a transaction its way. */
export abstract class DatabasePort {
  /** Runs `work` in one transaction: committed if it returns, undone if it throws. */
  abstract transaction<T> (work: Work<T>): Promise<T>
  /**
   * Appended to a read in a transaction: what locks the rows it reads until the transaction ends,
   * where other connections write beside it (nothing where a transaction holds the whole database).
   */
  abstract readonly forUpdate: Sql
  /**
   * The condition that `column`, unique without regard to ASCII case, equals `value` so, in the
   * form the column's unique index serves.
   */
  abstract caseless (column: string, value: string): Sql
  /**
   * The elements of a JSON array, given as text, as a table of one column `value`, in the array's
   * order: many rows written by one statement of one text, whatever their number.
   */
  abstract jsonRows (array: string): Sql
  /** Answers one statement, outside any transaction. */
  protected abstract answer (query: PortQuery): unknown

  /** Every row of a statement. */
  async rows<R> (statement: Sql): Promise<R[]> {
    return await this.answer({ statement, want: 'rows' }) as R[]
  }

  /** The first row of a statement; undefined when there is none. */
  async row<R> (statement: Sql): Promise<R | undefined> {
    return (await this.rows<R>(statement))[0]
  }

  /** Runs a statement that returns no rows: how many rows it changed. */
  async run (statement: Sql): Promise<number> {
    return await this.answer({ statement, want: 'changes' }) as number
  }
}
