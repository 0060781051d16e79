import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/** scrypt's cost for new hashes: costly to guess offline, cheap enough per token request (docs/benchmarks.md, measurements). */
export const HASH_COST = { N: 32768, r: 8, p: 1 } as const
const MAXMEM = 64 * 1024 * 1024
let cost: { N: number, r: number, p: number } = HASH_COST

/**
 * Sets scrypt's N for the hashes this process makes from now on, for the test suite alone
 * (test/helper.ts lowers it): the suite builds hundreds of apps, each hashing a chosen bootstrap
 * secret and checking it for a token, which at the production cost adds minutes of CPU. A hash
 * keeps its parameters and is checked with them, so a check costs what its hash cost. Nothing in
 * the program calls it; test/auth/secrets.test.ts proves the production cost.
 */
export function setHashCostForTests (N: number): void {
  cost = { ...HASH_COST, N }
}

const KEY_LENGTH = 32

/** Secrets being hashed at once, and waiting to be, at most; beyond, HashingBusy. */
const HASHING = 2
const WAITING = 32

/** Too many secrets are being checked: the caller answers 503 and asks for a retry. */
export class HashingBusy extends Error {
  override name = 'HashingBusy'
}

let hashing = 0
const waiting: Array<() => void> = []

/**
 * scrypt runs on libuv's thread pool (4 threads), which file reads, DNS lookups and the local tool
 * server's listings share: at most HASHING run at once, so that a flood of guesses leaves the
 * other threads free, and at most WAITING more wait, so that it cannot queue minutes of work.
 */
async function derive (secret: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  if (hashing < HASHING) hashing++
  else if (waiting.length < WAITING) await new Promise<void>(resolve => waiting.push(resolve))
  else throw new HashingBusy('too many secrets are being checked at once')
  try {
    return await new Promise((resolve, reject) => {
      scrypt(secret.normalize('NFC'), salt, KEY_LENGTH, params, (err, key) => { if (err) reject(err); else resolve(key) })
    })
  } finally {
    // The place is handed to the next in line, or given back.
    const next = waiting.shift()
    if (next === undefined) hashing--
    else next()
  }
}

/** `scrypt$N$r$p$salt$hash`, all parameters kept so they can be raised later. */
export async function hashSecret (secret: string): Promise<string> {
  const salt = randomBytes(16)
  const { N, r, p } = cost
  const key = await derive(secret, salt, { N, r, p, maxmem: MAXMEM })
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$')
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
  const key = await derive(secret, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p), maxmem: MAXMEM })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/** A random token of 256 bits, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString('base64url')

/** High-entropy tokens need no slow hash: a digest keeps the stored value useless if read. */
export const digest = (token: string): string => createHash('sha256').update(token).digest('base64url')
