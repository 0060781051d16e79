import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { buildApi, type ApiOptions } from '../../app.ts'
import type { Config } from '../../config/index.ts'
import type { JobView } from '../../store/storage.ts'
import { checkContract } from '../contract.ts'
import { call } from '../helper.ts'

export const ASYNC = { prefer: 'respond-async' } as const
export const ZOO = { name: 'Berlin Zoo', city: 'Berlin', country: 'DE' } as const

/** The path of a job, from the absolute Location of its 202. */
export const jobPath = (accepted: LightMyRequestResponse): string => new URL(String(accepted.headers.location)).pathname

/** Checks a 202 answer and returns the job's path. */
export function accepted (t: Test, res: LightMyRequestResponse, prefix = ''): string {
  t.equal(res.statusCode, 202, res.body)
  const { id } = res.json()
  t.same(res.json(), { id, status: 'queued' })
  t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  t.equal(res.headers.location, `http://localhost:80${prefix}/v1/jobs/${id}`)
  t.equal(res.headers['preference-applied'], 'respond-async')
  return jobPath(res)
}

const POLLS = 200

/**
 * Reads the job until it has finished: a bounded number of polls with a short pause between,
 * so a worker that never gets to it fails the test instead of hanging it.
 */
export async function finished (app: FastifyInstance, path: string, headers: Record<string, string> = {}): Promise<JobView> {
  let job: JobView | undefined
  for (let poll = 0; poll < POLLS; poll++) {
    const res = await call(app, 'GET', path, undefined, headers)
    if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`)
    job = res.json()
    if (job?.finished_at !== null) return job as JobView
    await new Promise(resolve => setTimeout(resolve, 5))
  }
  throw new Error(`job ${path} still ${job?.status} after ${POLLS} polls`)
}

/**
 * The API on `config`'s data directory, closed at teardown; with `runJobs: false` its worker never
 * starts, so what it queues waits for the next app on the same directory; `collections` as buildServing's.
 */
export async function start (
  t: Test, config: Config, options: Pick<ApiOptions, 'runJobs' | 'collections'> = {}
): Promise<FastifyInstance> {
  const app = checkContract(t, buildApi(config, options))
  t.teardown(() => app.close())
  await app.ready()
  return app
}
