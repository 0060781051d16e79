import { closeSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/*
 * Copies of a database as files, whatever the engine that makes them: written where no one else
 * can foresee or reach them, put in place whole, and refused with a reason when they cannot serve.
 */

/** A database file that cannot be used as a copy of the service's: the message says why. */
export class UnusableCopy extends Error {}

/** A migration a database file records as applied. */
export interface AppliedMigration {
  version: number
  name: string
}

/**
 * Makes `file` with `make`, which writes the file it is given: into a file of its own first, made
 * private (0600: password hashes and emails) before anything is written, flushed to disk once
 * `make` returns, then renamed onto `file`, so that `file` is never a partial copy. The file is
 * made in a folder beside `file` that this call creates, 0700 and under a random name: a database
 * opens its files by name (SQLite its journal and log too), so no one else may foresee those names
 * or write where they are. A failure leaves nothing behind.
 */
export async function writeWhole<T> (file: string, make: (partial: string) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(dirname(file), `.${basename(file)}.partial-`))
  const partial = join(folder, basename(file))
  try {
    closeSync(openSync(partial, 'wx', 0o600))
    const made = await make(partial)
    flush(partial)
    renameSync(partial, file)
    flush(dirname(file))
    return made
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Puts what was written to `path`, a file or a directory (whose entries a rename changed), on disk. */
export function flush (path: string): void {
  const descriptor = openSync(path, 'r')
  try {
    fsyncSync(descriptor)
  } finally {
    closeSync(descriptor)
  }
}

/**
 * Throws UnusableCopy, naming `from`, when the objects of a copy's schema (`found`, each by a key
 * of its kind and name) are not those its migrations make (`wanted`): the first difference, and
 * how many more. `named` says an object as a refusal names it.
 */
export function refuseDifferences<T> (
  from: string, found: Map<string, T>, wanted: Map<string, T>, same: (a: T, b: T) => boolean, named: (object: T) => string
): void {
  const differences: string[] = []
  for (const [key, object] of found) {
    const made = wanted.get(key)
    if (made === undefined) differences.push(`${named(object)} is not theirs`)
    else if (!same(made, object)) differences.push(`${named(object)} is not as they make it`)
  }
  for (const [key, object] of wanted) if (!found.has(key)) differences.push(`${named(object)} is missing`)
  if (differences.length === 0) return
  const more = differences.length - 1
  throw new UnusableCopy(`${from}: its schema is not what the migrations it records make: ${differences[0] as string}` +
    (more === 0 ? '' : `, and ${more} more difference${more === 1 ? '' : 's'}`))
}
