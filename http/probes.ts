import type { RouteShorthandOptions } from 'fastify'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A health probe (routes/health, routes/ready): answered whatever the scheme (a load
     * balancer probes the instance directly, also behind TLS=proxy), never rate-limited, never
     * logged, and revealing nothing but the state of the process.
     */
    probe?: boolean
  }
}

/** The route options of a health probe. */
export const PROBE = {
  logLevel: 'silent',
  config: { probe: true, rateLimit: false }
} as const satisfies RouteShorthandOptions
