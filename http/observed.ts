import { channel } from 'node:diagnostics_channel'

/**
 * What the API's guards tell whoever listens (the metrics of telemetry/), through Node's
 * diagnostics channels: nothing is published while nobody subscribes.
 */

/**
 * A request refused for its token: `{ reason }`, `missing` (no bearer token), `insufficient_scope`
 * (a 403), or a TokenError's reason (auth/tokens.ts).
 */
export const tokenRefusals = channel('zoo-api:http.token-refused')

/** A request refused by the rate limit (a 429): `{}`. */
export const rateLimitRefusals = channel('zoo-api:http.rate-limited')
