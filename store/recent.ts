/**
 * The values of the `size` keys most recently used, the least recently used forgotten when another
 * comes: a Map keeps insertion order, so a used key moved to its end leaves the oldest first.
 */
export class Recent<K, V> {
  readonly #values = new Map<K, V>()
  readonly size: number

  constructor (size: number) {
    this.size = size
  }

  /** The value kept for `key`, or the one `make` makes, now the most recently used. */
  get (key: K, make: () => V): V {
    let value = this.#values.get(key)
    if (value === undefined) {
      value = make()
      if (this.#values.size >= this.size) this.#values.delete(this.#values.keys().next().value as K)
    } else {
      this.#values.delete(key)
    }
    this.#values.set(key, value)
    return value
  }
}
