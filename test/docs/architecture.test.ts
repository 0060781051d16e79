import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = fileURLToPath(new URL('../../', import.meta.url))
/** Never part of the repository, in case git cannot be asked. */
const UNTRACKED = new Set(['node_modules', 'dist', 'data', 'coverage'])

/** The repository's files, relative to its root: what git tracks or would track, as they are on disk now. */
function repositoryFiles (): string[] {
  try {
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    return listed.split('\0').filter(file => file !== '' && existsSync(join(root, file)))
  } catch {
    return walk('')
  }
}

function walk (dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap(entry => {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`
    if (!entry.isDirectory()) return [path]
    return entry.name.startsWith('.') || UNTRACKED.has(entry.name) ? [] : walk(path)
  })
}

/**
 * The folders docs/architecture.md describes: those at depth 1 or 2 that hold a file, but not
 * hidden ones, nor the folders inside test/ (test/ itself is described), nor bench/results/.
 */
function foldersOf (files: string[]): string[] {
  const folders = new Set<string>()
  for (const file of files) {
    const segments = file.split('/')
    for (let depth = 1; depth <= 2 && depth < segments.length; depth++) {
      const folder = segments.slice(0, depth)
      if (folder.some(name => name.startsWith('.'))) break
      const path = folder.join('/')
      if (depth === 2 && (folder[0] === 'test' || path === 'bench/results')) break
      folders.add(path)
    }
  }
  return [...folders].sort()
}

/** The folders the page has a heading for, as `### \`routes/v1/\``. */
function headings (page: string): string[] {
  return [...page.matchAll(/^### `([^`]+)\/`$/gm)].map(m => m[1] as string).sort()
}

t.test('foldersOf keeps depths 1 and 2, without hidden folders, test/ subfolders, or bench/results/', async t => {
  t.same(foldersOf([
    'app.ts', '.ci/run', '.github/workflows/ci.yml', 'auth/keys.ts', 'plugins/app/sqlite.ts',
    'routes/v1/zoos/_zoo_id/animals/index.ts', 'test/helper.ts', 'test/routes/v1/list.test.ts',
    'bench/run.js', 'bench/results/a.json', 'docs/contract.md', 'docs/images/map.png', 'local/.hidden/x'
  ]), ['auth', 'bench', 'docs', 'docs/images', 'local', 'plugins', 'plugins/app', 'routes', 'routes/v1', 'test'])
})

t.test('docs/architecture.md has a paragraph for every folder of the repository, and for no other', async t => {
  const page = readFileSync(join(root, 'docs/architecture.md'), 'utf8')
  const described = headings(page)
  const folders = foldersOf(repositoryFiles())
  t.ok(folders.includes('routes/v1'), 'the folders are found')
  const missing = folders.filter(folder => !described.includes(folder))
  const gone = described.filter(folder => !folders.includes(folder))
  t.same(missing, [], `folders without a "### \`<folder>/\`" paragraph in docs/architecture.md: ${missing.join(', ')}`)
  t.same(gone, [], `docs/architecture.md describes folders that do not exist: ${gone.join(', ')}`)
  t.same(described, [...new Set(described)], 'each folder is described once')
  for (const folder of described) {
    const after = page.split(`### \`${folder}/\`\n`)[1] ?? ''
    t.match(after, /^\n[^#\n]/, `the heading of ${folder}/ is followed by its paragraph`)
  }
})
