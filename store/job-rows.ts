import type { ClaimedJob, JobStatus, JobView } from './storage.ts'

/** A job as both engines' tables hold it, for its owner's view. */
export interface ViewRow {
  id: string
  status: JobStatus
  created_at: string
  finished_at: string | null
  result_status: number | null
  result_body: string | null
}

/** A job as both engines' tables hold it, for the worker that took it. */
export interface ClaimedRow {
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

export const VIEW_COLUMNS = 'id, status, created_at, finished_at, result_status, result_body'
export const CLAIMED_COLUMNS = 'id, owner_issuer, owner_client_id, owner_subject, scope, method, url, headers, body'

export function toView (row: ViewRow): JobView {
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

export function toClaimed (row: ClaimedRow): ClaimedJob {
  return {
    id: row.id,
    owner: { issuer: row.owner_issuer, clientId: row.owner_client_id, subject: row.owner_subject },
    scope: row.scope,
    request: { method: row.method, url: row.url, headers: JSON.parse(row.headers), body: row.body }
  }
}

/** A finished job's status: succeeded for a 2xx answer, failed for anything else. */
export const finishedStatus = (status: number): JobStatus => status >= 200 && status < 300 ? 'succeeded' : 'failed'
