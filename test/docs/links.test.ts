import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { WALKTHROUGH_PAGE, WALKTHROUGH_PATHS } from './walkthrough.ts'

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

/** The files of the repository (what `git ls-files` would list, and what tests write beside it), relative to its root. */
const IGNORED = read('.gitignore').split('\n').filter(line => line !== '' && !line.includes('*')).map(line => line.replace(/\/$/, ''))
const isIgnored = (path: string): boolean => IGNORED.some(ignored => path === ignored || path.startsWith(`${ignored}/`))
function filesUnder (folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap(entry => {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`
    if (isIgnored(path) || entry.name.startsWith('.')) return []
    return entry.isDirectory() ? [path, ...filesUnder(path)] : [path]
  })
}
const FILES = filesUnder('')
const TOP = new Set(FILES.map(path => path.split('/')[0] as string))

/**
 * The paths of the repository a text names: words that start with a top-level file or folder
 * (`store/sqlite/list.ts`, `migrations/postgres/050_*.sql`, `config/`), with `*` for any name.
 * Placeholders (`<name>`, `NNN`) make a pattern of a path to be, not a path; a version
 * (`http/1.1`) is not one either, nor an OTLP protocol (`http/protobuf`, `http/json`).
 */
function pathsNamed (text: string): string[] {
  return [...text.matchAll(/(?<![\w./@:-])((?:[\w.-]+\/)+[\w.*-]*|[\w-]+\.(?:ts|js|json|md|sql))(?![\w/<{-])/g)]
    .map(match => (match[1] as string).replace(/[.]$/, ''))
    .filter(path => TOP.has(path.split('/')[0] as string) && !/NNN|<|\{|\/\d[\d.]*$|^http\/(protobuf|json)$/.test(path) && !isIgnored(path))
}

const exists = (path: string): boolean => {
  const pattern = new RegExp(`^${path.replace(/\/$/, '').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`)
  return FILES.some(file => pattern.test(file))
}

/** The comments of a source file: `//`, `/* ... *\/` and SQL's `--` lines. Its code may name paths that are not (test fixtures). */
const commentsOf = (text: string): string =>
  [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:\w'"`])\/\/[^\n]*|^\s*--[^\n]*/gm)].map(match => match[0]).join('\n')

/**
 * The files docs/architecture.md names by their bare name in a folder's paragraph (`list.ts`
 * under `### \`store/sqlite/\``), with that folder, or at the top before the first folder.
 */
function filesOfParagraphs (text: string): string[] {
  let folder = ''
  return text.split('\n').flatMap(line => {
    const heading = /^#{2,3} (?:`([^`]+\/)`)?/.exec(line)
    if (heading !== null) folder = heading[1] ?? ''
    return [...line.matchAll(/`([\w.-]+\.(?:ts|js|json|sql|md))`/g)].map(match => `${folder}${match[1] as string}`)
  })
}

t.test("every repository path a page names in code, and every one named in a source file's comments, exists", async t => {
  for (const page of PAGES) {
    const spans = [...read(page).matchAll(/`([^`\n]+)`/g)].map(match => match[1] as string)
    // The walkthrough's files are to be written (test/docs/adding-a-collection.test.ts writes them).
    const named = spans.flatMap(pathsNamed).filter(path => page !== WALKTHROUGH_PAGE || !WALKTHROUGH_PATHS.has(path))
    for (const path of named) t.ok(exists(path), `${page} names \`${path}\`, which is in the repository`)
  }
  for (const path of filesOfParagraphs(read('docs/architecture.md'))) {
    t.ok(exists(path) || exists(path.split('/').at(-1) as string), `docs/architecture.md names ${path}, which is in the repository`)
  }
  const sources = FILES.filter(file => /\.(ts|js|sql)$/.test(file) && !file.startsWith('bench/results/'))
  for (const source of sources) {
    for (const path of pathsNamed(commentsOf(read(source)))) t.ok(exists(path), `${source} names ${path}, which is in the repository`)
  }
})

t.test('pathsNamed finds paths in prose and code, and leaves out what is not one', async t => {
  t.same(pathsNamed('see store/sqlite/list.ts, `migrations/postgres/050_*.sql` and config/.'),
    ['store/sqlite/list.ts', 'migrations/postgres/050_*.sql', 'config/'])
  t.same(pathsNamed('app.ts and package.json'), ['app.ts', 'package.json'])
  t.same(pathsNamed('https://example.com/store/x.ts, ./store/x.ts, @fastify/helmet, node_modules/x, dist/server.js, http/1.1'), [])
  t.same(pathsNamed('migrations/sqlite/NNN_<collections>.sql and routes/v1/<c>/index.ts'), [])
  t.ok(exists('migrations/postgres/050_*.sql'))
  t.notOk(exists('store/sqlite-list.ts'))
  t.same(commentsOf("const a = 'x' // one\n/* two\n */ const url = 'https://h/p'\n  -- three"),
    ['// one', '/* two\n */', '  -- three'].join('\n'))
  t.same(filesOfParagraphs('`app.ts`\n### `store/sqlite/`\n`list.ts` and `x/y.ts`\n## Other\n`z.md`'),
    ['app.ts', 'store/sqlite/list.ts', 'z.md'])
})
