import { createPrivateKey, X509Certificate } from 'node:crypto'
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import t from 'tap'
import { ConfigError } from '../../config/index.ts'
import { loadTls, selfSignedFiles } from '../../listeners/tls.ts'
import { testConfig } from '../helper.ts'

const DAY = 86400_000

/** A certificate and key as an operator would configure them, written into `dir`. */
async function operatorPair (dir: string, commonName = 'api.example.test'): Promise<{ cert: string, key: string }> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keyType: 'ec', algorithm: 'sha256' })
  writeFileSync(join(dir, `${commonName}.crt`), pems.cert)
  writeFileSync(join(dir, `${commonName}.key`), pems.private)
  return { cert: join(dir, `${commonName}.crt`), key: join(dir, `${commonName}.key`) }
}

t.test('a fresh data directory gets a self-signed certificate for localhost, 127.0.0.1 and ::1', async t => {
  const config = testConfig(t.testdir())
  const tls = await loadTls(config)
  const files = selfSignedFiles(config.dataDir)
  t.equal(tls.origin, 'created')
  t.equal(tls.certFile, files.cert)
  t.equal(readFileSync(files.cert, 'utf8'), tls.cert)
  t.equal(readFileSync(files.key, 'utf8'), tls.key)
  const cert = new X509Certificate(tls.cert)
  t.equal(cert.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1')
  t.equal(cert.ca, false)
  t.ok(cert.checkPrivateKey(createPrivateKey(tls.key)))
  t.equal(tls.fingerprint, cert.fingerprint256)
  t.match(tls.fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  t.ok(cert.checkHost('localhost'))
  t.ok(cert.checkIP('127.0.0.1'))
  t.ok(cert.checkIP('::1'))
  t.notOk(cert.checkHost('example.com'))
  const days = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / DAY
  t.ok(days >= 364 && days <= 366, `valid for a year (${days} days)`)
  t.equal(statSync(files.key).mode & 0o777, 0o600, 'the key is readable by its owner only')
  t.equal(statSync(join(config.dataDir, 'tls')).mode & 0o777, 0o700)
  t.same(readFileSync(files.key, 'utf8').split('\n')[0], '-----BEGIN PRIVATE KEY-----')
})

t.test('a later start reuses the kept certificate', async t => {
  const config = testConfig(t.testdir())
  const first = await loadTls(config)
  const second = await loadTls(config)
  t.equal(second.origin, 'reused')
  t.equal(second.fingerprint, first.fingerprint)
  t.equal(second.cert, first.cert)
  t.equal(second.key, first.key)
})

t.test('an expired kept certificate is replaced by a new one', async t => {
  const config = testConfig(t.testdir())
  const first = await loadTls(config)
  const later = new Date(Date.now() + 400 * DAY)
  const renewed = await loadTls(config, later)
  t.equal(renewed.origin, 'created')
  t.not(renewed.fingerprint, first.fingerprint)
  t.equal(readFileSync(selfSignedFiles(config.dataDir).cert, 'utf8'), renewed.cert)
  t.ok(Date.parse(new X509Certificate(renewed.cert).validTo) > later.getTime())
  t.equal((await loadTls(config, later)).origin, 'reused')
})

t.test('a lone key or certificate left by an interrupted start is replaced by a new pair', async t => {
  for (const lone of ['cert', 'key'] as const) {
    const config = testConfig(t.testdir())
    const first = await loadTls(config)
    rmSync(selfSignedFiles(config.dataDir)[lone === 'cert' ? 'key' : 'cert'])
    const second = await loadTls(config)
    t.equal(second.origin, 'created', `only ${lone}.pem left`)
    t.not(second.fingerprint, first.fingerprint)
    const kept = selfSignedFiles(config.dataDir)
    t.ok(new X509Certificate(readFileSync(kept.cert)).checkPrivateKey(createPrivateKey(readFileSync(kept.key))))
  }
})

t.test('TLS_CERT and TLS_KEY are used as given, and nothing is made in DATA_DIR', async t => {
  const dir = t.testdir()
  const pair = await operatorPair(dir)
  const config = testConfig(join(dir, 'data'), { TLS_CERT: pair.cert, TLS_KEY: pair.key })
  const tls = await loadTls(config)
  t.equal(tls.origin, 'configured')
  t.equal(tls.certFile, pair.cert)
  t.equal(tls.cert, readFileSync(pair.cert, 'utf8'))
  t.equal(tls.key, readFileSync(pair.key, 'utf8'))
  t.equal(tls.fingerprint, new X509Certificate(tls.cert).fingerprint256)
  t.notOk(existsSync(join(dir, 'data', 'tls')))
})

t.test('a certificate and key that cannot be used stop start-up with one line naming the setting', async t => {
  const dir = t.testdir()
  const pair = await operatorPair(dir)
  const other = await operatorPair(dir, 'other.example.test')
  const notPem = join(dir, 'not.pem')
  writeFileSync(notPem, 'hello\n')
  const cases: [string, { cert: string, key: string }, string][] = [
    ['a certificate that is not PEM', { cert: notPem, key: pair.key }, `TLS_CERT: ${notPem} is not a PEM certificate`],
    ['a key that is not PEM', { cert: pair.cert, key: notPem }, `TLS_KEY: ${notPem} is not an unencrypted PEM private key`],
    ['the key of another certificate', { cert: pair.cert, key: other.key }, `TLS_KEY: ${other.key} is not the private key of ${pair.cert}`]
  ]
  for (const [label, files, message] of cases) {
    await t.rejects(loadTls(testConfig(join(dir, 'data'), { TLS_CERT: files.cert, TLS_KEY: files.key })), new ConfigError(message), label)
  }
  const gone = join(dir, 'gone.pem')
  await t.rejects(
    loadTls({ dataDir: dir, tlsCert: gone, tlsKey: pair.key }),
    { name: 'ConfigError', message: new RegExp(`^TLS_CERT: ${gone} cannot be read \\(ENOENT`) },
    'a file removed after the configuration was read'
  )
})

t.test('a damaged kept certificate stops start-up rather than being replaced behind the operator', async t => {
  const config = testConfig(t.testdir())
  await loadTls(config)
  const files = selfSignedFiles(config.dataDir)
  writeFileSync(files.cert, 'damaged\n')
  await t.rejects(loadTls(config), new ConfigError(`DATA_DIR: ${files.cert} is not a PEM certificate`))
})

t.test('a DATA_DIR where the certificate cannot be kept stops start-up naming it', async t => {
  const dir = t.testdir({ file: 'not a directory' })
  await t.rejects(loadTls({ dataDir: join(dir, 'file'), tlsCert: undefined, tlsKey: undefined }), {
    name: 'ConfigError',
    message: new RegExp(`^DATA_DIR: cannot keep the self-signed certificate in ${join(dir, 'file', 'tls')} \\(ENOTDIR`)
  })
})
