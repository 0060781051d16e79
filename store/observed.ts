import { channel, tracingChannel } from 'node:diagnostics_channel'
import { performance } from 'node:perf_hooks'

/**
 * What the store tells whoever listens (the metrics and traces of telemetry/), through Node's
 * diagnostics channels: a channel nobody subscribes to costs a property read, so the store pays
 * nothing for what is switched off, and knows nothing of who listens.
 */

/** A statement sent to the database, as its tracing channel's events carry it. */
export interface StatementEvent {
  system: 'sqlite' | 'postgresql'
  /** Its text, with placeholders where its values go: never the values. */
  text: string
  error?: unknown
}

/** Every statement, from its start to its answer (`end` on SQLite, which answers at once; `asyncEnd` on PostgreSQL). */
export const statements = tracingChannel<unknown, StatementEvent>('zoo-api:db.statement')

/**
 * Every statement's duration once answered, failed or not: `{ system, text, seconds }` (StatementTime),
 * for the metrics. A plain channel's one message costs a statement a few hundred instructions
 * where the tracing channel's events, made for spans, cost it about a thousand (docs/benchmarks.md).
 */
export const statementTimes = channel('zoo-api:db.statement-time')

/**
 * A statement's text as it is announced: the values written into it (PostgreSQL's `inline`: the
 * BEGIN's question, the feed's rows of a COMMIT, whole records) each replaced by `?`, as a
 * placeholder stands for one elsewhere, so that no value reaches a span or a metric, and the
 * texts stay few.
 */
export function announced (text: string): string {
  return text.replace(/E?'(?:[^'\\]|''|\\.)*'|(?<![\w$.])-?\d+(?:\.\d+)?(?![\w.])/g, '?')
}

/** A statement's duration, as statementTimes carries it. */
export interface StatementTime {
  system: StatementEvent['system']
  text: string
  seconds: number
}

/**
 * Subscribed to (its messages are none) by whoever needs each write's statements to run in the
 * async context of the request that sent it, though SQLite's group commit runs them together from
 * one callback: the traces, whose statements' spans are children of their request's span. Binding
 * a write to its context costs, so it is done only then.
 */
export const writeContexts = channel('zoo-api:db.write-context')

/**
 * Whether `statements` and `writeContexts` are told now, beside having subscribers: how many of
 * their subscribers want them now. Their subscriber, the traces, subscribes once and wants them
 * only while a kept trace is under way (telemetry/tracing.ts). Subscribing and unsubscribing at
 * each kept trace gave the channels another class each time (Node changes a channel's prototype
 * as it gains its first subscriber and loses its last), which cost every request about 1,900
 * instructions with 1% of traces kept (docs/benchmarks.md); a property of a plain object changes
 * nothing else.
 */
export const heard = { statements: 0 }

/** A SQLite group commit (store/sqlite/group-commit.ts): `{ writes }`, how many writes it committed together. */
export const groupCommits = channel('zoo-api:sqlite.group-commit')

/** Runs a SQLite statement, `run`, announcing it as `text` to whoever listens. */
export function sqliteStatement<T> (text: string, run: () => T): T {
  if (!statementTimes.hasSubscribers) return traced(text, run)
  const started = performance.now()
  try {
    return traced(text, run)
  } finally {
    timed('sqlite', text, started)
  }
}

function traced<T> (text: string, run: () => T): T {
  return heard.statements > 0 && statements.hasSubscribers ? statements.traceSync(run, { system: 'sqlite', text }) : run()
}

/**
 * Runs a statement that answers later, `call` on `self` with `args` (pg's `query`: a callback as
 * its last argument, else a promise returned), announcing it as `text` to whoever listens. The
 * caller gets the call's own answer: its promise, rejection included, or its callback called.
 */
export function laterStatement (
  system: StatementEvent['system'], text: string, call: (...args: unknown[]) => unknown, self: unknown, args: unknown[]
): unknown {
  const callback = args.at(-1)
  const withCallback = typeof callback === 'function'
  if (!statementTimes.hasSubscribers) return tracedLater({ system, text }, call, self, args, withCallback)
  const started = performance.now()
  const ended = (): void => { timed(system, text, started) }
  if (!withCallback) {
    const answer = tracedLater({ system, text }, call, self, args, false) as Promise<unknown>
    // Heard, not awaited: the caller gets the call's own promise, and its rejection.
    answer.then(ended, ended)
    return answer
  }
  args[args.length - 1] = function answered (this: unknown, ...results: unknown[]): unknown {
    ended()
    return Reflect.apply(callback, this, results)
  }
  return tracedLater({ system, text }, call, self, args, true)
}

function tracedLater (event: StatementEvent, call: (...args: unknown[]) => unknown, self: unknown, args: unknown[], withCallback: boolean):
unknown {
  if (heard.statements === 0 || !statements.hasSubscribers) return Reflect.apply(call, self, args)
  return withCallback
    ? statements.traceCallback(call, -1, event, self, ...args)
    : statements.tracePromise(call as (...args: unknown[]) => Promise<unknown>, event, self, ...args)
}

/** Tells statementTimes of a statement that began at `started` (performance.now()) and has just ended. */
export function timed (system: StatementEvent['system'], text: string, started: number): void {
  statementTimes.publish({ system, text, seconds: (performance.now() - started) / 1000 } satisfies StatementTime)
}

/** A statement's operation, its first word (`SELECT`, `INSERT`, `COMMIT`): what the metrics and the spans name it by. */
export function operationOf (text: string): string {
  return /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'OTHER'
}
