import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import t from 'tap'
import { loadConfig, privateDirectory } from '../config/index.ts'

t.test('every setting has an embedded default', async t => {
  const config = loadConfig({}, [])
  t.match(config, { host: '127.0.0.1', port: 8443, dataDir: resolve('./data'), apiPrefix: '', logLevel: 'info' })
  t.equal(config.unpackDir, resolve('./data/unpacked'), 'the binary unpacks under the data directory')
  t.equal(loadConfig({ DATA_DIR: '/srv/zoo' }, []).unpackDir, '/srv/zoo/unpacked')
  t.equal(loadConfig({ UNPACK_DIR: 'unpacked-here' }, []).unpackDir, resolve('unpacked-here'))
})

t.test('environment variables set, CLI flags win', async t => {
  const config = loadConfig(
    { HOST: '::1', PORT: '9000', DATA_DIR: '/tmp/zoo', API_PREFIX: '/api', LOG_LEVEL: 'warn' },
    ['--port', '9001', '--api-prefix=/zoo/api']
  )
  t.match(config, { host: '::1', port: 9001, dataDir: '/tmp/zoo', apiPrefix: '/zoo/api', logLevel: 'warn' })
  t.equal(loadConfig({ API_PREFIX: '/' }, []).apiPrefix, '', 'a lone slash is no prefix')
  t.same(
    loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:3000' }, []).corsOrigins,
    ['https://a.example', 'http://localhost:3000']
  )
  t.equal(loadConfig({ CORS_ORIGINS: '*' }, []).corsOrigins, '*')
  t.equal(loadConfig({}, []).trustProxy, 1, 'one proxy in front by default')
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8' }, []).trustProxy, ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8'])
})

t.test('a bad setting stops start-up with one line naming it', async t => {
  const cases: [Record<string, string>, string[], RegExp][] = [
    [{ PORT: 'eighty' }, [], /^PORT must be a port number from 0 to 65535, got "eighty"$/],
    [{ PORT: '70000' }, [], /^PORT must be a port number/],
    [{}, ['--port=-1'], /^--port must be a port number/],
    [{ HOST: '' }, [], /^HOST must be a host name or IP address/],
    [{ API_PREFIX: 'api' }, [], /^API_PREFIX must be empty or a path such as \/api/],
    [{ API_PREFIX: '/api/' }, [], /^API_PREFIX must be empty or a path/],
    [{ DATA_DIR: ' ' }, [], /^DATA_DIR must name a directory$/],
    [{ CORS_ORIGINS: 'https://app.example.com/' }, [], /^CORS_ORIGINS: "https:\/\/app.example.com\/" is not an origin/],
    [{ CORS_ORIGINS: 'app.example.com' }, [], /^CORS_ORIGINS: "app.example.com" is not an origin/],
    [{ RATE_LIMIT: 'many' }, [], /^RATE_LIMIT must be a whole number, got "many"$/],
    [{ REDIS_URL: 'http://u:s3cret@cache:6379' }, [], /^REDIS_URL must be a Redis URL such as redis:\/\/127.0.0.1:6379, got "http:\/\/u:\*\*\*@cache:6379"$/],
    [{ DATABASE_URL: 'postgres://db.example' }, [], /^DATABASE_URL must be a PostgreSQL URL .*, got "postgres:\/\/db.example"$/],
    [{ TRUST_PROXY: '0' }, [], /^TRUST_PROXY must be a number of proxies from 1 to 10, or their addresses; got "0"$/],
    [{ TRUST_PROXY: 'true' }, [], /^TRUST_PROXY: "true" is neither a number of proxies nor an address or network/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, [], /^TRUST_PROXY: "10.0.0.0\/33" is neither/],
    [{ TRUST_PROXY: ' , ' }, [], /^TRUST_PROXY names no proxy$/],
    [{ LOG_LEVEL: 'loud' }, [], /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"$/],
    [{ LOG_FORMAT: 'xml' }, [], /^LOG_FORMAT must be "auto" \(readable on a terminal, JSON otherwise\), "json" or "pretty", got "xml"$/],
    [{ SHUTDOWN_TIMEOUT: '0' }, [], /^SHUTDOWN_TIMEOUT must be a number of seconds from 1 to 600, got "0"$/],
    [{ BODY_LIMIT: '1kb' }, [], /^BODY_LIMIT must be a number of bytes from 1024 to 104857600, got "1kb"$/],
    [{ HTTP2_MAX_STREAMS: '0' }, [], /^HTTP2_MAX_STREAMS must be a number of streams from 1 to 10000, got "0"$/],
    [{ MAX_EVENT_LOOP_DELAY: '-5' }, [], /^MAX_EVENT_LOOP_DELAY must be a number of milliseconds from 0 to 60000/],
    [{ HEADERS_TIMEOUT: '40', REQUEST_TIMEOUT: '30' }, [],
      /^HEADERS_TIMEOUT \(40\) must not exceed REQUEST_TIMEOUT \(30\): the headers are part of the request$/],
    [{}, ['--colour', 'red'], /Unknown option '--colour'/],
    [{}, ['stray'], /Unexpected argument 'stray'/]
  ]
  for (const [env, argv, message] of cases) {
    t.throws(() => loadConfig(env, argv), { name: 'ConfigError', message }, JSON.stringify([env, argv]))
  }
})

t.test('a metrics listener off loopback needs METRICS_TOKEN: without one start-up stops, naming METRICS_HOST', async t => {
  const token = 'metrics-t0ken-0123456789'
  t.throws(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }, []), {
    name: 'ConfigError',
    message: 'METRICS_HOST: 0.0.0.0 is not a loopback address; the metrics would be open to the network without METRICS_TOKEN'
  })
  t.throws(() => loadConfig({ METRICS_PORT: '9464' }, ['--metrics-host', '192.168.1.10']),
    { name: 'ConfigError', message: /^--metrics-host: 192\.168\.1\.10 is not a loopback address/ })
  t.throws(() => loadConfig({ METRICS_TOKEN: 'short' }, []),
    { name: 'ConfigError', message: /^METRICS_TOKEN must be at least 16 characters of letters, digits and - \. _ ~ \+ \/$/ })
  t.match(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: token }, []),
    { metricsHost: '0.0.0.0', metricsToken: token })
  t.match(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '::1' }, []), { metricsHost: '::1', metricsToken: undefined },
    'on loopback the token is optional')
  t.equal(loadConfig({ METRICS_HOST: '0.0.0.0' }, []).metricsHost, '0.0.0.0', 'without METRICS_PORT nothing listens there')
})

t.test('a directory that must be private may be reached through a symbolic link, but UNPACK_DIR, where code is loaded from', async t => {
  const root = t.testdir({ file: 'in the way' })
  const real = join(root, 'real')
  mkdirSync(real, { mode: 0o755 })
  symlinkSync(real, join(root, 'link'))
  privateDirectory(join(root, 'link'), 'DATA_DIR')
  t.equal(statSync(real).mode & 0o777, 0o700, 'the directory it leads to made private')
  t.throws(() => privateDirectory(join(root, 'link'), 'UNPACK_DIR'),
    { name: 'ConfigError', message: `UNPACK_DIR: ${join(root, 'link')} is not a directory (a symbolic link is refused)` })
  t.throws(() => privateDirectory(join(root, 'file', 'data'), 'DATA_DIR'),
    { name: 'ConfigError', message: `DATA_DIR: ${join(root, 'file', 'data')} cannot be created or written (a file is in the way)` })
  writeFileSync(join(root, 'file'), 'still in the way')
  t.throws(() => privateDirectory(join(root, 'file'), 'BACKUP_DIR'), { message: /^BACKUP_DIR: .* \(a file is in the way\)$/ })
})
