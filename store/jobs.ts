import { randomUUID } from 'node:crypto'
import type { DatabasePort } from './database.ts'
import { raw, sql, type Sql } from './sql.ts'
import type { ClaimedJob, JobOwner, JobResult, JobStatus, JobStore, JobView, StoredRequest } from './storage.ts'

/** A job as the table holds it, for its owner's view. */
interface ViewRow {
  id: string
  status: JobStatus
  created_at: string
  finished_at: string | null
  result_status: number | null
  result_body: string | null
}

/** A job as the table holds it, for the worker that took it. */
interface ClaimedRow {
  id: string
  owner_issuer: string
  owner_client_id: string
  owner_subject: string
  scope: string
  claims: string
  method: string
  url: string
  headers: string
  body: string | null
}

const VIEW = raw('id, status, created_at, finished_at, result_status, result_body')
const CLAIMED = raw('id, owner_issuer, owner_client_id, owner_subject, scope, claims, method, url, headers, body')

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

function toClaimed (row: ClaimedRow): ClaimedJob {
  return {
    id: row.id,
    owner: { issuer: row.owner_issuer, clientId: row.owner_client_id, subject: row.owner_subject },
    scope: row.scope,
    claims: row.claims,
    request: { method: row.method, url: row.url, headers: JSON.parse(row.headers), body: row.body }
  }
}

/** A finished job's status: succeeded for a 2xx answer, failed for anything else. */
const finishedStatus = (status: number): JobStatus => status >= 200 && status < 300 ? 'succeeded' : 'failed'

/**
 * How the instances that share a queue each hold the jobs they took (store/postgres/jobs.ts): the
 * parts of the statements that take a job, let it go and find those whose instance died.
 */
export interface Lease {
  /** Appended to the SET of the job taken: until when it is held. */
  hold: Sql
  /** Appended to the read of the oldest queued job: what passes over a job another instance is taking at that moment. */
  skip: Sql
  /** Appended to the SET of a job that stops running. */
  end: Sql
  /** Appended to the condition of a running job: its instance is gone. */
  passed: Sql
}

/**
 * Where one process serves the database, it is the only worker: it takes a job without holding
 * it against another, and the jobs running when it starts are those it was running when it died.
 */
const UNSHARED: Lease = { hold: raw(''), skip: raw(''), end: raw(''), passed: raw('') }

/** The job queue (migrations/{sqlite,postgres}/010_jobs.sql). */
export class SqlJobStore implements JobStore {
  readonly db: DatabasePort
  readonly lease: Lease

  constructor (db: DatabasePort, lease: Lease = UNSHARED) {
    this.db = db
    this.lease = lease
  }

  async enqueue (owner: JobOwner, scope: string, claims: string, request: StoredRequest): Promise<JobView> {
    return toView(await this.db.row<ViewRow>(sql`INSERT INTO jobs
      (id, owner_issuer, owner_client_id, owner_subject, scope, claims, method, url, headers, body, status, created_at)
      VALUES (${randomUUID()}, ${owner.issuer}, ${owner.clientId}, ${owner.subject}, ${scope}, ${claims}, ${request.method}, ${request.url},
      ${JSON.stringify(request.headers)}, ${request.body}, 'queued', ${new Date().toISOString()})
      RETURNING ${VIEW}`) as ViewRow)
  }

  async find (id: string, owner: JobOwner): Promise<JobView | undefined> {
    const row = await this.db.row<ViewRow>(sql`SELECT ${VIEW} FROM jobs
      WHERE id = ${id} AND owner_issuer = ${owner.issuer} AND owner_client_id = ${owner.clientId} AND owner_subject = ${owner.subject}`)
    return row === undefined ? undefined : toView(row)
  }

  async claimNext (): Promise<ClaimedJob | undefined> {
    const row = await this.db.row<ClaimedRow>(sql`UPDATE jobs SET status = 'running'${this.lease.hold}
      WHERE seq = (SELECT seq FROM jobs WHERE status = 'queued' ORDER BY seq LIMIT 1${this.lease.skip})
      RETURNING ${CLAIMED}`)
    return row === undefined ? undefined : toClaimed(row)
  }

  async finish (id: string, result: JobResult): Promise<void> {
    await this.db.run(sql`UPDATE jobs SET status = ${finishedStatus(result.status)}, result_status = ${result.status},
      result_body = ${result.body === null ? null : JSON.stringify(result.body)}, finished_at = ${new Date().toISOString()},
      body = NULL${this.lease.end} WHERE id = ${id} AND status = 'running'`)
  }

  async requeue (id: string): Promise<void> {
    await this.db.run(sql`UPDATE jobs SET status = 'queued'${this.lease.end} WHERE id = ${id} AND status = 'running'`)
  }

  async requeueAbandoned (): Promise<number> {
    return this.db.run(sql`UPDATE jobs SET status = 'queued'${this.lease.end} WHERE status = 'running'${this.lease.passed}`)
  }

  async waiting (owner: JobOwner): Promise<number> {
    const row = await this.db.row<{ waiting: number }>(sql`SELECT count(*) AS waiting FROM jobs WHERE status IN ('queued', 'running')
      AND owner_issuer = ${owner.issuer} AND owner_client_id = ${owner.clientId} AND owner_subject = ${owner.subject}`)
    return (row as { waiting: number }).waiting
  }

  async queued (): Promise<number> {
    return Number((await this.db.row<{ queued: number }>(sql`SELECT count(*) AS queued FROM jobs WHERE status = 'queued'`))?.queued)
  }

  async prune (succeeded: Date, failed: Date): Promise<number> {
    return this.db.run(sql`DELETE FROM jobs WHERE (status = 'succeeded' AND finished_at < ${succeeded.toISOString()})
      OR (status = 'failed' AND finished_at < ${failed.toISOString()})`)
  }
}
