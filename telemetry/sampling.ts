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
 * how a trace without a parent is decided: as the parent-based sampler's root, else the sampler
 * itself, decides it, but on the bytes of its id before any text is made of them (RootDecision).
 */
export interface Samplers {
  sampler: Sampler
  root: RootDecision
}

/**
 * Whether a new trace is kept, decided on the 16 bytes of its id from `start` in `id`, as the root
 * sampler decides on their hex. Most requests of a sampled service start a trace that is not kept:
 * the ratio sampler's reading of the hex (and the check that it is hex) cost each of them 2,200
 * instructions, the hex itself 500 more (docs/benchmarks.md). The tracer asks the SDK's sampler
 * again as it makes a kept span, on the same id, and a test holds the two to the same answers.
 */
export type RootDecision = (id: Buffer, start: number) => boolean

export function samplerFromEnv (): Samplers {
  const ratio = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG') ?? 1
  const always = (): boolean => true
  const never = (): boolean => false
  const alone = (sampler: Sampler, root: RootDecision): Samplers => ({ sampler, root })
  const parentBased = (sampler: Sampler, root: RootDecision): Samplers => ({ sampler: new ParentBasedSampler({ root: sampler }), root })
  switch (getStringFromEnv('OTEL_TRACES_SAMPLER')) {
    case 'always_on': return alone(new AlwaysOnSampler(), always)
    case 'always_off': return alone(new AlwaysOffSampler(), never)
    case 'traceidratio': return alone(new TraceIdRatioBasedSampler(ratio), ratioDecision(ratio))
    case 'parentbased_always_off': return parentBased(new AlwaysOffSampler(), never)
    case 'parentbased_traceidratio': return parentBased(new TraceIdRatioBasedSampler(ratio), ratioDecision(ratio))
    default: return parentBased(new AlwaysOnSampler(), always)
  }
}

/**
 * TraceIdRatioBasedSampler's rule on an id's bytes: its ratio brought within 0 to 1, and an id
 * kept when its four 32-bit words (big-endian, as its hex reads them) XORed together fall below
 * the ratio of 0xffffffff, every id at 1.
 */
export function ratioDecision (ratio: number): RootDecision {
  const within = Number.isNaN(ratio) ? 0 : Math.min(1, Math.max(0, ratio))
  const bound = within === 1 ? 0x100000000 : Math.floor(within * 0xffffffff)
  return (id, start) =>
    ((id.readUInt32BE(start) ^ id.readUInt32BE(start + 4) ^ id.readUInt32BE(start + 8) ^ id.readUInt32BE(start + 12)) >>> 0) < bound
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

  /** A new trace's id if `keeps` keeps it, decided on its bytes, no text made of them otherwise. */
  keptRoot (keeps: RootDecision): string | undefined {
    const start = this.#draw(16)
    if (!keeps(this.#pool, start)) return undefined
    const id = this.#hex(start, 16)
    // An id of zeros is invalid (the ratio sampler keeps none): a new trace is drawn, and decided, instead.
    return id === ZERO_IDS[16] ? this.keptRoot(keeps) : id
  }

  /** Where the next `bytes` random bytes start in the pool. */
  #draw (bytes: number): number {
    if (this.#used + bytes > ID_POOL_BYTES) {
      randomFillSync(this.#pool)
      this.#used = 0
    }
    const start = this.#used
    this.#used += bytes
    return start
  }

  /** The pool's `bytes` from `start` in hex: Buffer's own writer, without toString's reading of its arguments (300 instructions an id). */
  #hex (start: number, bytes: number): string {
    return (this.#pool as unknown as HexSlice).hexSlice(start, start + bytes)
  }

  #random (bytes: number): string {
    const id = this.#hex(this.#draw(bytes), bytes)
    // Its first character first: comparing every id with the zeros' cost a request about a hundred instructions.
    return id.charCodeAt(0) === 48 && id === ZERO_IDS[bytes] ? this.#random(bytes) : id
  }
}
