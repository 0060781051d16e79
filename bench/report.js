// The printed summary of one TLS mode: a table with one row per case, the read-power cases against
// the service's own plain pages, then what went wrong.
import { READ_POWER, WRITE_POWER } from './cases.js'

const rate = r => r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2)
export const ms = v => v === null || v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)

/** The value at quantile `p` (0..1) of an ascending array, or null when it is empty. */
export const percentile = (sorted, p) => sorted.length === 0
  ? null
  : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]

/** What went wrong in a case: statuses other than 2xx (or than the one it expects), socket errors, or silence. */
export const describeErrors = f => [
  ...Object.entries(f.statuses)
    .filter(([s]) => f.expect === undefined ? s < 200 || s >= 300 : Number(s) !== f.expect)
    .map(([s, n]) => `${n}× ${s}`),
  ...(f.errors > 0 ? [`${f.errors} socket errors${f.timeouts > 0 ? ` (${f.timeouts} timeouts)` : ''}`] : [])
].join(', ')

/** Aligned Markdown table: readable in a terminal, pasteable as it is. */
export function table (header, rows, rightFrom = 1) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)))
  const line = cells => `| ${cells.map((c, i) => i >= rightFrom ? c.padStart(widths[i]) : c.padEnd(widths[i])).join(' | ')} |`
  const rule = `|${widths.map((w, i) => i >= rightFrom ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2)).join('|')}|`
  return [line(header), rule, ...rows.map(line)].join('\n')
}

/**
 * `targets`: name -> { cases: { case -> figures | { na } }, rss, failed }.
 * A figure followed by `!` comes from a case where most answers were errors: it measures nothing.
 */
export function printTable (mode, title, targets, opts) {
  const cell = (name, caseName) => {
    const target = targets[name]
    if (target === undefined) return null
    const figures = target.cases[caseName]
    if (figures === undefined) return { text: target.failed ? 'failed' : '-' }
    if (figures.na !== undefined) return { text: 'n/a' }
    if (figures.silent) return { figures, text: '0 (none)' }
    return { figures, text: `${rate(figures.reqPerSec)}${figures.failing ? '!' : figures.non2xx + figures.errors > 0 ? '*' : ''}` }
  }
  const others = ['A', 'S', 'Spg', 'P', 'B'].filter(n => targets[n] !== undefined)
  const header = ['case']
  if (targets.service) header.push('service req/s', 'p50 ms', 'p99 ms')
  for (const n of others) header.push(`${n} req/s`, `${n} p99 ms`)
  if (targets.service) for (const n of others) header.push(`service/${n}`)
  const rows = opts.cases.filter(caseName => !(caseName in WRITE_POWER)).map(caseName => {
    const row = [caseName]
    const service = cell('service', caseName)
    if (service) row.push(service.text, ms(service.figures?.p50), ms(service.figures?.p99))
    for (const n of others) {
      const c = cell(n, caseName)
      row.push(c.text, ms(c.figures?.p99))
    }
    if (service) {
      for (const n of others) {
        const c = cell(n, caseName)
        const usable = service.figures && c.figures &&
          service.figures.reqPerSec > 0 && c.figures.reqPerSec > 0 &&
          !service.figures.failing && !c.figures.failing
        row.push(usable ? (service.figures.reqPerSec / c.figures.reqPerSec).toFixed(2) : service.figures && c.figures ? '-' : 'n/a')
      }
    }
    return row
  })
  console.log(`${title}: ${opts.rows} rows per collection, ${opts.connections} connections, ${opts.duration} s measured per case`)
  console.log(table(header, rows))
  printReadPower(targets.service, opts)
  printWritePower(targets.service, opts)

  const notes = []
  for (const [name, target] of Object.entries(targets)) {
    if (target.failed) notes.push(`${name}: ${target.failed.split('\n')[0]}`)
    if (target.cursor?.note) notes.push(`${name} cursor-deep: ${target.cursor.note}`)
    for (const [caseName, f] of Object.entries(target.cases)) {
      if (f.failed !== undefined) notes.push(`!! FAILING ${name} ${caseName}: ${f.failed}`)
      if (f.na !== undefined || f.statuses === undefined) continue
      const errors = describeErrors(f)
      if (errors !== '') {
        const probe = f.probe?.body !== undefined
          ? `; ${f.probe.request} answers ${f.probe.status}: ${f.probe.body}`
          : f.probe?.error ? `; ${f.probe.request}: ${f.probe.error}` : ''
        notes.push(`${f.failing ? '!! FAILING ' : ''}${name} ${caseName}: ${f.ok} ok, ${errors}${probe}`)
      }
      if (f.silent) {
        notes.push(`${name} ${caseName}: no answer within the ${opts.duration} s measured ` +
          `(each request takes longer than that with ${opts.connections} queued)`)
      }
      if (f.settleSeconds === null) {
        notes.push(`${name} ${caseName}: still busy with the requests queued when the load stopped (30 s later); ` +
          'the next case started anyway')
      }
    }
  }
  // Grouped by reason: "a feature of the service only: A list-fields, A list-304, ...".
  const byReason = new Map()
  for (const [name, target] of Object.entries(targets)) {
    for (const [caseName, f] of Object.entries(target.cases)) {
      if (f.na !== undefined) byReason.set(f.na, [...(byReason.get(f.na) ?? []), `${name} ${caseName}`])
    }
  }
  const na = [...byReason].map(([reason, cases]) => `${reason}: ${cases.join(', ')}`)
  if (notes.length > 0) {
    console.log('\nreq/s counts the answers with the status the case expects (2xx, 304 for list-304); ' +
      '* some answers were errors, ! most were (the figure measures nothing):\n' +
      notes.map(n => `  ${n}`).join('\n'))
  }
  if (na.length > 0) console.log(`n/a: ${na.join('; ')}`)
  const rss = Object.entries(targets).filter(([, t]) => t.rss).map(([n, t]) => `${n} ${(t.rss / 2 ** 20).toFixed(0)} MiB`)
  if (rss.length > 0) console.log(`resident memory (VmRSS) after the last case: ${rss.join(', ')}`)
}

/**
 * Each read-power case of the service against its plain page in the same run: req/s as a share of
 * the plain page's, p99 as a multiple of it, and whether the case's target (cases.js) is met.
 */
function printReadPower (service, opts) {
  const usable = f => f !== undefined && f.na === undefined && !f.failing && !f.silent && f.reqPerSec > 0
  const rows = []
  for (const caseName of opts.cases) {
    const power = READ_POWER[caseName]
    if (power === undefined || service === undefined) continue
    const figures = service.cases[caseName]
    const plain = service.cases[power.plain]
    const target = power.rate !== undefined ? `>= ${power.rate}x req/s` : `<= ${power.p99}x p99`
    if (!usable(figures) || !usable(plain)) {
      rows.push([caseName, power.plain, '-', '-', target, 'not measured'])
      continue
    }
    const rate = figures.reqPerSec / plain.reqPerSec
    const p99 = figures.p99 / plain.p99
    const met = power.rate !== undefined ? rate >= power.rate : p99 <= power.p99
    rows.push([caseName, power.plain, rate.toFixed(2), p99.toFixed(2), target, met ? 'met' : 'missed'])
  }
  if (rows.length === 0) return
  console.log('\nread power, the service against its own plain page:')
  console.log(table(['case', 'plain page', 'req/s ratio', 'p99 ratio', 'target', ''], rows, 2))
}

/** The write-power cases of the service (write-power.js): each against its own other way, and its target. */
function printWritePower (service, opts) {
  const rows = []
  for (const caseName of opts.cases) {
    const f = service?.cases[caseName]?.writePower
    if (!(caseName in WRITE_POWER) || f === undefined) continue
    const target = WRITE_POWER[caseName]
    if (caseName === 'batch-100') {
      rows.push([caseName, `${rate(f.batched)} records/s in batches of 100`, `${rate(f.single)} by single POSTs`, `${f.ratio.toFixed(2)}x`,
        `>= ${target.ratio}x`, f.ratio >= target.ratio ? 'met' : 'missed'])
    } else if (caseName === 'bulk-patch') {
      rows.push([caseName, `${f.records} records: median ${ms(f.median)} ms, max ${ms(f.max)} ms`, '', '',
        `<= ${target.ms} ms`, f.max <= target.ms ? 'met' : 'missed'])
    } else if (caseName === 'aggregate-hold') {
      rows.push([caseName, `${f.aggregates} aggregates at once: ${ms(f.ms)} ms`, `/health at worst ${ms(f.health.slowest)} ms ` +
        `(${f.health.answers})`, '', `<= ${target.ms} ms`, f.health.slowest <= target.ms ? 'met' : 'missed'])
    } else if (caseName === 'hold') {
      for (const [write, m] of Object.entries(f.measured)) {
        // On SQLite the write holds the process as long as it runs; on PostgreSQL only /health tells.
        const worst = Math.max(opts.engine === 'sqlite' ? m.ms : 0, m.health.slowest)
        const health = `/health at worst ${ms(m.health.slowest)} ms (${m.health.answers})`
        rows.push([`hold: ${write}`, `${f.records} records: ${ms(m.ms)} ms`, health, '', `<= ${target.ms} ms`,
          worst <= target.ms ? 'met' : 'missed'])
      }
    } else if (caseName === 'webhooks') {
      rows.push([`${caseName} delay`, `${rate(f.paced)} creates/s, ${f.deliveries} deliveries: p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms`,
        '', '', '', ''])
      rows.push([`${caseName} writes`, `${rate(f.withHooks)} creates/s with ${f.subscriptions} subscriptions`, `${rate(f.without)} without`,
        `${f.ratio.toFixed(2)}x (${f.rounds.map(r => r.ratio.toFixed(2)).join(', ')})`, `>= ${target.ratio}x`,
        f.ratio >= target.ratio ? 'met' : 'missed'])
    } else {
      const missing = f.missing > 0 ? `, ${f.missing} events missing` : ''
      const delay = `p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms${missing}`
      rows.push([`${caseName} delay`, `${f.subscribers} streams, ${rate(f.paced)} writes/s: ${delay}`, '', '',
        `p99 <= ${target.p99} ms`, f.p99 <= target.p99 && f.missing === 0 ? 'met' : 'missed'])
      rows.push([`${caseName} writes`, `${rate(f.withStreams)} writes/s with ${f.subscribers} streams`, `${rate(f.without)} without`,
        `${f.ratio.toFixed(2)}x`, `>= ${target.ratio}x`, f.ratio >= target.ratio ? 'met' : 'missed'])
    }
  }
  if (rows.length === 0) return
  console.log('\nwrite power, the service against its own other way:')
  console.log(table(['case', 'measured', 'against', 'ratio', 'target', ''], rows, 3))
}
