import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { lstat, open, readdir, readlink, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { compareCodePoints } from '../../model/text.ts'
import {
  decodeCursor,
  DirectoryLister,
  encodeCursor,
  type ListerOptions,
  type ListingFileSystem
} from '../../local/directory-listing.ts'
import { PathGuard } from '../../local/path-guard.ts'
import { makeTree } from './helper.ts'

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

/** The node:fs calls, counted: descriptors opened (not attempts), and a descriptor's stat as a stat. */
function countingFileSystem (overrides: Partial<ListingFileSystem> = {}) {
  const calls = { open: 0, close: 0, readlink: 0, realpath: 0, stat: 0, readdir: 0, lstat: 0 }
  const fs: ListingFileSystem = {
    open: async (path, flags) => {
      const handle = await (overrides.open ?? open)(path, flags)
      calls.open++
      return {
        fd: handle.fd,
        stat: async options => {
          calls.stat++
          return handle.stat(options)
        },
        close: async () => {
          calls.close++
          return handle.close()
        }
      }
    },
    readlink: async path => {
      calls.readlink++
      return (overrides.readlink ?? readlink)(path)
    },
    realpath: async path => {
      calls.realpath++
      return (overrides.realpath ?? realpath)(path)
    },
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

/** A lister whose guard allows `allowed` (real paths). */
function listerFor (allowed: string, options: Omit<ListerOptions, 'guard'> = {}): DirectoryLister {
  return new DirectoryLister({ guard: new PathGuard([{ path: allowed, realPath: allowed }]), ...options })
}

/** The two ways of reading: through the directory's descriptor (Linux), and by name. */
const MODES = [
  { mode: 'through the descriptor', throughDescriptor: true },
  { mode: 'by name', throughDescriptor: false }
]

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
  const cost = (calls: Record<string, number>, before: Record<string, number> = {}): Record<string, number> =>
    Object.fromEntries(Object.entries(calls).map(([name, count]) => [name, count - (before[name] ?? 0)]))
  for (const { mode, throughDescriptor } of MODES) {
    // Opening and checking the directory, or checking its path again after the reads.
    const check = throughDescriptor ? { open: 1, close: 1, readlink: 1, realpath: 0 } : { open: 0, close: 0, readlink: 0, realpath: 1 }
    for (const size of [300, 3000]) {
      const dir = settledDirectory(root, `d${size}-${String(throughDescriptor)}`, size)
      const { fs, calls } = countingFileSystem()
      const lister = listerFor(root, { fs, throughDescriptor })
      const first = await lister.page(dir, 50)
      t.same(cost(calls), { ...check, stat: 1, readdir: 1, lstat: 50 }, `${mode}, ${size}: the first page reads the directory`)
      let after = decodeCursor(first.nextCursor as string)
      for (let page = 2; page <= 3; page++) {
        const before = { ...calls }
        const next = await lister.page(dir, 50, after)
        t.same(cost(calls, before), { ...check, stat: 1, readdir: 0, lstat: 50 }, `${mode}, ${size}: page ${page}`)
        t.equal(next.entries[0]?.name, `f${String((page - 1) * 50).padStart(6, '0')}`)
        after = decodeCursor(next.nextCursor as string)
      }
    }
  }
})

t.test('a changed directory is read again; a page goes on after the cursor', async t => {
  const root = makeTree(t, {})
  const dir = settledDirectory(root, 'd', 10)
  const { fs, calls } = countingFileSystem()
  const lister = listerFor(root, { fs })
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
  const lister = listerFor(root, { fs, maxCachedNames: 5 })
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
  const page = await listerFor(root, { fs }).page(join(root, 'd'), 2)
  t.same(
    page.entries.map(e => e.name),
    ['a']
  )
  t.equal(decodeCursor(page.nextCursor as string), 'b', 'the cursor still moves past it')
})

t.test('entry types: file, directory, symlink, other', async t => {
  const root = makeTree(t, { d: { file: '12345', dir: {}, link: { link: 'file' } } })
  execFileSync('mkfifo', [join(root, 'd', 'fifo')])
  const page = await listerFor(root).page(join(root, 'd'), 10)
  t.match(page.entries, [
    { name: 'dir', type: 'directory', size: null },
    { name: 'fifo', type: 'other', size: null },
    { name: 'file', type: 'file', size: 5 },
    { name: 'link', type: 'symlink', size: null }
  ])
})

const fail = (code: string) => async (): Promise<never> => {
  throw Object.assign(new Error(code), { code })
}
const DENIED = 'Access denied - permission ' + 'denied'
const OUTSIDE = 'Access denied - the path is outside the allowed directories'
const CHANGED = 'Access denied - the path changed while it was being listed'

t.test('file system failures become refusals; other faults propagate', async t => {
  const root = makeTree(t, { d: { a: '' }, f: '' })
  for (const { mode, throughDescriptor } of MODES) {
    const opened: { calls: Record<string, number> }[] = []
    const lister = (overrides: Partial<ListingFileSystem>): DirectoryLister => {
      const counting = countingFileSystem(overrides)
      opened.push(counting)
      return listerFor(root, { fs: counting.fs, throughDescriptor })
    }
    await t.rejects(lister({}).page(join(root, 'f'), 1), { statusCode: 400, message: 'path is not a directory' }, mode)
    await t.rejects(lister({}).page(join(root, 'f', 'x'), 1), { statusCode: 404, message: 'No such directory' }, mode)
    await t.rejects(lister({}).page(join(root, 'gone'), 1), { statusCode: 404, message: 'No such directory' }, mode)
    await t.rejects(lister({ readdir: fail('EACCES') }).page(join(root, 'd'), 1), { statusCode: 403, message: DENIED }, mode)
    await t.rejects(lister({ readdir: fail('ENOENT') }).page(join(root, 'd'), 1), { statusCode: 404, message: 'No such directory' }, mode)
    await t.rejects(lister({ readdir: fail('ELOOP') }).page(join(root, 'd'), 1), {
      statusCode: 403,
      message: 'Access denied - a symbolic link on the path cannot be resolved'
    }, mode)
    await t.rejects(lister({ lstat: fail('EACCES') }).page(join(root, 'd'), 1), { statusCode: 403, message: DENIED }, mode)
    await t.rejects(lister({ lstat: fail('EIO') }).page(join(root, 'd'), 1), { code: 'EIO' }, mode)
    t.ok(opened.every(({ calls }) => calls.open === calls.close), `${mode}: every descriptor opened is closed`)
  }
  const failingStat = countingFileSystem({ stat: fail('EIO') })
  await t.rejects(listerFor(root, { fs: failingStat.fs, throughDescriptor: false }).page(join(root, 'd'), 1), { code: 'EIO' })
  const failingDescriptor = countingFileSystem({
    open: async (path, flags) => {
      const handle = await open(path, flags)
      return { fd: handle.fd, stat: fail('EIO'), close: async () => handle.close() }
    }
  })
  await t.rejects(listerFor(root, { fs: failingDescriptor.fs, throughDescriptor: true }).page(join(root, 'd'), 1), { code: 'EIO' })
  t.equal(failingDescriptor.calls.close, 1, 'the descriptor is closed after a fault too')
})

t.test('through the descriptor: a path made to lead elsewhere since the check is refused, and what is read stays inside', async t => {
  const root = makeTree(t, {
    allowed: {
      d: { a: '', sub: { b: '' } },
      file: '',
      'link-in': { link: 'd' },
      'link-out': { link: '../outside' },
      loop1: { link: 'loop2' },
      loop2: { link: 'loop1' }
    },
    outside: { sub: { secret: '' }, 'secret.txt': '' }
  })
  // The guard passed each of these paths with no link on it; here a link stands where it checked, as after a swap.
  const { fs, calls } = countingFileSystem()
  const lister = listerFor(`${root}/allowed`, { fs, throughDescriptor: true })
  const list = async (path: string) => lister.page(`${root}/allowed/${path}`, 10)
  t.same((await list('d')).entries.map(e => e.name), ['a', 'sub'], 'a directory that stayed in place')
  await t.rejects(list('link-in'), { statusCode: 403, message: CHANGED }, 'a link as the last component is not followed, even to inside')
  await t.rejects(list('link-out/sub'), { statusCode: 403, message: OUTSIDE }, 'a link on the way out: the directory opened is outside')
  await t.rejects(list('link-out/.'), { statusCode: 403, message: OUTSIDE }, 'an outside directory named through a link')
  await t.rejects(list('loop1/x'), { statusCode: 403, message: 'Access denied - a symbolic link on the path cannot be resolved' })
  t.equal(calls.readdir, 1, 'only the directory inside was read')
  t.equal(calls.open, calls.close, 'every descriptor opened is closed')

  const nowADirectory = countingFileSystem({ open: fail('ENOTDIR') })
  await t.rejects(
    listerFor(`${root}/allowed`, { fs: nowADirectory.fs, throughDescriptor: true }).page(`${root}/allowed/d`, 10),
    { statusCode: 403, message: CHANGED },
    'not a directory when opened, a directory again when examined'
  )
  const goneSince = countingFileSystem({ open: fail('ENOTDIR'), lstat: fail('ENOENT') })
  await t.rejects(
    listerFor(`${root}/allowed`, { fs: goneSince.fs, throughDescriptor: true }).page(`${root}/allowed/file`, 10),
    { statusCode: 404, message: 'No such directory' },
    'not a directory when opened, gone when examined'
  )
})

t.test('by name: a path that resolves elsewhere once read is refused', async t => {
  const root = makeTree(t, { d: { a: '' } })
  const listed = (realpath: (path: string) => Promise<string>) =>
    listerFor(root, { fs: countingFileSystem({ realpath }).fs, throughDescriptor: false }).page(join(root, 'd'), 10)
  t.same((await listed(realpath)).entries.map(e => e.name), ['a'], 'unchanged')
  await t.rejects(listed(async () => `${root}/elsewhere`), { statusCode: 403, message: CHANGED }, 'resolving elsewhere')
  await t.rejects(listed(fail('ENOENT')), { statusCode: 404, message: 'No such directory' }, 'gone')
})

t.test('the cache is keyed by the real path of the directory opened, and checked by its device and inode', async t => {
  const root = makeTree(t, { via: { link: '.' } })
  const first = settledDirectory(root, 'first', 3)
  const second = settledDirectory(root, 'second', 4)
  const firstChanged = statSync(first).mtime
  const { fs, calls } = countingFileSystem()
  const lister = listerFor(root, { fs, throughDescriptor: true })
  t.equal((await lister.page(first, 10)).entries.length, 3)
  t.equal((await lister.page(join(root, 'via', 'first'), 10)).entries.length, 3)
  t.equal(calls.readdir, 1, 'the same directory opened through a link is the same entry')
  // The same path, another directory with the same mtime: a swap the cache must not answer from memory.
  rmSync(first, { recursive: true })
  renameSync(second, first)
  utimesSync(first, firstChanged, firstChanged)
  t.same(
    (await lister.page(first, 10)).entries.map(e => e.name),
    ['f000000', 'f000001', 'f000002', 'f000003']
  )
  t.equal(calls.readdir, 2, 'read again')
})

t.test('walking every page gives every name once, in order', async t => {
  const root = makeTree(t, {})
  const dir = settledDirectory(root, 'd', 1234)
  const pages = await walk(listerFor(root), dir, 100)
  t.equal(pages.length, 13)
  const names = pages.flat()
  t.equal(names.length, 1234)
  t.same(names, [...names].sort(byUtf8))
  t.equal(new Set(names).size, 1234)
})
