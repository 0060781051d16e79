import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto'

/*
 * Signatures of the Standard Webhooks specification: a secret is `whsec_` and base64 of random
 * bytes; a message is signed as `<webhook-id>.<webhook-timestamp>.<body>` with HMAC-SHA256 of the
 * secret's bytes, and the `webhook-signature` header holds `v1,<base64>` for each secret that
 * signs, separated by spaces (two while a rotated secret still signs).
 */

const PREFIX = 'whsec_'
/** Secrets' keys kept: a service has few subscriptions, each with one secret or two. */
const KEYS_KEPT = 1000

/**
 * Each secret's key, made once: an HMAC of a key given as bytes cost 12 to 14 µs, made of a key
 * object 2 µs (Node 24 makes a key object of the bytes at each call), 5% of the requests' thread, which signed then,
 * under creates with a subscription (docs/benchmarks.md, "Webhooks").
 */
const keys = new Map<string, KeyObject>()

function keyOf (secret: string): KeyObject {
  let key = keys.get(secret)
  if (key === undefined) {
    if (keys.size >= KEYS_KEPT) keys.clear()
    keys.set(secret, key = createSecretKey(Buffer.from(secret.slice(PREFIX.length), 'base64')))
  }
  return key
}

/** A new signing secret: 32 random bytes. */
export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`

/** The `webhook-signature` header of a message for each of `secrets`. */
export function signature (secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map(secret => `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`).join(' ')
}
