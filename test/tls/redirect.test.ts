import t, { type Test } from 'tap'
import { hostNameOf } from '../../http/host.ts'
import { buildRedirectListener } from '../../listeners/redirect.ts'
import { testConfig } from '../helper.ts'
import { portOf, send, sendRaw } from '../local/helper.ts'

async function listening (t: Test, httpsPort = 8443) {
  const app = buildRedirectListener({ settings: testConfig(t.testdir()), httpsPort, fallbackHost: 'fallback.example.test' })
  t.teardown(() => app.close())
  await app.listen({ host: '127.0.0.1', port: 0 })
  return portOf(app)
}

t.test('every method on every path is answered 308 to the same path and query over https, with nothing else', async t => {
  const port = await listening(t)
  const cases: [string, string, Record<string, string>, string?][] = [
    ['GET', '/v1/zoos?limit=5&sortby=name', {}],
    ['GET', '/', {}],
    ['HEAD', '/v1', {}],
    ['POST', '/v1/zoos', { 'content-type': 'application/json' }, '{"name":"Berlin Zoo","city":"Berlin"}'],
    ['POST', '/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials'],
    ['PUT', '/v1/zoos/1', { 'content-type': 'text/xml' }, '<zoo/>'],
    ['PATCH', '/v1/zoos/1', { 'content-type': 'application/json' }, '{not json'],
    ['DELETE', '/v1/zoos/1', {}],
    ['OPTIONS', '/v1/zoos', { origin: 'https://app.example.test', 'access-control-request-method': 'POST' }],
    ['GET', '/no/such/path/', {}],
    ['GET', '/openapi.json', {}],
    ['GET', '/a%20b/%E2%82%AC?q=%C3%A9&r', {}],
    ['GET', '//double/slash', {}]
  ]
  for (const [method, path, headers, body] of cases) {
    const res = await send(port, {
      method,
      path,
      headers: { host: `localhost:${port}`, ...headers },
      ...(body === undefined ? {} : { body })
    })
    t.equal(res.status, 308, `${method} ${path}`)
    t.equal(res.headers.location, `https://localhost:8443${path}`, `${method} ${path}`)
    t.equal(res.text, '', `${method} ${path}: no body`)
    if (method !== 'HEAD') t.equal(res.headers['content-length'], '0', `${method} ${path}`)
    t.equal(res.headers['content-type'], undefined, `${method} ${path}`)
    t.equal(res.headers['access-control-allow-origin'], undefined, `${method} ${path}`)
  }
})

t.test('the Location names the host the client asked for, and port 443 is left out', async t => {
  const port = await listening(t)
  const hosts: [string, string][] = [
    [`127.0.0.1:${port}`, '127.0.0.1'],
    [`[::1]:${port}`, '[::1]'],
    ['API.Example.Test', 'api.example.test'],
    ['api.example.test.:80', 'api.example.test.']
  ]
  for (const [host, name] of hosts) {
    const res = await send(port, { method: 'GET', path: '/v1?x=1', headers: { host } })
    t.equal(res.headers.location, `https://${name}:8443/v1?x=1`, `Host: ${host}`)
  }
  const standard = await listening(t, 443)
  const res = await send(standard, { method: 'GET', path: '/v1', headers: { host: `localhost:${standard}` } })
  t.equal(res.headers.location, 'https://localhost/v1')
})

t.test('a Host that names no usable host is replaced by the configured one, never echoed', async t => {
  const port = await listening(t)
  const unusable = [
    'evil.example/x', 'user@evil.example', 'evil.example:80:80', '[::1', '[not:an:ip]', '[:::1]', '[1:2:3]',
    'a_b.example', '-bad.example', 'ex ample'
  ]
  for (const host of unusable) {
    const res = await send(port, { method: 'GET', path: '/v1', headers: { host } })
    t.equal(res.status, 308, `Host: ${host}`)
    t.equal(res.headers.location, 'https://fallback.example.test:8443/v1', `Host: ${host}`)
  }
  t.equal((await sendRaw(port, 'GET /v1 HTTP/1.0\r\n\r\n')).status, 308, 'HTTP/1.0 without Host')
  t.equal((await sendRaw(port, 'GET /v1 HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n')).status, 308, 'an empty Host')
})

t.test('request targets that are not a plain path: absolute form, asterisk, bad percent-encoding', async t => {
  const port = await listening(t)
  const targets: [string, string, string][] = [
    ['GET', 'http://elsewhere.example/v1/zoos?a=1', '/v1/zoos?a=1'],
    ['OPTIONS', '*', '/'],
    ['GET', '/v1/%E0%A4%A', '/v1/%E0%A4%A']
  ]
  for (const [method, target, path] of targets) {
    const res = await send(port, { method, path: target, headers: { host: `localhost:${port}` } })
    t.equal(res.status, 308, `${method} ${target}`)
    t.equal(res.headers.location, `https://localhost:8443${path}`, `${method} ${target}: on the host of the Host header`)
  }
})

t.test('hostNameOf accepts DNS names and IP addresses only', async t => {
  t.equal(hostNameOf('localhost:8080'), 'localhost')
  t.equal(hostNameOf('[2001:db8::1]:8080'), '[2001:db8::1]')
  t.equal(hostNameOf('10.0.0.1'), '10.0.0.1')
  t.equal(hostNameOf(undefined), undefined)
  t.equal(hostNameOf(`${'a'.repeat(63)}.example`), `${'a'.repeat(63)}.example`)
  t.equal(hostNameOf(`${'a'.repeat(64)}.example`), undefined, 'a label of more than 63 characters')
  t.equal(hostNameOf(Array(64).fill('abcd').join('.')), undefined, 'a name of more than 255 characters')
})
