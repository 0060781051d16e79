import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { listeningLocal, makeTree, runTool } from './helper.ts'

/*
 * The MCP face checked by a client nobody here wrote: the conformance suite of the Model Context
 * Protocol (@modelcontextprotocol/conformance, pinned), its server scenarios against /mcp on a
 * real socket. What it may fail, and why, is conformance-baseline.yml beside this file.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BASELINE = fileURLToPath(new URL('./conformance-baseline.yml', import.meta.url))
/** The scenarios that apply to a server of tools alone: every check of theirs must pass. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']

t.test('every baseline entry says why', async t => {
  const entries = readFileSync(BASELINE, 'utf8').split('\n').filter(line => line.trimStart().startsWith('- '))
  t.ok(entries.length > 0)
  for (const entry of entries) t.match(entry, /^ {2}- [a-z0-9-]+ +# \S.{10,}$/, entry)
  for (const scenario of APPLICABLE) t.notOk(entries.some(entry => entry.includes(`- ${scenario} `)), `${scenario} is not excused`)
})

for (const spec of ['2025-06-18', '2025-11-25']) {
  t.test(`the conformance suite's server scenarios of ${spec} pass, but for the baseline`, async t => {
    const root = makeTree(t, { allowed: { 'a.txt': 'a', sub: {} } })
    const { port } = await listeningLocal(t, { ALLOWED_DIRS: `${root}/allowed` })
    // Kept after the run (.tap/ is not in the repository), for whoever reads a failure.
    const report = join(ROOT, '.tap', 'conformance', spec)
    rmSync(report, { recursive: true, force: true })
    const url = `http://127.0.0.1:${port}/mcp`
    const args = ['server', '--url', url, '--spec-version', spec, '--expected-failures', BASELINE, '-o', report]
    const run = await runTool('conformance', args, t.testdir())
    const summary = run.stdout.slice(run.stdout.indexOf('=== SUMMARY ==='))
    t.equal(run.code, 0, `the suite's report is in ${report}\n${summary}\n${run.stderr}`)
    t.match(run.stdout, /Baseline check passed/)

    const folders = readdirSync(report)
    for (const scenario of APPLICABLE.filter(s => spec === '2025-11-25' || s !== 'dns-rebinding-protection')) {
      const folder = folders.find(name => name.startsWith(`server-${scenario}-`))
      t.ok(folder, `${scenario} ran`)
      const checks = JSON.parse(readFileSync(join(report, folder ?? '', 'checks.json'), 'utf8')) as { id: string, status: string }[]
      t.ok(checks.length > 0, `${scenario}: checks`)
      for (const check of checks) t.equal(check.status, 'SUCCESS', `${scenario}: ${check.id}`)
    }
  })
}
