import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// N=2^15 keeps a verification near 50 ms: costly to guess offline, cheap enough per token request.
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const KEY_LENGTH = 32

function derive (secret: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret.normalize('NFC'), salt, KEY_LENGTH, params, (err, key) => { if (err) reject(err); else resolve(key) })
  })
}

/** `scrypt$N$r$p$salt$hash`, all parameters kept so they can be raised later. */
export async function hashSecret (secret: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(secret, salt, PARAMS)
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/**
 * How a secret is kept. One a person chose may be guessable: scrypt makes each guess costly. One
 * this service generated holds 256 random bits, which no guessing finds: a digest keeps it
 * unreadable from the stored value, and checking it costs nothing, so wrong guesses cannot tie
 * up the hashing threads.
 */
export async function keptSecret (secret: string, origin: 'chosen' | 'generated'): Promise<string> {
  return origin === 'chosen' ? hashSecret(secret) : `sha256$${digest(secret)}`
}

export async function verifySecret (secret: string, stored: string): Promise<boolean> {
  if (stored.startsWith('sha256$')) {
    const expected = Buffer.from(stored.slice('sha256$'.length))
    const actual = Buffer.from(digest(secret))
    return actual.length === expected.length && timingSafeEqual(actual, expected)
  }
  const [scheme, N, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await derive(secret, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/** A random token of 256 bits, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString('base64url')

/** High-entropy tokens need no slow hash: a digest keeps the stored value useless if read. */
export const digest = (token: string): string => createHash('sha256').update(token).digest('base64url')
