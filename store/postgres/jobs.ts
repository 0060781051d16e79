import { raw } from '../sql.ts'
import type { Lease } from '../jobs.ts'

/** How long an instance holds a job it took: one API call takes milliseconds, so one not done by then has died. */
const LEASE = '5 minutes'

/**
 * The job queue shared by every instance: a worker takes the oldest job no other is taking (`FOR
 * UPDATE SKIP LOCKED`) under a lease, after which the job of an instance that died is queued again.
 */
export const POSTGRES_LEASE: Lease = {
  hold: raw(`, lease_until = now() + interval '${LEASE}'`),
  skip: raw(' FOR UPDATE SKIP LOCKED'),
  end: raw(', lease_until = NULL'),
  passed: raw(' AND lease_until < now()')
}
