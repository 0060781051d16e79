import { randomFillSync } from 'node:crypto'
import { getNumberFromEnv, getStringFromEnv } from '@opentelemetry/core'
import {
  AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type IdGenerator, type Sampler
} from '@opentelemetry/sdk-trace'

/*
 * What decides whether a request's trace is kept, asked before anything else is made
 * (telemetry/tracing.ts): the sampler the standard variables name, and the ids it decides on.
 */

/** Node's Buffer writes its bytes in hex by this method, which `toString('hex', ...)` calls; a test runs it at every traced request. */
interface HexSlice { hexSlice: (start: number, end: number) => string }

/**
 * The sampler OTEL_TRACES_SAMPLER names (the specification's names), every trace by default, and
 * the one that decides a trace without a parent: a parent-based sampler's root, else the sampler itself.
 */
export interface Samplers {
  sampler: Sampler
  root: Sampler
}

export function samplerFromEnv (): Samplers {
  const ratio = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG') ?? 1
  const alone = (sampler: Sampler): Samplers => ({ sampler, root: sampler })
  const parentBased = (root: Sampler): Samplers => ({ sampler: new ParentBasedSampler({ root }), root })
  switch (getStringFromEnv('OTEL_TRACES_SAMPLER')) {
    case 'always_on': return alone(new AlwaysOnSampler())
    case 'always_off': return alone(new AlwaysOffSampler())
    case 'traceidratio': return alone(new TraceIdRatioBasedSampler(ratio))
    case 'parentbased_always_off': return parentBased(new AlwaysOffSampler())
    case 'parentbased_traceidratio': return parentBased(new TraceIdRatioBasedSampler(ratio))
    default: return parentBased(new AlwaysOnSampler())
  }
}

/** Random bytes drawn at a time for the ids (DecidedIds). */
const ID_POOL_BYTES = 4096
/** The ids W3C Trace Context says are invalid, by their length in bytes. */
const ZERO_IDS: Record<number, string> = { 8: '0'.repeat(16), 16: '0'.repeat(32) }

/**
 * Random ids, as the SDK's own generator makes them, but for two things. The trace id of a request
 * span is the one its sampling was asked with (telemetry/tracing.ts), set just before the tracer makes the
 * span, in the same synchronous step. And they are cut from a pool of the system's random bytes,
 * filled 4 KiB at a time: every request's sampling asks for a trace id, and the SDK's four calls of
 * Math.random and four writes an id cost a request whose trace is not kept 700 instructions more.
 * (The ids as slices of one long text cost more still: the sampler reads a slice's characters slowly.)
 */
export class DecidedIds implements IdGenerator {
  readonly #pool = Buffer.allocUnsafe(ID_POOL_BYTES)
  #used = ID_POOL_BYTES
  decided: string | undefined

  generateTraceId (): string {
    const id = this.decided ?? this.#random(16)
    this.decided = undefined
    return id
  }

  generateSpanId (): string {
    return this.#random(8)
  }

  #random (bytes: number): string {
    if (this.#used + bytes > ID_POOL_BYTES) {
      randomFillSync(this.#pool)
      this.#used = 0
    }
    const start = this.#used
    this.#used += bytes
    // Buffer's own hex writer, without toString's reading of its arguments (300 instructions an id).
    const id = (this.#pool as unknown as HexSlice).hexSlice(start, this.#used)
    // Its first character first: comparing every id with the zeros' cost a request about a hundred instructions.
    return id.charCodeAt(0) === 48 && id === ZERO_IDS[bytes] ? this.#random(bytes) : id
  }
}
