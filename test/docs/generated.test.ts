import { readFileSync } from 'node:fs'
import t from 'tap'
import { SETTING_GROUPS, SETTINGS } from '../../config/index.ts'
import { ERRORS } from '../../schemas/responses.ts'
import { GENERATED, readGenerated, renderSettingsTable, renderStatusTable, run, updateGenerated, writeDocs } from '../../scripts/docs.ts'

const root = new URL('../../', import.meta.url)

for (const { page, name, render } of GENERATED) {
  t.test(`the ${name} table of ${page} is the one the code states`, async t => {
    const text = readFileSync(new URL(page, root), 'utf8')
    t.equal(readGenerated(text, name), render(), `${page}: the ${name} table differs from the code: run npm run docs`)
  })
}

t.test('the settings tables have one row per setting, under its group, its flag derived from its variable', async t => {
  const lines = renderSettingsTable().split('\n')
  const rows = lines.filter(line => line.startsWith('| `'))
  t.equal(rows.length, Object.keys(SETTINGS).length)
  t.same(lines.filter(line => line.startsWith('### ')), SETTING_GROUPS.map(group => `### ${group.title}`))
  const groupOf = (env: string) =>
    lines.slice(0, lines.findIndex(line => line.startsWith(`| \`${env}\``))).findLast(line => line.startsWith('### '))
  t.equal(groupOf('DATABASE_URL'), '### Storage')
  t.equal(groupOf('ALLOWED_DIRS'), '### The local tool server')
  t.ok(rows.includes('| `PORT` | `--port` | `8443` | port the API listens on |'))
  t.match(rows.find(row => row.startsWith('| `DATA_DIR` ')), /^\| `DATA_DIR` \| `--data-dir` \| `\.\/data` \| /)
  t.match(rows.find(row => row.startsWith('| `ALLOWED_DIRS` ')), /^\| `ALLOWED_DIRS` \| `--allow DIR` \(repeat it\) \| not set \| /)
  t.match(rows.find(row => row.startsWith('| `LOGIN_PROVIDER` ')), /at `\/login\/<name>`/, 'code spans are left as they are')
})

t.test('the status table has one row per error status the routes declare', async t => {
  const rows = renderStatusTable().split('\n').slice(2)
  t.same(rows.map(row => Number(/^\| (\d+) /.exec(row)?.[1])), Object.keys(ERRORS).map(Number).sort((a, b) => a - b))
  t.match(rows.find(row => row.startsWith('| 429 ')), /^\| 429 Too Many Requests \| .+ \| `Retry-After` \|$/)
  t.match(rows.find(row => row.startsWith('| 404 ')), /^\| 404 Not Found \| .+ \| {2}\|$/)
})

t.test('updateGenerated replaces what lies between the markers and nothing else', async t => {
  const page = 'before\n<!-- generated: x (npm run docs) -->\nold\nrows\n<!-- end generated -->\nafter\n<!-- end generated -->\n'
  const updated = updateGenerated(page, 'x', '| new |')
  t.equal(updated, 'before\n<!-- generated: x (npm run docs) -->\n| new |\n<!-- end generated -->\nafter\n<!-- end generated -->\n')
  t.equal(readGenerated(updated, 'x'), '| new |')
  t.equal(updateGenerated(updated, 'x', '| new |'), updated, 'a second run changes nothing')
  t.throws(() => updateGenerated(page, 'y', ''), /no "<!-- generated: y \(npm run docs\) -->" marker/)
  t.throws(() => updateGenerated('<!-- generated: x (npm run docs) -->\n', 'x', ''), /no "<!-- end generated -->"/)
  t.throws(() => readGenerated(page, 'y'), /markers/)
})

t.test('writeDocs rewrites the pages whose tables differ, and only those', async t => {
  const dir = t.testdir({
    docs: {
      'configuration.md': '# Configuration\n<!-- generated: settings (npm run docs) -->\n<!-- end generated -->\nprose\n',
      'resources.md': `<!-- generated: statuses (npm run docs) -->\n${renderStatusTable()}\n<!-- end generated -->\n`
    }
  })
  t.same(writeDocs(dir), ['docs/configuration.md'])
  t.equal(readGenerated(readFileSync(`${dir}/docs/configuration.md`, 'utf8'), 'settings'), renderSettingsTable())
  t.match(readFileSync(`${dir}/docs/configuration.md`, 'utf8'), /<!-- end generated -->\nprose\n$/)
  t.same(writeDocs(dir), [], 'then nothing is left to rewrite')
})

t.test('npm run docs says which pages it rewrote', async t => {
  const dir = t.testdir({
    docs: {
      'configuration.md': '<!-- generated: settings (npm run docs) -->\n<!-- end generated -->\n',
      'resources.md': '<!-- generated: statuses (npm run docs) -->\n<!-- end generated -->\n'
    }
  })
  t.equal(run(dir), 'docs: rewrote docs/configuration.md, docs/resources.md')
  t.equal(run(dir), 'docs: the generated tables are up to date')
})
