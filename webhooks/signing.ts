import { createHmac, randomBytes } from 'node:crypto'

/*
 * Signatures of the Standard Webhooks specification: a secret is `whsec_` and base64 of random
 * bytes; a message is signed as `<webhook-id>.<webhook-timestamp>.<body>` with HMAC-SHA256 of the
 * secret's bytes, and the `webhook-signature` header holds `v1,<base64>` for each secret that
 * signs, separated by spaces (two while a rotated secret still signs).
 */

const PREFIX = 'whsec_'

/** A new signing secret: 32 random bytes. */
export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`

/** The `webhook-signature` header of a message for each of `secrets`. */
export function signature (secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map(secret => {
    const key = Buffer.from(secret.slice(PREFIX.length), 'base64')
    return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
  }).join(' ')
}
