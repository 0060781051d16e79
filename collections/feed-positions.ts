import { createCipheriv, createDecipheriv, type Cipheriv, type Decipheriv } from 'node:crypto'

/** What every position told holds after its number: a text that is none of this feed's fails to read back. */
const TAG = Buffer.from('zoo-feed')
const TOLD = /^[A-Za-z0-9_-]{22}$/
/** The beginning of the feed, before any change: told as it is, since it tells nothing. */
export const BEGINNING = '0'

/**
 * Feed positions as clients are told them. A position is one number over the changes of every
 * collection (store/feed.ts), so two positions a client reads would tell it how many changes it
 * was not told of: those of collections it may not read, and records its access rules hide. So a
 * client is told each position enciphered, 22 characters that say nothing of its number, and
 * hands it back to resume.
 *
 * A position is one AES-256 block: its number (8 bytes) and TAG. One block needs no mode (ECB is
 * the cipher itself), and the same position is always told alike, by every instance sharing the
 * key (ChangeLog.positionKey), so a client may compare two for equality. A text changed or made
 * up reads back with the right TAG once in 2^64: it names no position, and is refused as one
 * would be that another database told.
 */
export class FeedPositions {
  // ECB with no padding keeps no state between blocks: one cipher of each way serves every block.
  readonly #cipher: Cipheriv
  readonly #decipher: Decipheriv

  constructor (key: string) {
    const bytes = Buffer.from(key, 'base64')
    if (bytes.length !== 32) throw new Error('the feed key must be 32 bytes')
    this.#cipher = createCipheriv('aes-256-ecb', bytes, null).setAutoPadding(false)
    this.#decipher = createDecipheriv('aes-256-ecb', bytes, null).setAutoPadding(false)
  }

  /** The text a client is told for `position`. */
  told (position: string): string {
    if (position === BEGINNING) return BEGINNING
    const block = Buffer.alloc(16)
    block.writeBigUInt64BE(BigInt(position))
    TAG.copy(block, 8)
    return this.#cipher.update(block).toString('base64url')
  }

  /** The position a text told by `told` names; undefined for any other text. */
  read (text: string): string | undefined {
    if (text === BEGINNING) return BEGINNING
    if (!TOLD.test(text)) return undefined
    const block = this.#decipher.update(Buffer.from(text, 'base64url'))
    if (block.length !== 16 || !block.subarray(8).equals(TAG)) return undefined
    return block.readBigUInt64BE(0).toString()
  }
}
