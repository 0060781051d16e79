import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = fileURLToPath(new URL('../../', import.meta.url))
const PAGES = ['README.md', ...readdirSync(join(root, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)]
const read = (page: string): string => readFileSync(join(root, page), 'utf8')

/** The page without its code: fenced blocks and code spans hold examples, not links. */
const prose = (text: string): string => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchors (text: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const [, heading] of prose(text.replace(/`/g, '')).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading as string).trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    result.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return result
}

t.test('every relative link of the README and docs/ names a file, and a heading, that exist', async t => {
  for (const page of PAGES) {
    for (const [, target] of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target as string)) continue
      const [path = '', anchor] = (target as string).split('#')
      const file = path === '' ? join(root, page) : join(root, dirname(page), path)
      if (!existsSync(file)) {
        t.fail(`${page}: the link ${target} names ${relative(root, file)}, which does not exist`)
        continue
      }
      if (anchor !== undefined && file.endsWith('.md')) {
        t.ok(anchors(readFileSync(file, 'utf8')).has(anchor), `${page}: the link ${target} names a heading of ${relative(root, file)}`)
      } else {
        t.pass(`${page}: ${target}`)
      }
    }
  }
})

t.test('the README and docs/ name nothing outside the repository', async t => {
  for (const page of PAGES) {
    const text = read(page)
    const outside = [[/SPEC/, 'SPEC'], [/§/, '§'], [/\bseed(s|ed|ing)?\b/i, 'seed'], [/shared\//, 'a path into the shared folder']] as const
    for (const [pattern, what] of outside) {
      t.notMatch(text, pattern, `${page} names no ${what}`)
    }
  }
})

t.test('the README links every page of docs/', async t => {
  const readme = read('README.md')
  for (const page of PAGES.filter(page => page !== 'README.md')) {
    t.ok(readme.includes(`](${page})`), `README.md links ${page}`)
  }
})

t.test('the README stays short: at most 150 lines, the rest is in docs/', async t => {
  const lines = read('README.md').split('\n').length - 1
  t.ok(lines <= 150, `README.md has ${lines} lines`)
})
