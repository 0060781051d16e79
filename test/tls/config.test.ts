import t from 'tap'
import { ConfigError, loadConfig } from '../../config/index.ts'

t.test('TLS settings that cannot work together stop start-up with one line', async t => {
  const dir = t.testdir({ 'cert.pem': 'c', 'key.pem': 'k' })
  const cases: [string, Record<string, string>, string[], string][] = [
    ['a certificate behind a proxy', { TLS: 'proxy', TLS_CERT: `${dir}/cert.pem`, TLS_KEY: `${dir}/key.pem` }, [],
      'TLS_CERT is not used with TLS=proxy: the TLS-terminating proxy holds the certificate and redirects http:// itself'],
    ['a redirect listener behind a proxy', { TLS: 'proxy', HTTP_REDIRECT_PORT: '8080' }, [],
      'HTTP_REDIRECT_PORT is not used with TLS=proxy: the TLS-terminating proxy holds the certificate and redirects http:// itself'],
    ['named by their flags', {}, ['--tls', 'proxy', '--http-redirect-port', '8080'],
      '--http-redirect-port is not used with --tls=proxy: the TLS-terminating proxy holds the certificate and redirects http:// itself'],
    ['the redirect listener on the API port', { PORT: '8443', HTTP_REDIRECT_PORT: '8443' }, [],
      'HTTP_REDIRECT_PORT must differ from PORT (8443): the redirect listener is plain HTTP'],
    ['the API port as the default', { HTTP_REDIRECT_PORT: '8443' }, [],
      'HTTP_REDIRECT_PORT must differ from PORT (8443): the redirect listener is plain HTTP'],
    ['a certificate without its key', { TLS_CERT: `${dir}/cert.pem` }, [], 'TLS_CERT, TLS_KEY go together: TLS_KEY missing'],
    ['an unknown mode', { TLS: 'off' }, [],
      'TLS must be "on" (HTTPS, the default) or "proxy" (plain HTTP behind a TLS-terminating proxy), got "off"']
  ]
  for (const [label, env, argv, message] of cases) {
    t.throws(() => loadConfig(env, argv), new ConfigError(message), label)
  }
})

t.test('TLS settings that work', async t => {
  t.match(loadConfig({}, []), {
    tls: 'on',
    tlsCert: undefined,
    tlsKey: undefined,
    httpRedirectPort: undefined,
    publicUrl: 'https://localhost:8443'
  })
  t.match(loadConfig({ HTTP_REDIRECT_PORT: '8080' }, []), { tls: 'on', httpRedirectPort: 8080 })
  t.match(loadConfig({ PORT: '0', HTTP_REDIRECT_PORT: '0' }, []), { port: 0, httpRedirectPort: 0 }, 'two free ports, chosen at start')
  t.match(loadConfig({ TLS: 'proxy', PUBLIC_URL: 'https://api.example.test' }, []), { tls: 'proxy', publicUrl: 'https://api.example.test' })
  t.match(loadConfig({ PORT: '443' }, []), { publicUrl: 'https://localhost' })
})
