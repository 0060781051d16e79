import { ABANDONED_KEY_MS, type Claim } from './storage.ts'

/** An idempotency key as both engines' tables hold it. */
export interface KeyRow {
  fingerprint: string
  state: 'in_flight' | 'done'
  status: number | null
  headers: string | null
  body: string | null
  created_at: string
}

export const KEY_COLUMNS = 'fingerprint, state, status, headers, body, created_at'

/**
 * What the row found for a key means for a request that brings it: `free` when there is none, or
 * only one abandoned by a request that never finished (the caller then claims it), else the
 * claim's outcome.
 */
export function outcomeOf (row: KeyRow | undefined, fingerprint: string, now: number): Claim | 'free' {
  if (row === undefined || (row.state === 'in_flight' && Date.parse(row.created_at) < now - ABANDONED_KEY_MS)) return 'free'
  if (row.state === 'in_flight') return { outcome: 'in_flight' }
  if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' }
  return { outcome: 'replay', answer: { status: row.status as number, headers: JSON.parse(row.headers ?? '{}'), body: row.body ?? '' } }
}
