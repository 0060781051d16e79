import { lstat, realpath } from 'node:fs/promises'
import nodePath from 'node:path'
import type { AllowedDirectory } from '../config/index.ts'
import { HttpError } from '../http/errors.ts'

/**
 * The access rule of the local tool server, in two steps:
 *
 * 1. Lexical, no file system: the requested path must be absolute; it is normalized (`.` and `..`
 *    resolved, repeated and trailing separators folded) and must equal a configured directory or
 *    lie under one after a separator, compared code unit by code unit: letter case, Unicode
 *    normalization and percent signs are taken literally.
 * 2. Real: the path with every symbolic link resolved must equal or lie under the real path of an
 *    allowed directory (any of them).
 *
 * Step 1 is written against a `path` implementation, so the Windows rules (drive letters,
 * backslashes, UNC shares) are the same code as the POSIX ones and are tested with `path.win32`.
 * Every refusal is an HttpError whose message names neither the allowed directories nor a real
 * path outside them.
 */

/** `path.posix` or `path.win32`. */
export type PathApi = typeof nodePath.posix

/** The file system calls of step 2, replaceable to test the failures a real disk rarely shows. */
export interface ResolvingFileSystem {
  realpath: (path: string) => Promise<string>
  lstat: (path: string) => Promise<unknown>
}

export interface GuardedPath {
  /** The requested path, normalized: the name the client uses for it. */
  path: string
  /** The path with symbolic links resolved: the one to open. */
  realPath: string
}

export const accessDenied = (reason: string): HttpError => new HttpError(403, `Access denied - ${reason}`)

export const notFound = (): HttpError => new HttpError(404, 'No such directory')

export const unresolvableLink = (): HttpError => accessDenied('a symbolic link on the path cannot be resolved')

const OUTSIDE = 'the path is outside the allowed directories'

/**
 * Windows resolves `\dir` against the current drive and `C:dir` against that drive's current
 * directory: both depend on process state, so only a drive letter with a separator or a UNC or
 * device prefix (two separators) counts as absolute there.
 */
function isFullyQualified (raw: string, p: PathApi): boolean {
  if (!p.isAbsolute(raw)) return false
  return p.sep === '/' || /^(?:[A-Za-z]:[\\/]|[\\/]{2})/.test(raw)
}

/** Step 1a: the requested path checked and normalized; 400 when it cannot name a directory. */
export function normalizeRequestedPath (requested: unknown, p: PathApi): string {
  if (typeof requested !== 'string') throw new HttpError(400, 'path must be a string')
  if (requested === '') throw new HttpError(400, 'path must not be empty')
  // The operating system would end the path at the null byte, at a place the checks never saw.
  if (requested.includes('\0')) throw new HttpError(400, 'path must not contain a null byte')
  if (!isFullyQualified(requested, p)) throw new HttpError(400, 'path must be absolute')
  return p.resolve(requested)
}

/** Whether `path` is `dir` or under it after a separator; both normalized, case-sensitive. */
export function isWithin (path: string, dir: string, p: PathApi): boolean {
  return path === dir || path.startsWith(dir.endsWith(p.sep) ? dir : dir + p.sep)
}

/** Step 1b: the configured directory that a normalized path lies within; 403 when none. */
export function allowedRootOf (path: string, allowed: readonly string[], p: PathApi): string {
  const root = allowed.find(dir => isWithin(path, dir, p))
  if (root === undefined) throw accessDenied(OUTSIDE)
  return root
}

export const errorCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code
/** The path cannot be followed to its end: a missing component, a file used as a directory, a link loop. */
const UNRESOLVED = new Set<string | undefined>(['ENOENT', 'ENOTDIR', 'ELOOP'])
const MISSING = new Set<string | undefined>(['ENOENT', 'ENOTDIR'])
const FORBIDDEN = new Set<string | undefined>(['EACCES', 'EPERM'])

/** Whether a file system error says the file is not there (any more). */
export const isMissing = (err: unknown): boolean => MISSING.has(errorCode(err))

/**
 * The answer for a file system error on a path that passed the guard: 404 when it has gone since,
 * 403 without permission or when a link loop was swapped in since; anything else is a fault and is
 * rethrown.
 */
export function refusalFor (err: unknown): HttpError {
  if (isMissing(err)) return notFound()
  if (FORBIDDEN.has(errorCode(err))) return accessDenied('permission denied')
  if (errorCode(err) === 'ELOOP') return unresolvableLink()
  throw err
}

/** Both steps against the allowed directories, their real paths computed once at start-up. */
export class PathGuard {
  readonly #dirs: readonly AllowedDirectory[]
  readonly #p: PathApi
  readonly #fs: ResolvingFileSystem

  constructor (dirs: readonly AllowedDirectory[], p: PathApi = nodePath, fs: ResolvingFileSystem = { realpath, lstat }) {
    this.#dirs = dirs
    this.#p = p
    this.#fs = fs
  }

  /**
   * The requested path and its real path when both steps allow it. Throws HttpError 400 (not a
   * usable path), 403 (outside, or no permission) or 404 (does not exist).
   */
  async check (requested: unknown): Promise<GuardedPath> {
    const path = normalizeRequestedPath(requested, this.#p)
    const root = allowedRootOf(path, this.#dirs.map(d => d.path), this.#p)
    let realPath: string
    try {
      realPath = await this.#fs.realpath(path)
    } catch (err) {
      if (errorCode(err) === 'ENAMETOOLONG') throw new HttpError(400, 'path is too long')
      throw await this.#unresolved(err, path, root)
    }
    this.checkRealPath(realPath)
    return { path, realPath }
  }

  /**
   * Step 2 alone, for a real path learnt after `check`, such as that of a directory once opened:
   * throws HttpError 403 when it lies within no allowed directory.
   */
  checkRealPath (realPath: string): void {
    if (!this.#isInsideReal(realPath)) throw accessDenied(OUTSIDE)
  }

  #isInsideReal (realPath: string): boolean {
    return this.#dirs.some(d => isWithin(realPath, d.realPath, this.#p))
  }

  /**
   * Why a path inside an allowed directory does not resolve. "Does not exist" is said only when the
   * first missing component sits in a directory that resolves inside: a dangling link or a
   * missing path behind a link pointing outside must not tell what exists out there.
   */
  async #unresolved (err: unknown, path: string, root: string): Promise<HttpError> {
    const p = this.#p
    if (!UNRESOLVED.has(errorCode(err))) return refusalFor(err)
    const names = path.slice(root.length).split(p.sep).filter(name => name !== '')
    for (let depth = names.length - 1; depth >= 0; depth--) {
      const parent = p.join(root, ...names.slice(0, depth))
      let parentReal: string
      try {
        parentReal = await this.#fs.realpath(parent)
      } catch (parentErr) {
        if (UNRESOLVED.has(errorCode(parentErr))) continue
        return refusalFor(parentErr)
      }
      if (!this.#isInsideReal(parentReal)) return accessDenied(OUTSIDE)
      try {
        await this.#fs.lstat(p.join(parent, names[depth] as string))
      } catch (childErr) {
        return refusalFor(childErr)
      }
      return unresolvableLink()
    }
    // Only a configured directory that vanished after start-up gets here.
    return notFound()
  }
}
