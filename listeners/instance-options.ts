import { randomUUID } from 'node:crypto'
import type { Writable } from 'node:stream'
import type { Config } from '../config.js'

/**
 * What every Fastify instance of the process shares (the API, the local tool server, the
 * redirect listener): its logger, named after it, and how its requests are identified.
 */
export function instanceOptions (logLevel: Config['logLevel'], name?: string, stream?: Writable) {
  return {
    logger: logLevel === 'silent'
      ? false as const
      : {
          level: logLevel,
          ...(name === undefined ? {} : { name }),
          redact: ['req.headers.authorization', 'req.headers.cookie'],
          ...(stream === undefined ? {} : { stream })
        },
    genReqId: () => randomUUID(),
    // A client-chosen id could impersonate another request in the logs.
    requestIdHeader: false as const
  }
}
