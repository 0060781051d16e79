import { randomUUID } from 'node:crypto'
import type { SqliteDatabase } from './sqlite.js'

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed'

/** Who queued a job; nobody else may see it. */
export interface JobOwner {
  issuer: string
  clientId: string
  subject: string
}

/** A write request kept to be replayed later, as the client sent it. */
export interface StoredRequest {
  method: string
  /** Path and query as received, API_PREFIX included. */
  url: string
  headers: Record<string, string>
  /** JSON text; null when the request had no body. */
  body: string | null
}

/** The answer a job's request got: its status and JSON body (null when it had none). */
export interface JobResult {
  status: number
  body: unknown
}

/** A job as its owner sees it. */
export interface JobView {
  id: string
  status: JobStatus
  created_at: string
  finished_at: string | null
  result: JobResult | null
}

/** A job the worker has taken: everything it needs to replay the request. */
export interface ClaimedJob {
  id: string
  owner: JobOwner
  /** The scopes of the token that queued it, space-separated. */
  scope: string
  request: StoredRequest
}

interface ViewRow {
  id: string
  status: JobStatus
  created_at: string
  finished_at: string | null
  result_status: number | null
  result_body: string | null
}

interface ClaimedRow {
  id: string
  owner_issuer: string
  owner_client_id: string
  owner_subject: string
  scope: string
  method: string
  url: string
  headers: string
  body: string | null
}

/** The job queue in SQLite: the table of migrations/010_jobs.sql. */
export class JobStore {
  constructor (readonly db: SqliteDatabase) {}

  enqueue (owner: JobOwner, scope: string, request: StoredRequest): JobView {
    return toView(this.db.prepare(`INSERT INTO jobs
      (id, owner_issuer, owner_client_id, owner_subject, scope, method, url, headers, body, status, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)
      RETURNING id, status, created_at, finished_at, result_status, result_body`)
      .get(randomUUID(), owner.issuer, owner.clientId, owner.subject, scope,
        request.method, request.url, JSON.stringify(request.headers), request.body, new Date().toISOString()) as ViewRow)
  }

  /** The job if `owner` queued it: another's is as absent as one that never was. */
  find (id: string, owner: JobOwner): JobView | undefined {
    const row = this.db.prepare(`SELECT id, status, created_at, finished_at, result_status, result_body FROM jobs
      WHERE id = ? AND owner_issuer = ? AND owner_client_id = ? AND owner_subject = ?`)
      .get(id, owner.issuer, owner.clientId, owner.subject) as ViewRow | undefined
    return row === undefined ? undefined : toView(row)
  }

  /** Marks the oldest queued job running and returns it; undefined when none is queued. */
  claimNext (): ClaimedJob | undefined {
    const row = this.db.prepare(`UPDATE jobs SET status = 'running'
      WHERE seq = (SELECT seq FROM jobs WHERE status = 'queued' ORDER BY seq LIMIT 1)
      RETURNING id, owner_issuer, owner_client_id, owner_subject, scope, method, url, headers, body`).get() as ClaimedRow | undefined
    if (row === undefined) return undefined
    return {
      id: row.id,
      owner: { issuer: row.owner_issuer, clientId: row.owner_client_id, subject: row.owner_subject },
      scope: row.scope,
      request: { method: row.method, url: row.url, headers: JSON.parse(row.headers), body: row.body }
    }
  }

  /** Records the answer of a running job: succeeded for a 2xx, failed for anything else. */
  finish (id: string, result: JobResult): void {
    const status: JobStatus = result.status >= 200 && result.status < 300 ? 'succeeded' : 'failed'
    this.db.prepare(`UPDATE jobs SET status = ?, result_status = ?, result_body = ?, finished_at = ?
      WHERE id = ? AND status = 'running'`)
      .run(status, result.status, result.body === null ? null : JSON.stringify(result.body), new Date().toISOString(), id)
  }

  /** A running job whose request was not sent after all goes back to the queue, in its place. */
  requeue (id: string): void {
    this.db.prepare("UPDATE jobs SET status = 'queued' WHERE id = ? AND status = 'running'").run(id)
  }

  /** At start-up: jobs a previous process was running when it died are queued again. Returns how many. */
  requeueAbandoned (): number {
    return this.db.prepare("UPDATE jobs SET status = 'queued' WHERE status = 'running'").run().changes
  }

  /** Deletes the jobs finished before `before`. Returns how many. */
  prune (before: Date): number {
    return this.db.prepare('DELETE FROM jobs WHERE finished_at < ?').run(before.toISOString()).changes
  }
}

function toView (row: ViewRow): JobView {
  return {
    id: row.id,
    status: row.status,
    created_at: row.created_at,
    finished_at: row.finished_at,
    result: row.result_status === null
      ? null
      : { status: row.result_status, body: row.result_body === null ? null : JSON.parse(row.result_body) }
  }
}
