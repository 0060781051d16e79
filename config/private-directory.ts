// The directories the settings name that must be this user's alone, checked at every start, and the files in them.
import { accessSync, chmodSync, constants, existsSync, lstatSync, mkdirSync, statSync } from 'node:fs'
import { ConfigError } from './parsers.ts'

/** Why each must be private, as a refusal says it, and whether it may be reached through a symbolic link. */
const PRIVATE = {
  DATA_DIR: { why: 'it holds the database and the TLS key', link: true },
  BACKUP_DIR: { why: 'a restore trusts the backups in it', link: true },
  // Whoever could swap the link for another would choose the code this process loads.
  UNPACK_DIR: { why: 'the binary loads code from it', link: false }
} as const

/**
 * Makes the directory `dir` that `setting` names this user's alone: created 0700 when missing,
 * made 0700 when others may read it. Refused, naming the setting, when it cannot be created or
 * written, is not a directory, belongs to another user, or others may write into it: what they
 * put there would stay whatever its mode became, and taking their access away is the operator's
 * call, not the service's.
 */
export function privateDirectory (dir: string, setting: keyof typeof PRIVATE): void {
  const { why, link } = PRIVATE[setting]
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    accessSync(dir, constants.W_OK)
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException
    const reason = code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'ENOTDIR' || code === 'EEXIST' ? 'a file is in the way' : (err as Error).message
    throw new ConfigError(`${setting}: ${dir} cannot be created or written (${reason})`)
  }
  const stat = link ? statSync(dir) : lstatSync(dir)
  if (!stat.isDirectory()) throw new ConfigError(`${setting}: ${dir} is not a directory (a symbolic link is refused)`)
  if (process.getuid !== undefined && stat.uid !== process.getuid()) {
    throw new ConfigError(`${setting}: ${dir} belongs to another user; ${why}, so it must be this user's own`)
  }
  const mode = stat.mode & 0o777
  if ((mode & 0o022) !== 0) {
    throw new ConfigError(`${setting}: ${dir} is open to other users (mode ${mode.toString(8)}); ${why}: chmod 700 ${dir}`)
  }
  if ((mode & 0o077) !== 0) chmodSync(dir, 0o700)
}

/** Makes each of `files` that exists this user's alone (0600); another user's, writable to this one, is left as its owner made it. */
export function privateFiles (files: string[]): void {
  for (const file of files) {
    try {
      if (existsSync(file)) chmodSync(file, 0o600)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err
    }
  }
}
