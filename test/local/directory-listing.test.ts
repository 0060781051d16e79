import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { lstat, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { compareCodePoints, decodeCursor, DirectoryLister, encodeCursor, type ListingFileSystem } from '../../local/directory-listing.js'
import { makeTree } from './helper.js'

const byUtf8 = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))

t.test('compareCodePoints orders as UTF-8 bytes do, unlike the default sort', async t => {
  const names = ['b', 'a', 'ab', '\uFF5E', '\u{1F600}', '\uE000', '\uD7FF', 'a\u{10000}', 'a\uFFFF', 'A', '', 'a\u0000']
  t.same([...names].sort(compareCodePoints), [...names].sort(byUtf8))
  t.not([...names].sort().join('|'), [...names].sort(byUtf8).join('|'), 'the default sort differs on these names')
  const alphabet = ['a', 'Z', '0', '.', '-', '\u00e9', '\u0301', '\uFB01', '\uFF5E', '\uFFFD', '\u{1F600}', '\u{10FFFF}', '\u{20000}']
  let seed = 7
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
  }
  const words = Array.from({ length: 2000 }, () => Array.from({ length: 1 + random(5) }, () => alphabet[random(alphabet.length)]).join(''))
  t.same([...words].sort(compareCodePoints), [...words].sort(byUtf8), 'random names')
})

t.test('cursors round-trip any name and refuse what this server did not issue', async t => {
  for (const name of ['a', 'file.txt', 'caf\u00e9', '\u{1F600}', 'lone \uD800 surrogate', '%2e%2e']) {
    t.equal(decodeCursor(encodeCursor(name)), name, JSON.stringify(name))
    t.match(encodeCursor(name), /^[A-Za-z0-9_-]+$/)
  }
  for (const cursor of ['YQ', 'YQB', '']) {
    t.throws(() => decodeCursor(cursor), { statusCode: 400, message: 'cursor is not a next_cursor issued by this server' }, cursor)
  }
})

/** The node:fs calls, counted. */
function countingFileSystem (overrides: Partial<ListingFileSystem> = {}) {
  const calls = { stat: 0, readdir: 0, lstat: 0 }
  const fs: ListingFileSystem = {
    stat: async (path, options) => {
      calls.stat++
      return (overrides.stat ?? stat)(path, options)
    },
    readdir: async path => {
      calls.readdir++
      return (overrides.readdir ?? readdir)(path)
    },
    lstat: async path => {
      calls.lstat++
      return (overrides.lstat ?? lstat)(path)
    }
  }
  return { fs, calls }
}

/** A directory of `count` empty files, last changed an hour ago. */
function settledDirectory (root: string, name: string, count: number): string {
  const dir = join(root, name)
  mkdirSync(dir)
  for (let i = 0; i < count; i++) closeSync(openSync(join(dir, `f${String(i).padStart(6, '0')}`), 'w'))
  const anHourAgo = new Date(Date.now() - 3_600_000)
  utimesSync(dir, anHourAgo, anHourAgo)
  return dir
}

async function walk (lister: DirectoryLister, dir: string, limit: number): Promise<string[][]> {
  const pages: string[][] = []
  let after: string | undefined
  for (;;) {
    const page = await lister.page(dir, limit, after)
    pages.push(page.entries.map(e => e.name))
    if (page.nextCursor === null) return pages
    after = decodeCursor(page.nextCursor)
  }
}

t.test('a page costs one stat and one lstat per entry, whatever the size of the directory', async t => {
  const root = makeTree(t, {})
  for (const size of [300, 3000]) {
    const dir = settledDirectory(root, `d${size}`, size)
    const { fs, calls } = countingFileSystem()
    const lister = new DirectoryLister({ fs })
    const first = await lister.page(dir, 50)
    t.same(calls, { stat: 1, readdir: 1, lstat: 50 }, `${size}: the first page reads the directory`)
    let after = decodeCursor(first.nextCursor as string)
    for (let page = 2; page <= 3; page++) {
      const before = { ...calls }
      const next = await lister.page(dir, 50, after)
      t.same(
        { stat: calls.stat - before.stat, readdir: calls.readdir - before.readdir, lstat: calls.lstat - before.lstat },
        { stat: 1, readdir: 0, lstat: 50 },
        `${size}: page ${page}`
      )
      t.equal(next.entries[0]?.name, `f${String((page - 1) * 50).padStart(6, '0')}`)
      after = decodeCursor(next.nextCursor as string)
    }
  }
})

t.test('a changed directory is read again; a page goes on after the cursor', async t => {
  const root = makeTree(t, {})
  const dir = settledDirectory(root, 'd', 10)
  const { fs, calls } = countingFileSystem()
  const lister = new DirectoryLister({ fs })
  const first = await lister.page(dir, 4)
  t.same(
    first.entries.map(e => e.name),
    ['f000000', 'f000001', 'f000002', 'f000003']
  )
  writeFileSync(join(dir, 'f000001a'), '')
  writeFileSync(join(dir, 'f000005a'), '')
  rmSync(join(dir, 'f000003'))
  const second = await lister.page(dir, 4, decodeCursor(first.nextCursor as string))
  t.same(
    second.entries.map(e => e.name),
    ['f000004', 'f000005', 'f000005a', 'f000006'],
    'only what sorts after the cursor, the removed ' + 'name included'
  )
  t.equal(calls.readdir, 2)
  const again = await lister.page(dir, 4, decodeCursor(second.nextCursor as string))
  t.equal(calls.readdir, 3, 'a directory changed moments ago is not trusted to the cache')
  t.same(
    again.entries.map(e => e.name),
    ['f000007', 'f000008', 'f000009']
  )
  t.equal(again.nextCursor, null)
})

t.test('the cache keeps a bounded number of names', async t => {
  const root = makeTree(t, {})
  const a = settledDirectory(root, 'a', 3)
  const b = settledDirectory(root, 'b', 3)
  const big = settledDirectory(root, 'big', 6)
  const { fs, calls } = countingFileSystem()
  const lister = new DirectoryLister({ fs, maxCachedNames: 5 })
  await lister.page(a, 1)
  await lister.page(a, 1)
  t.equal(calls.readdir, 1, 'a is kept')
  await lister.page(b, 1)
  await lister.page(a, 1)
  t.equal(calls.readdir, 3, 'b pushed a out')
  await lister.page(big, 1)
  await lister.page(big, 1)
  t.equal(calls.readdir, 5, 'a directory above the bound is never kept')
  await lister.page(a, 1)
  t.equal(calls.readdir, 5, 'and pushes nothing out')
})

t.test('entries removed between reading the directory and their lstat are left out', async t => {
  const root = makeTree(t, { d: { a: '', b: '', c: '' } })
  const { fs } = countingFileSystem({
    lstat: async path => {
      if (path.endsWith('/b')) throw Object.assign(new Error('gone'), { code: 'ENOENT' })
      return lstat(path)
    }
  })
  const page = await new DirectoryLister({ fs }).page(join(root, 'd'), 2)
  t.same(
    page.entries.map(e => e.name),
    ['a']
  )
  t.equal(decodeCursor(page.nextCursor as string), 'b', 'the cursor still moves past it')
})

t.test('entry types: file, directory, symlink, other', async t => {
  const root = makeTree(t, { d: { file: '12345', dir: {}, link: { link: 'file' } } })
  execFileSync('mkfifo', [join(root, 'd', 'fifo')])
  const page = await new DirectoryLister().page(join(root, 'd'), 10)
  t.match(page.entries, [
    { name: 'dir', type: 'directory', size: null },
    { name: 'fifo', type: 'other', size: null },
    { name: 'file', type: 'file', size: 5 },
    { name: 'link', type: 'symlink', size: null }
  ])
})

t.test('file system failures become refusals; other faults propagate', async t => {
  const root = makeTree(t, { d: { a: '' }, f: '' })
  const fail = (code: string) => async (): Promise<never> => {
    throw Object.assign(new Error(code), { code })
  }
  const lister = (overrides: Partial<ListingFileSystem>) => new DirectoryLister({ fs: countingFileSystem(overrides).fs })
  await t.rejects(lister({}).page(join(root, 'f'), 1), { statusCode: 400, message: 'path is not a directory' })
  await t.rejects(lister({}).page(join(root, 'gone'), 1), { statusCode: 404, message: 'No such directory' })
  await t.rejects(lister({ readdir: fail('EACCES') }).page(join(root, 'd'), 1), {
    statusCode: 403,
    message: 'Access denied - permission ' + 'denied'
  })
  await t.rejects(lister({ readdir: fail('ENOENT') }).page(join(root, 'd'), 1), { statusCode: 404, message: 'No such directory' })
  await t.rejects(lister({ lstat: fail('EACCES') }).page(join(root, 'd'), 1), {
    statusCode: 403,
    message: 'Access denied - permission ' + 'denied'
  })
  await t.rejects(lister({ lstat: fail('EIO') }).page(join(root, 'd'), 1), { code: 'EIO' })
  await t.rejects(lister({ stat: fail('EIO') }).page(join(root, 'd'), 1), { code: 'EIO' })
})

t.test('walking every page gives every name once, in order', async t => {
  const root = makeTree(t, {})
  const dir = settledDirectory(root, 'd', 1234)
  const pages = await walk(new DirectoryLister(), dir, 100)
  t.equal(pages.length, 13)
  const names = pages.flat()
  t.equal(names.length, 1234)
  t.same(names, [...names].sort(byUtf8))
  t.equal(new Set(names).size, 1234)
})
