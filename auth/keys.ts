import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import {
  calculateJwkThumbprint, errors, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK, type JWSHeaderParameters
} from 'jose'
import type { SigningKeyStore, StoredSigningKey } from '../store/storage.ts'

export interface SigningKey {
  kid: string
  privateKey: CryptoKey
  publicKey: CryptoKey
  /** The public half as published in /.well-known/jwks.json. */
  publicJwk: JWK
}

/** Where the one key lived before keys were kept in the database; its key is taken over once. */
const LEGACY_FILE = 'signing-key.jwk.json'
/** An unknown `kid` makes the keys be read again, at most this often: a stream of made-up kids costs one read a second. */
const RELOAD_INTERVAL_MS = 1000

async function signingKeyOf (stored: StoredSigningKey): Promise<SigningKey> {
  const privateJwk = JSON.parse(stored.jwk) as JWK
  const { d: _private, ...publicJwk } = privateJwk
  return {
    kid: stored.kid,
    privateKey: await importJWK(privateJwk, 'ES256') as CryptoKey,
    publicKey: await importJWK(publicJwk, 'ES256') as CryptoKey,
    publicJwk: { ...publicJwk, kid: stored.kid, alg: 'ES256', use: 'sig' }
  }
}

/** A new ES256 key, as kept: named by the thumbprint of its public half (RFC 7638). */
async function newKey (): Promise<StoredSigningKey> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  return keyOf(await exportJWK(privateKey), new Date())
}

async function keyOf (privateJwk: JWK, createdAt: Date): Promise<StoredSigningKey> {
  const { d: _private, ...publicJwk } = privateJwk
  return { kid: await calculateJwkThumbprint(publicJwk), jwk: JSON.stringify(privateJwk), created_at: createdAt.toISOString() }
}

/**
 * The ES256 keys that sign access tokens, kept by the storage so that every instance of the
 * service signs and verifies with the same ones. The newest signs; every key kept verifies, so
 * a rotation (`zoo-api key rotate`) leaves the tokens signed before it valid. Each instance reads
 * the keys again before it signs a token, and when a token names a key it does not know: a key
 * added by another instance or by the CLI is in use at once, everywhere.
 */
export class SigningKeys {
  #keys = new Map<string, SigningKey>()
  #newest: SigningKey | undefined
  #loadedAt = 0

  readonly store: SigningKeyStore

  private constructor (store: SigningKeyStore) {
    this.store = store
  }

  /**
   * The keys of `store`; the first start makes one, or takes over the key an earlier version kept
   * in `legacyDir` (so that its tokens stay valid).
   */
  static async open (store: SigningKeyStore, legacyDir?: string): Promise<SigningKeys> {
    if ((await store.all()).length === 0) {
      const legacy = legacyDir === undefined ? undefined : join(legacyDir, LEGACY_FILE)
      await store.add(legacy !== undefined && existsSync(legacy)
        ? await keyOf(JSON.parse(readFileSync(legacy, 'utf8')) as JWK, statSync(legacy).mtime)
        : await newKey())
    }
    const keys = new SigningKeys(store)
    await keys.reload()
    return keys
  }

  /** The key that signs, read again from the storage first. */
  async signing (): Promise<SigningKey> {
    await this.reload()
    return this.#newest as SigningKey
  }

  /** The public keys, as /.well-known/jwks.json publishes them. */
  publicJwks (): JWK[] {
    return [...this.#keys.values()].map(key => key.publicJwk)
  }

  /** What jose's jwtVerify asks for the key of a token. */
  readonly verificationKey = async (header: JWSHeaderParameters): Promise<CryptoKey> => {
    let key = header.kid === undefined ? undefined : this.#keys.get(header.kid)
    if (key === undefined && header.kid !== undefined && Date.now() - this.#loadedAt >= RELOAD_INTERVAL_MS) {
      await this.reload()
      key = this.#keys.get(header.kid)
    }
    if (key === undefined) throw new errors.JWKSNoMatchingKey()
    return key.publicKey
  }

  /**
   * Adds a key, which signs from now on, and deletes the keys superseded more than `tokenLifetime`
   * seconds ago: no token they signed is still valid.
   */
  async rotate (tokenLifetime: number): Promise<SigningKey> {
    await this.store.add(await newKey())
    await this.store.retire(new Date(Date.now() - tokenLifetime * 1000))
    return this.signing()
  }

  async reload (): Promise<void> {
    const stored = await this.store.all()
    const keys = new Map<string, SigningKey>()
    for (const key of stored) keys.set(key.kid, this.#keys.get(key.kid) ?? await signingKeyOf(key))
    this.#keys = keys
    this.#newest = keys.get((stored[0] as StoredSigningKey).kid)
    this.#loadedAt = Date.now()
  }
}
