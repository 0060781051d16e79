import { raw } from '../sql.ts'
import type { Lease } from '../jobs.ts'

/**
 * How long an instance holds a job it took. A job's request is one API call, answered in
 * milliseconds; an instance that has not finished it by then has died, and another takes it.
 */
const LEASE = '5 minutes'

/**
 * The job queue in PostgreSQL is shared by every instance (migrations/postgres/010_jobs.sql). A
 * worker takes the oldest queued job that no other worker is taking at that moment (`FOR UPDATE
 * SKIP LOCKED`), so each job runs on exactly one instance, and holds it under a lease: a job whose
 * instance died goes back to the queue once its lease has passed.
 */
export const POSTGRES_LEASE: Lease = {
  hold: raw(`, lease_until = now() + interval '${LEASE}'`),
  skip: raw(' FOR UPDATE SKIP LOCKED'),
  end: raw(', lease_until = NULL'),
  passed: raw(' AND lease_until < now()')
}
