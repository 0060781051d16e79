/**
 * Failed sign-in attempts, counted per key: the client address, the client id, the user name.
 * The first FREE failures of a key cost nothing more; each one after locks the key for twice as
 * long as the one before (1 s, 2 s, 4 s ... up to MAX_LOCK_S), and a locked key is refused
 * before any secret is checked. A success clears the client's and the user's count, never the
 * address's: one good password must not buy an address more guesses at other users. A key
 * without a failure for FORGET_AFTER_MS starts again from nothing.
 *
 * Counts live in the process: behind several instances each counts apart, which multiplies the
 * guesses allowed by the number of instances, not more.
 */
const FREE = 5
const MAX_LOCK_S = 300
const FORGET_AFTER_MS = 15 * 60_000
/** Keys kept at most; beyond, the least recently failed are forgotten first. */
const MAX_KEYS = 100_000

interface Failures {
  count: number
  lockedUntil: number
  last: number
}

export class FailedAttempts {
  readonly #keys = new Map<string, Failures>()

  /** Whole seconds until every one of `keys` is unlocked; 0 when none is locked. */
  lockedFor (keys: readonly string[], now = Date.now()): number {
    let until = 0
    for (const key of keys) until = Math.max(until, this.#live(key, now)?.lockedUntil ?? 0)
    return until > now ? Math.ceil((until - now) / 1000) : 0
  }

  failed (keys: readonly string[], now = Date.now()): void {
    for (const key of keys) {
      const failures = this.#live(key, now) ?? { count: 0, lockedUntil: 0, last: now }
      failures.count++
      failures.last = now
      if (failures.count > FREE) failures.lockedUntil = now + Math.min(2 ** (failures.count - FREE - 1), MAX_LOCK_S) * 1000
      // Most recently failed last: eviction takes from the front.
      this.#keys.delete(key)
      this.#keys.set(key, failures)
    }
    for (const oldest of this.#keys.keys()) {
      if (this.#keys.size <= MAX_KEYS) break
      this.#keys.delete(oldest)
    }
  }

  succeeded (keys: readonly string[]): void {
    for (const key of keys) this.#keys.delete(key)
  }

  #live (key: string, now: number): Failures | undefined {
    const failures = this.#keys.get(key)
    if (failures === undefined || now - failures.last < FORGET_AFTER_MS || now < failures.lockedUntil) return failures
    this.#keys.delete(key)
    return undefined
  }
}
