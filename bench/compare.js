// `node bench/compare.js a.json b.json [--target service] [--limit 1.5]`
//
// Two runs of `npm run bench` (bench/results/*.json), typically the same cases at two sizes:
// prints, per TLS mode and case, the p99 of run b as a ratio of run a's, and whether it stays
// within --limit (default 1.5: "p99 at 1,000,000 rows within 1.5x of the same case at 10,000").
// Exits 1 when a case exceeds the limit, 0 otherwise.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { ms, table } from './report.js'

const { values, positionals } = parseArgs({
  options: { target: { type: 'string', default: 'service' }, limit: { type: 'string', default: '1.5' } },
  allowPositionals: true
})
const limit = Number(values.limit)
if (positionals.length !== 2 || !(limit > 0)) {
  console.error('usage: node bench/compare.js a.json b.json [--target service|A|S|B] [--limit 1.5]')
  process.exit(2)
}
const [a, b] = positionals.map(file => JSON.parse(readFileSync(file, 'utf8')))
const describe = run => `${run.settings.rows} rows, ${run.settings.duration} s per case, ${run.machine.date.slice(0, 10)}`
console.log(`${values.target}: p99 of b (${describe(b)}) / p99 of a (${describe(a)}), limit ${limit}x`)

let exceeded = 0
for (const mode of Object.keys(a.modes).filter(m => b.modes[m] !== undefined)) {
  const [ca, cb] = [a, b].map(run => run.modes[mode].targets[values.target]?.cases ?? {})
  const rows = []
  for (const name of Object.keys(ca).filter(n => cb[n] !== undefined)) {
    const [fa, fb] = [ca[name], cb[name]]
    if (fa.na !== undefined || fb.na !== undefined) {
      rows.push([name, '-', '-', 'n/a', ''])
      continue
    }
    const usable = fa.p99 > 0 && fb.p99 !== null && !fa.failing && !fb.failing
    const ratio = usable ? fb.p99 / fa.p99 : null
    if (ratio !== null && ratio > limit) exceeded++
    rows.push([
      name,
      `${ms(fa.p99)}${fa.failing ? '!' : ''}`,
      `${ms(fb.p99)}${fb.failing ? '!' : ''}`,
      ratio === null ? '-' : ratio.toFixed(2),
      ratio === null ? 'errors' : ratio <= limit ? 'yes' : 'NO'
    ])
  }
  console.log(`\nTLS ${mode}`)
  console.log(table(['case', 'a p99 ms', 'b p99 ms', 'b/a', `within ${limit}x`], rows))
}
if (exceeded > 0) console.log(`\n${exceeded} case(s) over ${limit}x`)
process.exitCode = exceeded > 0 ? 1 : 0
