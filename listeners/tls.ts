import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { ConfigError, type Config } from '../config/index.ts'

/** What the API's HTTPS server needs, and what start-up tells the operator about it. */
export interface TlsMaterial {
  key: string
  cert: string
  /** SHA-256 of the certificate, colon-separated hex, as browsers and `openssl x509 -fingerprint -sha256` show it. */
  fingerprint: string
  certFile: string
  /** `configured`: TLS_CERT/TLS_KEY; `created`/`reused`: the self-signed certificate in DATA_DIR. */
  origin: 'configured' | 'created' | 'reused'
}

const VALIDITY_DAYS = 365

/** Where the self-signed certificate is kept, relative to DATA_DIR. */
export const selfSignedFiles = (dataDir: string): { cert: string, key: string } =>
  ({ cert: join(dataDir, 'tls', 'cert.pem'), key: join(dataDir, 'tls', 'key.pem') })

/**
 * TLS_CERT/TLS_KEY when set; otherwise the self-signed certificate kept in DATA_DIR, made on the
 * first start and again when it has expired. A pair that cannot be used throws ConfigError.
 */
export async function loadTls (config: Pick<Config, 'dataDir' | 'tlsCert' | 'tlsKey'>, now = new Date()): Promise<TlsMaterial> {
  if (config.tlsCert !== undefined && config.tlsKey !== undefined) {
    const pair = readPair(config.tlsCert, config.tlsKey, 'TLS_CERT', 'TLS_KEY')
    return { ...pair, certFile: config.tlsCert, origin: 'configured' }
  }
  const files = selfSignedFiles(config.dataDir)
  // A lone file is what an interrupted first start leaves: nothing to keep.
  if (existsSync(files.cert) && existsSync(files.key)) {
    const pair = readPair(files.cert, files.key, 'DATA_DIR', 'DATA_DIR')
    if (new Date(new X509Certificate(pair.cert).validTo) > now) return { ...pair, certFile: files.cert, origin: 'reused' }
  }
  const created = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    // A client whose clock runs a little behind would otherwise see a certificate not yet valid.
    notBeforeDate: new Date(now.getTime() - 3600_000),
    notAfterDate: new Date(now.getTime() + VALIDITY_DAYS * 86400_000),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      // The names the API is reached by on this machine: DNS, then IPv4 and IPv6 loopback.
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] }
    ]
  })
  try {
    mkdirSync(join(config.dataDir, 'tls'), { recursive: true, mode: 0o700 })
    replaceFile(files.key, created.private, 0o600)
    replaceFile(files.cert, created.cert, 0o644)
  } catch (err) {
    throw new ConfigError(`DATA_DIR: cannot keep the self-signed certificate in ${join(config.dataDir, 'tls')} (${(err as Error).message})`)
  }
  return {
    key: created.private,
    cert: created.cert,
    fingerprint: new X509Certificate(created.cert).fingerprint256,
    certFile: files.cert,
    origin: 'created'
  }
}

function readPair (
  certFile: string,
  keyFile: string,
  certName: string,
  keyName: string
): { key: string, cert: string, fingerprint: string } {
  const cert = readText(certFile, certName)
  const key = readText(keyFile, keyName)
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(cert)
  } catch {
    throw new ConfigError(`${certName}: ${certFile} is not a PEM certificate`)
  }
  let matches: boolean
  try {
    matches = certificate.checkPrivateKey(createPrivateKey(key))
  } catch {
    throw new ConfigError(`${keyName}: ${keyFile} is not an unencrypted PEM private key`)
  }
  if (!matches) throw new ConfigError(`${keyName}: ${keyFile} is not the private key of ${certFile}`)
  return { key, cert, fingerprint: certificate.fingerprint256 }
}

function readText (file: string, name: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    throw new ConfigError(`${name}: ${file} cannot be read (${(err as Error).message})`)
  }
}

/** Whole or not at all: a reader never sees half a file, and the key is never readable by others. */
function replaceFile (path: string, content: string, mode: number): void {
  const partial = `${path}.${randomBytes(6).toString('hex')}.partial`
  writeFileSync(partial, content, { mode, flag: 'wx' })
  renameSync(partial, path)
}
