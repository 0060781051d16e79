import { ACCOUNT_COMMANDS, runAccountCommand } from './accounts.ts'
import { BACKUP_COMMANDS, runBackupCommand } from './backups.ts'
import type { CliIo } from './io.ts'

/*
 * The program's commands, which run instead of the service when a command line begins with one:
 * the clients, users and signing keys of the authorization server (accounts.ts), and the backup
 * and restore of the SQLite database (backups.ts).
 */

export type { CliIo } from './io.ts'
export { readAll } from './io.ts'

/** Whether a command line runs a command rather than the service. */
export const isCommand = (argv: readonly string[]): boolean => [...ACCOUNT_COMMANDS, ...BACKUP_COMMANDS].includes(argv[0] ?? '')

/** Runs the command a command line names: its exit code. */
export function runCli (argv: string[], io: CliIo): Promise<number> {
  return BACKUP_COMMANDS.includes(argv[0] ?? '') ? runBackupCommand(argv, io) : runAccountCommand(argv, io)
}
