import { randomUUID } from 'node:crypto'
import { CLAIMED_COLUMNS, finishedStatus, toClaimed, toView, VIEW_COLUMNS, type ClaimedRow, type ViewRow } from '../job-rows.ts'
import type { ClaimedJob, JobOwner, JobResult, JobStore, JobView, StoredRequest } from '../storage.ts'
import type { Pool } from './database.ts'

/**
 * How long an instance holds a job it took. A job's request is one API call, answered in
 * milliseconds; an instance that has not finished it by then has died, and another takes it.
 */
const LEASE = '5 minutes'

/**
 * The job queue in PostgreSQL (migrations/postgres/010_jobs.sql), shared by every instance. A
 * worker takes the oldest queued job that no other worker is taking at that moment (`FOR UPDATE
 * SKIP LOCKED`), so each job runs on exactly one instance, and holds it under a lease: a job whose
 * instance died goes back to the queue once its lease has passed.
 */
export class PostgresJobStore implements JobStore {
  readonly pool: Pool

  constructor (pool: Pool) {
    this.pool = pool
  }

  async enqueue (owner: JobOwner, scope: string, request: StoredRequest): Promise<JobView> {
    const { rows } = await this.pool.query<ViewRow>(`INSERT INTO jobs
      (id, owner_issuer, owner_client_id, owner_subject, scope, method, url, headers, body, status, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', $10) RETURNING ${VIEW_COLUMNS}`,
    [randomUUID(), owner.issuer, owner.clientId, owner.subject, scope,
      request.method, request.url, JSON.stringify(request.headers), request.body, new Date().toISOString()])
    return toView(rows[0] as ViewRow)
  }

  async find (id: string, owner: JobOwner): Promise<JobView | undefined> {
    const { rows } = await this.pool.query<ViewRow>(`SELECT ${VIEW_COLUMNS} FROM jobs
      WHERE id = $1 AND owner_issuer = $2 AND owner_client_id = $3 AND owner_subject = $4`,
    [id, owner.issuer, owner.clientId, owner.subject])
    return rows[0] === undefined ? undefined : toView(rows[0])
  }

  async claimNext (): Promise<ClaimedJob | undefined> {
    const { rows } = await this.pool.query<ClaimedRow>(`UPDATE jobs SET status = 'running', lease_until = now() + interval '${LEASE}'
      WHERE seq = (SELECT seq FROM jobs WHERE status = 'queued' ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING ${CLAIMED_COLUMNS}`)
    return rows[0] === undefined ? undefined : toClaimed(rows[0])
  }

  async finish (id: string, result: JobResult): Promise<void> {
    await this.pool.query(`UPDATE jobs SET status = $1, result_status = $2, result_body = $3, finished_at = $4, lease_until = NULL,
      body = NULL WHERE id = $5 AND status = 'running'`,
    [finishedStatus(result.status), result.status, result.body === null ? null : JSON.stringify(result.body), new Date().toISOString(), id])
  }

  async requeue (id: string): Promise<void> {
    await this.pool.query("UPDATE jobs SET status = 'queued', lease_until = NULL WHERE id = $1 AND status = 'running'", [id])
  }

  /** Jobs whose lease has passed: the instance that took them died. */
  async requeueAbandoned (): Promise<number> {
    const { rowCount } = await this.pool.query(`UPDATE jobs SET status = 'queued', lease_until = NULL
      WHERE status = 'running' AND lease_until < now()`)
    return rowCount ?? 0
  }

  async waiting (owner: JobOwner): Promise<number> {
    const { rows } = await this.pool.query<{ waiting: number }>(`SELECT count(*) AS waiting FROM jobs
      WHERE status IN ('queued', 'running') AND owner_issuer = $1 AND owner_client_id = $2 AND owner_subject = $3`,
    [owner.issuer, owner.clientId, owner.subject])
    return (rows[0] as { waiting: number }).waiting
  }

  async prune (succeeded: Date, failed: Date): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM jobs
      WHERE (status = 'succeeded' AND finished_at < $1) OR (status = 'failed' AND finished_at < $2)`,
    [succeeded.toISOString(), failed.toISOString()])
    return rowCount ?? 0
  }
}
