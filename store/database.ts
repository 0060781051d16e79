/*
 * The database port: what the stores written once for both engines (accounts.ts, idempotency.ts,
 * jobs.ts, keys.ts) ask of the database, and what each engine implements in its database.ts. A
 * statement is written once, as a `sql` template whose values stay apart from its text: each
 * engine writes their placeholders its own way (`?`, `$1..$n`), so none can be miscounted.
 */

/** A statement: its text, in parts around its values. */
export class Sql {
  readonly strings: readonly string[]
  readonly values: readonly unknown[]

  constructor (strings: readonly string[], values: readonly unknown[]) {
    this.strings = strings
    this.values = values
  }

  /** Its text, the place of each value written by `placeholder` from its number (from 1). */
  text (placeholder: (n: number) => string): string {
    return this.strings.reduce((text, part, i) => `${text}${placeholder(i)}${part}`)
  }
}

/**
 * A statement as a tagged template, sql`SELECT ... WHERE id = ${id}`: every value is a parameter,
 * except a Sql, which is written in with its own values (a part of a statement, `raw` text).
 */
export function sql (strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const parts = [strings[0] as string]
  const params: unknown[] = []
  values.forEach((value, i) => {
    const after = strings[i + 1] as string
    if (!(value instanceof Sql)) {
      params.push(value)
      parts.push(after)
      return
    }
    const [first, ...rest] = value.strings as [string, ...string[]]
    parts.push(`${parts.pop() as string}${first}`, ...rest)
    parts.push(`${parts.pop() as string}${after}`)
    params.push(...value.values)
  })
  return new Sql(parts, params)
}

/** Text written into a statement as it is (a list of columns, a clause), never a value. */
export const raw = (text: string): Sql => new Sql([text], [])

/** A statement a transaction asks its engine to run, and what it wants back: its rows, or how many rows it changed. */
export interface Ask { statement: Sql, want: 'rows' | 'changes' }

/**
 * A transaction's work: a generator that yields each statement it needs answered (`yield *
 * rows(...)`, `row`, `run`) and returns its result. SQLite runs it to the end at once, inside one
 * synchronous transaction, so that nothing else of the process runs on its connection meanwhile;
 * PostgreSQL awaits each answer on the transaction's own connection.
 */
export type Work<T> = Generator<Ask, T, unknown>

/** Every row of a statement, in a transaction. */
export function * rows<R> (statement: Sql): Work<R[]> {
  return (yield { statement, want: 'rows' }) as R[]
}

/** The first row of a statement, in a transaction; undefined when there is none. */
export function * row<R> (statement: Sql): Work<R | undefined> {
  return (yield * rows<R>(statement))[0]
}

/** Runs a statement that returns no rows, in a transaction: how many rows it changed. */
export function * run (statement: Sql): Work<number> {
  return (yield { statement, want: 'changes' }) as number
}

/** Runs a work to its end, each statement answered at once. */
export function runNow<T> (work: Work<T>, answer: (ask: Ask) => unknown): T {
  let step = work.next()
  while (step.done !== true) step = work.next(answer(step.value))
  return step.value
}

/** Runs a work to its end, awaiting each answer. */
export async function runAwaiting<T> (work: Work<T>, answer: (ask: Ask) => Promise<unknown>): Promise<T> {
  let step = work.next()
  while (step.done !== true) step = work.next(await answer(step.value))
  return step.value
}

/** What a store asks of its database, whichever the engine. */
export interface DatabasePort {
  /** Every row of a statement. */
  rows<R> (statement: Sql): Promise<R[]>
  /** The first row of a statement; undefined when there is none. */
  row<R> (statement: Sql): Promise<R | undefined>
  /** Runs a statement that returns no rows: how many rows it changed. */
  run (statement: Sql): Promise<number>
  /** Runs `work` in one transaction: committed if it returns, undone if it throws. */
  transaction<T> (work: Work<T>): Promise<T>
  /**
   * Appended to a read in a transaction: what locks the rows it reads until the transaction ends,
   * where other connections write beside it (nothing where a transaction holds the whole database).
   */
  readonly forUpdate: Sql
  /**
   * The condition that `column`, unique without regard to ASCII case, equals `value` so, in the
   * form the column's unique index serves.
   */
  caseless (column: string, value: string): Sql
}
