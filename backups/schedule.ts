import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { privateDirectory } from '../config/index.ts'
import type { TakenBackup } from '../store/storage.ts'
import { timestamp } from './restore.ts'

/** A scheduled backup's name: `zoo-<UTC time>.db`, which sorts by time. Nothing else in BACKUP_DIR is ever deleted. */
const SCHEDULED = /^zoo-\d{8}T\d{6}\.\d{3}Z\.db$/
/**
 * A scheduled backup's copy in progress: the private folder store/copies.ts writes a copy in, or
 * what an older version left, a file named by its process with the files SQLite keeps beside it.
 */
const PARTIAL = /^\.zoo-\d{8}T\d{6}\.\d{3}Z\.db\.partial-[\w-]+$/

export interface ScheduleOptions {
  dir: string
  /** Seconds from the end of one backup to the start of the next. */
  interval: number
  keep: number
  backUp: (file: string) => Promise<TakenBackup>
  log: FastifyBaseLogger
}

/**
 * BACKUP_DIR's backups while the service serves: one at start, then one BACKUP_INTERVAL seconds
 * after the end of the one before (never two at once), each followed by deleting the oldest beyond
 * BACKUP_KEEP. A failed backup is logged and counted, and the next one is tried at its time; the
 * backups already kept stay.
 */
export class BackupSchedule {
  /** When the last backup that succeeded ended. */
  lastSuccess: Date | undefined
  failures = 0
  readonly #options: ScheduleOptions
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined
  #stopped = false

  constructor (options: ScheduleOptions) {
    this.#options = options
    privateDirectory(options.dir, 'BACKUP_DIR')
    // What a backup cut short (a crash, a stop that took too long) left: a partial copy, never kept.
    for (const name of readdirSync(options.dir)) if (PARTIAL.test(name)) rmSync(join(options.dir, name), { recursive: true, force: true })
  }

  start (): void {
    this.#next(0)
  }

  /** No backup starts any more; the one in progress ends first. */
  async stop (): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#running
  }

  #next (delay: number): void {
    if (this.#stopped) return
    this.#timer = setTimeout(() => {
      this.#running = this.#run().finally(() => this.#next(this.#options.interval * 1000))
    }, delay)
    // The schedule alone keeps no process alive.
    this.#timer.unref()
  }

  async #run (): Promise<void> {
    const { dir, keep, backUp, log } = this.#options
    const started = Date.now()
    try {
      const taken = await backUp(join(dir, `zoo-${timestamp(new Date(started))}.db`))
      this.lastSuccess = new Date()
      const removed = prune(dir, keep)
      log.info({ backup: taken.file, bytes: taken.bytes, ms: Date.now() - started, removed }, 'backup taken')
    } catch (err) {
      this.failures++
      log.error({ err, dir }, 'backup failed')
    }
  }
}

/** Deletes the oldest scheduled backups of `dir` beyond `keep`; their names. */
export function prune (dir: string, keep: number): string[] {
  const backups = readdirSync(dir).filter(name => SCHEDULED.test(name)).sort()
  const removed = backups.slice(0, Math.max(0, backups.length - keep))
  for (const name of removed) rmSync(join(dir, name), { force: true })
  return removed
}
