import type { BigIntStats, Stats } from 'node:fs'
import { lstat, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { HttpError } from '../http/errors.js'
import { isMissing, refusalFor } from './path-guard.js'
import type { Entry } from './schemas.js'

/**
 * Pages of a directory sorted by name. A sorted order needs every name, so each directory's sorted
 * names are kept (keyed by real path, checked against the directory's mtime on every request); a
 * page is then one stat, a binary search for the cursor and one lstat per entry returned,
 * whatever the size of the directory.
 */

/** The file system calls of a listing, replaceable to count them and to inject failures. */
export interface ListingFileSystem {
  stat: (path: string, options: { bigint: true }) => Promise<BigIntStats>
  readdir: (path: string) => Promise<string[]>
  lstat: (path: string) => Promise<Stats>
}

export interface DirectoryPage {
  entries: Entry[]
  nextCursor: string | null
}

/**
 * Orders strings by Unicode code point, as UTF-8 bytes would sort. JavaScript's default order
 * compares UTF-16 code units, which puts U+10000 and above (surrogate pairs) before U+E000–U+FFFF.
 */
export function compareCodePoints (a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x !== y) {
      if (x >= 0xD800 && y >= 0xD800) {
        x = x <= 0xDFFF ? x + 0x2000 : x - 0x800
        y = y <= 0xDFFF ? y + 0x2000 : y - 0x800
      }
      return x - y
    }
  }
  return a.length - b.length
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

export interface ListerOptions {
  /** Names kept over all directories; a directory with more is read again for every page. */
  maxCachedNames?: number
  fs?: ListingFileSystem
}

export class DirectoryLister {
  readonly #cache = new Map<string, SortedNames>()
  readonly #maxCachedNames: number
  readonly #fs: ListingFileSystem
  #cachedNames = 0

  constructor ({ maxCachedNames = 1_000_000, fs = { stat, readdir, lstat } }: ListerOptions = {}) {
    this.#maxCachedNames = maxCachedNames
    this.#fs = fs
  }

  /**
   * Up to `limit` entries of the directory at `realPath` (no symbolic link in it) whose names come
   * after `after`. Throws HttpError 400 (not a directory), 403 (no permission) or 404 (gone).
   */
  async page (realPath: string, limit: number, after?: string): Promise<DirectoryPage> {
    const names = await this.#sortedNames(realPath)
    const start = after === undefined ? 0 : firstAfter(names, after)
    const end = Math.min(start + limit, names.length)
    const entries = await Promise.all(names.slice(start, end).map(name => this.#entry(realPath, name)))
    return {
      entries: entries.filter(entry => entry !== undefined),
      nextCursor: end < names.length ? encodeCursor(names[end - 1] as string) : null
    }
  }

  async #sortedNames (realPath: string): Promise<string[]> {
    const readAtNs = BigInt(Date.now()) * 1_000_000n
    let info: BigIntStats
    try {
      info = await this.#fs.stat(realPath, { bigint: true })
    } catch (err) {
      throw refusalFor(err)
    }
    if (!info.isDirectory()) throw new HttpError(400, 'path is not a directory')
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
      read = await this.#fs.readdir(realPath)
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
