import { ConfigError, SETTINGS, unpackDirOf } from '../config/index.ts'
import { unpack } from '../packaging/shipped.ts'
import type { StoredCollections } from '../store/storage.ts'

/*
 * What every command of the CLI shares: where it reads and writes, the data directory it works
 * on, and how it fails: `{"error": ...}` on stderr, exit 1, or 2 for a usage or configuration error
 * (with the usage after it for the former).
 */

export interface CliIo {
  env: NodeJS.ProcessEnv
  stdin: () => Promise<string>
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** The collections whose tables and scopes the CLI knows: by default those of schemas/, as the service's. */
  collections?: StoredCollections
}

/** A command line the command does not take: answered with its usage. */
export class UsageError extends Error {}

/**
 * The data directory a command runs on, `--data-dir` or else DATA_DIR, as the service reads it;
 * what the binary unpacks (the SQLite addon) is unpacked under it first.
 */
export function cliDataDir (flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const dataDir = SETTINGS.dataDir.parse(flag ?? env.DATA_DIR ?? SETTINGS.dataDir.default, flag === undefined ? 'DATA_DIR' : '--data-dir')
  unpack(unpackDirOf(dataDir, env.UNPACK_DIR), 'UNPACK_DIR')
  return dataDir
}

export async function readAll (stream: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += String(chunk)
  return text
}

/** Writes the failure of a command whose usage is `usage` to stderr: its exit code. */
export function failed (err: unknown, usage: string, io: Pick<CliIo, 'stderr'>): number {
  const misused = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true
  io.stderr(`${JSON.stringify({ error: (err as Error).message })}\n${misused ? `${usage}\n` : ''}`)
  return misused || err instanceof ConfigError ? 2 : 1
}
