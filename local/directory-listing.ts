import { constants, existsSync, type BigIntStats, type Stats } from 'node:fs'
import { lstat, open, readdir, readlink, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { HttpError } from '../http/errors.ts'
import { compareCodePoints } from '../model/text.ts'
import { accessDenied, errorCode, isMissing, refusalFor, type PathGuard } from './path-guard.ts'
import type { Entry } from './schemas.ts'

/**
 * Pages of a directory sorted by name. A sorted order needs every name, so each directory's sorted
 * names are kept (keyed by real path, checked against the directory's mtime on every request); a
 * page is then one stat, a binary search for the cursor and one lstat per entry returned,
 * whatever the size of the directory.
 *
 * The guard checked a path, but a path can be made to lead elsewhere before it is read (a
 * directory on it renamed away and a symbolic link put in its place). On Linux the directory is
 * therefore opened once, without following a link as its last component, the real path of the
 * descriptor is checked against the allowed directories, and every read goes through
 * /proc/self/fd/<fd>, which names the directory opened whatever its path names by then.
 * Elsewhere, the path is read by name and must still resolve to itself once read.
 */

/** An open directory's descriptor. */
export interface DirectoryHandle {
  fd: number
  stat: (options: { bigint: true }) => Promise<BigIntStats>
  close: () => Promise<void>
}

/** The file system calls of a listing, replaceable to count them and to inject failures. */
export interface ListingFileSystem {
  open: (path: string, flags: number) => Promise<DirectoryHandle>
  readlink: (path: string) => Promise<string>
  realpath: (path: string) => Promise<string>
  stat: (path: string, options: { bigint: true }) => Promise<BigIntStats>
  readdir: (path: string) => Promise<string[]>
  lstat: (path: string) => Promise<Stats>
}

export interface DirectoryPage {
  entries: Entry[]
  nextCursor: string | null
}

/** The cursor names the last entry of a page; UTF-16 keeps any name, even an ill-formed one, intact. */
export function encodeCursor (name: string): string {
  return Buffer.from(name, 'utf16le').toString('base64url')
}

export function decodeCursor (cursor: string): string {
  const bytes = Buffer.from(cursor, 'base64url')
  if (bytes.length === 0 || bytes.length % 2 !== 0 || bytes.toString('base64url') !== cursor) {
    throw new HttpError(400, 'cursor is not a next_cursor issued by this server')
  }
  return bytes.toString('utf16le')
}

/** Index of the first name after `after` in sorted `names`. */
function firstAfter (names: readonly string[], after: string): number {
  let low = 0
  let high = names.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (compareCodePoints(names[middle] as string, after) <= 0) low = middle + 1
    else high = middle
  }
  return low
}

function typeOf (info: Stats): Entry['type'] {
  if (info.isFile()) return 'file'
  if (info.isDirectory()) return 'directory'
  if (info.isSymbolicLink()) return 'symlink'
  return 'other'
}

/** A directory whose reads can be trusted to stay in it. */
interface ListedDirectory {
  /** Its real path, checked: the key of its sorted names. */
  realPath: string
  /** The path that its names and entries are read through. */
  readPath: string
  /** Its device, inode and mtime, taken before its names are read. */
  info: BigIntStats
}

interface SortedNames {
  names: string[]
  mtimeNs: bigint
  ino: bigint
  dev: bigint
}

/**
 * A change made within the file system's timestamp granularity (up to 2 s on FAT, 1 s on HFS+,
 * a clock tick elsewhere) after a read can leave the directory's mtime unchanged: a listing is
 * kept only when read this long after the last change.
 */
const SETTLED_NS = 2_000_000_000n

/** Where the kernel names every open descriptor, the directory it holds included. */
const PROC_SELF_FD = '/proc/self/fd'

/** O_NOFOLLOW: a link that took the last component's place since the check is not followed. */
const OPEN_DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW

const notADirectory = (): HttpError => new HttpError(400, 'path is not a directory')

const pathChanged = (): HttpError => accessDenied('the path changed while it was being listed')

/** What the lister needs of the guard: the check of a directory's real path as opened. */
export type RealPathCheck = Pick<PathGuard, 'checkRealPath'>

export interface ListerOptions {
  guard: RealPathCheck
  /** Names kept over all directories; a directory with more is read again for every page. */
  maxCachedNames?: number
  fs?: ListingFileSystem
  /** Whether to read through /proc/self/fd: by default, where the system has it (Linux). */
  throughDescriptor?: boolean
}

export class DirectoryLister {
  readonly #cache = new Map<string, SortedNames>()
  readonly #guard: RealPathCheck
  readonly #maxCachedNames: number
  readonly #fs: ListingFileSystem
  readonly #throughDescriptor: boolean
  #cachedNames = 0

  constructor ({
    guard,
    maxCachedNames = 1_000_000,
    fs = { open, readlink, realpath, stat, readdir, lstat },
    throughDescriptor = existsSync(PROC_SELF_FD)
  }: ListerOptions) {
    this.#guard = guard
    this.#maxCachedNames = maxCachedNames
    this.#fs = fs
    this.#throughDescriptor = throughDescriptor
  }

  /**
   * Up to `limit` entries of the directory at `realPath` (the guard's, no symbolic link in it)
   * whose names come after `after`. Throws HttpError 400 (not a directory), 403 (no permission,
   * or the path made to lead outside or changed since the check) or 404 (gone).
   */
  async page (realPath: string, limit: number, after?: string): Promise<DirectoryPage> {
    if (!this.#throughDescriptor) return this.#pageByName(realPath, limit, after)
    const handle = await this.#fs.open(realPath, OPEN_DIRECTORY).catch(async (err: unknown) => {
      throw await this.#unopenable(err, realPath)
    })
    try {
      const readPath = `${PROC_SELF_FD}/${handle.fd}`
      const openedPath = await this.#fs.readlink(readPath)
      this.#guard.checkRealPath(openedPath)
      return await this.#read({ realPath: openedPath, readPath, info: await handle.stat({ bigint: true }) }, limit, after)
    } finally {
      await handle.close()
    }
  }

  /**
   * Why `path` does not open as a directory. ENOTDIR is said of a file, of a path under one and,
   * with O_NOFOLLOW, of a link: lstat tells them apart.
   */
  async #unopenable (err: unknown, path: string): Promise<HttpError> {
    if (errorCode(err) !== 'ENOTDIR') return refusalFor(err)
    let info: Stats
    try {
      info = await this.#fs.lstat(path)
    } catch (entryErr) {
      return refusalFor(entryErr)
    }
    // The guard saw no link there, and opening found no directory: the path changed meanwhile.
    return info.isSymbolicLink() || info.isDirectory() ? pathChanged() : notADirectory()
  }

  /** Without a descriptor to read through, a swap can only be noticed once the reads are done. */
  async #pageByName (realPath: string, limit: number, after?: string): Promise<DirectoryPage> {
    let info: BigIntStats
    try {
      info = await this.#fs.stat(realPath, { bigint: true })
    } catch (err) {
      throw refusalFor(err)
    }
    if (!info.isDirectory()) throw notADirectory()
    const page = await this.#read({ realPath, readPath: realPath, info }, limit, after)
    let resolvedNow: string
    try {
      resolvedNow = await this.#fs.realpath(realPath)
    } catch (err) {
      throw refusalFor(err)
    }
    if (resolvedNow !== realPath) throw pathChanged()
    return page
  }

  async #read (dir: ListedDirectory, limit: number, after?: string): Promise<DirectoryPage> {
    const names = await this.#sortedNames(dir)
    const start = after === undefined ? 0 : firstAfter(names, after)
    const end = Math.min(start + limit, names.length)
    const entries = await Promise.all(names.slice(start, end).map(name => this.#entry(dir.readPath, name)))
    return {
      entries: entries.filter(entry => entry !== undefined),
      nextCursor: end < names.length ? encodeCursor(names[end - 1] as string) : null
    }
  }

  async #sortedNames ({ realPath, readPath, info }: ListedDirectory): Promise<string[]> {
    // Any time before the names are read will do: see SETTLED_NS.
    const readAtNs = BigInt(Date.now()) * 1_000_000n
    const cached = this.#cache.get(realPath)
    if (cached !== undefined && cached.mtimeNs === info.mtimeNs && cached.ino === info.ino && cached.dev === info.dev) {
      // Most recently used last: eviction takes from the front.
      this.#cache.delete(realPath)
      this.#cache.set(realPath, cached)
      return cached.names
    }
    this.#forget(realPath)
    let read: string[]
    try {
      read = await this.#fs.readdir(readPath)
    } catch (err) {
      throw refusalFor(err)
    }
    // Names that are not valid UTF-8 decode with U+FFFD and may collide.
    const names = [...new Set(read)].sort(compareCodePoints)
    if (readAtNs - info.mtimeNs > SETTLED_NS) this.#remember(realPath, { names, mtimeNs: info.mtimeNs, ino: info.ino, dev: info.dev })
    return names
  }

  #forget (realPath: string): void {
    const cached = this.#cache.get(realPath)
    if (cached === undefined) return
    this.#cache.delete(realPath)
    this.#cachedNames -= cached.names.length
  }

  #remember (realPath: string, sorted: SortedNames): void {
    if (sorted.names.length > this.#maxCachedNames) return
    this.#forget(realPath)
    this.#cache.set(realPath, sorted)
    this.#cachedNames += sorted.names.length
    for (const [oldest, listing] of this.#cache) {
      if (this.#cachedNames <= this.#maxCachedNames) break
      this.#cache.delete(oldest)
      this.#cachedNames -= listing.names.length
    }
  }

  async #entry (dir: string, name: string): Promise<Entry | undefined> {
    let info: Stats
    try {
      info = await this.#fs.lstat(join(dir, name))
    } catch (err) {
      // Removed since the directory was read: no longer an entry.
      if (isMissing(err)) return undefined
      throw refusalFor(err)
    }
    return { name, type: typeOf(info), size: info.isFile() ? info.size : null, modified: info.mtime.toISOString() }
  }
}
