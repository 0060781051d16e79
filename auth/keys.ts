import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose'

export interface SigningKey {
  kid: string
  privateKey: CryptoKey
  /** The public half as published in /.well-known/jwks.json. */
  publicJwk: JWK
}

const FILE = 'signing-key.jwk.json'

/** The ES256 key that signs access tokens: made on first start, kept in DATA_DIR (mode 0600). */
export async function loadOrCreateSigningKey (dataDir: string): Promise<SigningKey> {
  const file = join(dataDir, FILE)
  let privateJwk: JWK
  if (existsSync(file)) {
    privateJwk = JSON.parse(readFileSync(file, 'utf8'))
  } else {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    privateJwk = await exportJWK(privateKey)
    writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600, flag: 'wx' })
  }
  const { d: _private, ...publicJwk } = privateJwk
  const kid = await calculateJwkThumbprint(publicJwk)
  return {
    kid,
    privateKey: await importJWK(privateJwk, 'ES256') as CryptoKey,
    publicJwk: { ...publicJwk, kid, alg: 'ES256', use: 'sig' }
  }
}
