import { randomBytes } from 'node:crypto'
import { ROOT_CONTEXT } from '@opentelemetry/api'
import { SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace'
import { test } from 'tap'
import { DecidedIds, ratioDecision } from '../../telemetry/sampling.ts'

const IDS = 20_000

test('a new trace is kept on its id\'s bytes exactly as the SDK\'s ratio sampler keeps it on their hex', async t => {
  const bytes = randomBytes(IDS * 16)
  // Ids whose words XOR to the bounds' neighbours, where an off-by-one would show.
  const edge = Buffer.alloc(16)
  for (const ratio of [0, 1e-9, 0.01, 0.25, 0.5, 0.999, 1, -1, 2, Number.NaN]) {
    const sdk = new TraceIdRatioBasedSampler(ratio)
    const decide = ratioDecision(ratio)
    const bound = Math.floor(Math.min(1, Math.max(0, Number.isNaN(ratio) ? 0 : ratio)) * 0xffffffff)
    let differ = 0
    let kept = 0
    const compare = (id: Buffer, start: number): void => {
      const keptBySdk = sdk.shouldSample(ROOT_CONTEXT, id.toString('hex', start, start + 16))
        .decision === SamplingDecision.RECORD_AND_SAMPLED
      if (decide(id, start) !== keptBySdk) differ++
      if (keptBySdk) kept++
    }
    for (let start = 0; start < bytes.length; start += 16) compare(bytes, start)
    for (const word of [bound - 1, bound, bound + 1, 0xffffffff]) {
      if (word < 0 || word > 0xffffffff) continue
      edge.writeUInt32BE(0x01020304, 0)
      edge.writeUInt32BE(0x01020304, 4)
      edge.writeUInt32BE(0xa0b0c0d0, 8)
      edge.writeUInt32BE((0xa0b0c0d0 ^ word) >>> 0, 12)
      compare(edge, 0)
    }
    t.equal(differ, 0, `ratio ${ratio}: the same decision for ${IDS} random ids and the bound's neighbours (${kept} kept)`)
  }
})

test('a kept root\'s id is the one the tracer then gets; a trace not kept makes no id', async t => {
  const ids = new DecidedIds()
  let asked = 0
  t.equal(ids.keptRoot(() => { asked++; return false }), undefined)
  const id = ids.keptRoot(() => { asked++; return true })
  t.match(id, /^[0-9a-f]{32}$/)
  t.equal(asked, 2)
  ids.decided = id
  t.equal(ids.generateTraceId(), id, 'the decided id, once')
  t.not(ids.generateTraceId(), id)
  const half = ratioDecision(0.5)
  const kept = Array.from({ length: 4000 }, () => ids.keptRoot(half)).filter(one => one !== undefined)
  t.ok(kept.length > 1600 && kept.length < 2400, `about half kept at 0.5 (${kept.length} of 4000)`)
  t.equal(new Set(kept).size, kept.length, 'every kept id new')
  const sdk = new TraceIdRatioBasedSampler(0.5)
  t.ok(kept.every(one => sdk.shouldSample(ROOT_CONTEXT, one as string).decision ===
    SamplingDecision.RECORD_AND_SAMPLED), 'each kept id kept by the SDK\'s sampler too')
})
