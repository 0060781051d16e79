// Where two profiles of bench/instructions.js (`--keep DIR`) differ, function by function, in
// instructions a request: the functions of V8's compiled JavaScript named from the map V8 wrote
// (--perf-basic-prof), the rest as callgrind_annotate names them. Needs valgrind's callgrind_annotate.
//
//   node bench/profile-diff.js BEFORE_DIR AFTER_DIR [--top 40] [--inclusive]
//
// --inclusive counts what each function called too: where a change's cost comes from, not where it is spent.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '40' }, inclusive: { type: 'boolean', default: false } }
})
if (positionals.length !== 2) throw new Error('usage: node bench/profile-diff.js BEFORE_DIR AFTER_DIR [--top N]')

/** A kept profile's self cost by function, in instructions a request. */
function profile (dir) {
  const requests = Number(readFileSync(join(dir, 'requests'), 'utf8'))
  const compiled = readFileSync(join(dir, 'perf.map'), 'utf8').split('\n').filter(Boolean).map(line => {
    const [start, size, ...name] = line.split(' ')
    return { start: BigInt(`0x${start}`), end: BigInt(`0x${start}`) + BigInt(`0x${size}`), name: name.join(' ') }
  })
  // V8 reuses the space of code it has freed: the last code the map says it put at an address is what ran there.
  const nameAt = address => compiled.findLast(code => address >= code.start && address < code.end)?.name ??
    'compiled code not in the map'
  const inclusive = `--inclusive=${values.inclusive ? 'yes' : 'no'}`
  const annotated = execFileSync('callgrind_annotate', ['--threshold=100', inclusive, join(dir, 'callgrind.out')],
    { encoding: 'utf8', maxBuffer: 1 << 28 })
  const costs = new Map()
  for (const line of annotated.split('\n')) {
    const match = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.+?)(?: \[[^\]]*\])?\s*$/.exec(line)
    if (match === null) continue
    const where = match[2]
    if (where === 'PROGRAM TOTALS') continue
    // A name callgrind gives an address; `'2` marks a function's cost within a call of itself.
    const address = /0x([0-9a-f]+)(?:'\d+)?$/.exec(where)
    // The builds compared may sit in two folders: a function is named by its path from the program's folder.
    const named = address === null ? where.replace(/^\?\?\?:/, '') : nameAt(BigInt(`0x${address[1]}`))
    const name = named.replace(/file:\/\/\/\S*?\/dist\//, 'dist/').replace(/\/\S*?\/node_modules\//, 'node_modules/')
    costs.set(name, (costs.get(name) ?? 0) + Number(match[1].replaceAll(',', '')) / requests)
  }
  return costs
}

const [before, after] = positionals.map(profile)
const sum = costs => [...costs.values()].reduce((a, b) => a + b, 0)
const rows = [...new Set([...before.keys(), ...after.keys()])]
  .map(name => ({ name, before: before.get(name) ?? 0, after: after.get(name) ?? 0 }))
  .map(row => ({ ...row, change: row.after - row.before }))
  .sort((a, b) => Math.abs(b.change) - Math.abs(a.change))
const round = n => Math.round(n).toLocaleString('en')
console.log(`a request: ${round(sum(before))} before, ${round(sum(after))} after (${round(sum(after) - sum(before))})`)
for (const row of rows.slice(0, Number(values.top))) {
  console.log(`${round(row.change).padStart(9)} ${round(row.before).padStart(9)} ${round(row.after).padStart(9)}  ${row.name}`)
}
