import { randomUUID } from 'node:crypto'
import { CLAIMED_COLUMNS, finishedStatus, toClaimed, toView, VIEW_COLUMNS, type ClaimedRow, type ViewRow } from '../job-rows.ts'
import type { ClaimedJob, JobOwner, JobResult, JobStore, JobView, StoredRequest } from '../storage.ts'
import type { SqliteDatabase } from './database.ts'

/** The job queue in SQLite: the table of migrations/sqlite/010_jobs.sql. */
export class SqliteJobStore implements JobStore {
  readonly db: SqliteDatabase

  constructor (db: SqliteDatabase) {
    this.db = db
  }

  async enqueue (owner: JobOwner, scope: string, request: StoredRequest): Promise<JobView> {
    return toView(this.db.prepare(`INSERT INTO jobs
      (id, owner_issuer, owner_client_id, owner_subject, scope, method, url, headers, body, status, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)
      RETURNING ${VIEW_COLUMNS}`)
      .get(randomUUID(), owner.issuer, owner.clientId, owner.subject, scope,
        request.method, request.url, JSON.stringify(request.headers), request.body, new Date().toISOString()) as ViewRow)
  }

  /** The job if `owner` queued it: another's is as absent as one that never was. */
  async find (id: string, owner: JobOwner): Promise<JobView | undefined> {
    const row = this.db.prepare(`SELECT ${VIEW_COLUMNS} FROM jobs
      WHERE id = ? AND owner_issuer = ? AND owner_client_id = ? AND owner_subject = ?`)
      .get(id, owner.issuer, owner.clientId, owner.subject) as ViewRow | undefined
    return row === undefined ? undefined : toView(row)
  }

  /** Marks the oldest queued job running and returns it; undefined when none is queued. */
  async claimNext (): Promise<ClaimedJob | undefined> {
    const row = this.db.prepare(`UPDATE jobs SET status = 'running'
      WHERE seq = (SELECT seq FROM jobs WHERE status = 'queued' ORDER BY seq LIMIT 1)
      RETURNING ${CLAIMED_COLUMNS}`).get() as ClaimedRow | undefined
    return row === undefined ? undefined : toClaimed(row)
  }

  /** Records the answer of a running job: succeeded for a 2xx, failed for anything else. */
  async finish (id: string, result: JobResult): Promise<void> {
    this.db.prepare(`UPDATE jobs SET status = ?, result_status = ?, result_body = ?, finished_at = ?, body = NULL
      WHERE id = ? AND status = 'running'`)
      .run(finishedStatus(result.status), result.status, result.body === null ? null : JSON.stringify(result.body),
        new Date().toISOString(), id)
  }

  /** A running job whose request was not sent after all goes back to the queue, in its place. */
  async requeue (id: string): Promise<void> {
    this.db.prepare("UPDATE jobs SET status = 'queued' WHERE id = ? AND status = 'running'").run(id)
  }

  /** At start-up: jobs a previous process was running when it died are queued again. Returns how many. */
  async requeueAbandoned (): Promise<number> {
    return this.db.prepare("UPDATE jobs SET status = 'queued' WHERE status = 'running'").run().changes
  }

  async waiting (owner: JobOwner): Promise<number> {
    return this.db.prepare(`SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')
      AND owner_issuer = ? AND owner_client_id = ? AND owner_subject = ?`)
      .pluck().get(owner.issuer, owner.clientId, owner.subject) as number
  }

  async prune (succeeded: Date, failed: Date): Promise<number> {
    return this.db.prepare(`DELETE FROM jobs
      WHERE (status = 'succeeded' AND finished_at < ?) OR (status = 'failed' AND finished_at < ?)`)
      .run(succeeded.toISOString(), failed.toISOString()).changes
  }
}
