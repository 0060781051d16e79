import { createHash } from 'node:crypto'
import t from 'tap'
import { buildLocalServer } from '../../local/app.ts'
import { build, testConfig } from '../helper.ts'

/** What Chromium sends when a person opens a URL. */
const NAVIGATION = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate'
}

/** The pages' style sheet, as the page carries it, and the digest the policy must name for it. */
function styleDigest (html: string): string {
  const style = /<style>(.*)<\/style>/.exec(html)?.[1] ?? ''
  return `'sha256-${createHash('sha256').update(style).digest('base64')}'`
}

t.test('/ opened in a browser is a page saying what this is and where to go; programs keep the JSON', async t => {
  for (const prefix of ['', '/api']) {
    const app = await build(t, prefix === '' ? {} : { API_PREFIX: prefix })
    const page = await app.inject({ method: 'GET', url: `${prefix}/`, headers: { ...NAVIGATION, host: 'zoo.test' } })
    t.equal(page.statusCode, 200)
    t.equal(page.headers['content-type'], 'text/html; charset=utf-8')
    t.equal(page.headers.vary, 'Origin, Accept, Sec-Fetch-Dest', 'what decides the answer, for caches (CORS adds Origin)')
    t.equal(page.headers['content-security-policy'],
      `default-src 'none'; style-src ${styleDigest(page.body)}; img-src 'self'; ` +
      "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'nothing loads or runs but its own style sheet and icon')
    t.match(page.body, `<link rel="icon" href="${prefix}/favicon.ico" type="image/svg+xml">`)
    t.match(page.body, /^<!DOCTYPE html>/)
    t.match(page.body, '<title>Zoo API</title>')
    t.match(page.body, `<a href="http://zoo.test${prefix}/documentation">Interactive documentation</a>`)
    t.match(page.body, `<a href="http://zoo.test${prefix}/documentation/json">The OpenAPI 3.1 document</a>`)
    t.match(page.body, `POST http://zoo.test${prefix}/oauth/token`)
    t.match(page.body, `http://zoo.test${prefix}/v1/zoos, http://zoo.test${prefix}/v1/animals, http://zoo.test${prefix}/v1/employees`)
    t.notMatch(page.body, 'Sign in with', 'no sign-in link without a provider')
    const head = await app.inject({ method: 'HEAD', url: `${prefix}/`, headers: NAVIGATION })
    t.same([head.statusCode, head.headers['content-type'], head.body], [200, 'text/html; charset=utf-8', ''])

    // Programs: whatever they accept, they do not navigate.
    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }, { ...NAVIGATION, accept: '*/*' },
      { ...NAVIGATION, accept: 'text/html;q=0.5, application/json' }]) {
      const json = await app.inject({ method: 'GET', url: `${prefix}/`, headers })
      t.equal(json.statusCode, 200, JSON.stringify(headers))
      t.match(json.headers['content-type'], /^application\/json/)
      t.match(json.json(), { link: { rel: 'v1' } })
      t.equal(json.headers.vary, 'Origin, Accept, Sec-Fetch-Dest')
    }
    const htmlOnly = await app.inject({ method: 'GET', url: `${prefix}/`, headers: { accept: 'text/html' } })
    t.equal(htmlOnly.statusCode, 406, 'text/html alone, not from a navigation: no page, as before')
    const imageOnly = await app.inject({ method: 'GET', url: `${prefix}/`, headers: { ...NAVIGATION, accept: 'image/png' } })
    t.same([imageOnly.statusCode, imageOnly.json()],
      [406, { error: 'This API answers only application/json or text/html; Accept was "image/png"' }])
  }
})

t.test('/login opened in a browser is a page saying there is no sign-in here; programs keep the 404', async t => {
  const app = await build(t)
  const page = await app.inject({ method: 'GET', url: '/login', headers: { ...NAVIGATION, host: 'zoo.test' } })
  t.equal(page.statusCode, 200)
  t.equal(page.headers['content-type'], 'text/html; charset=utf-8')
  t.match(page.body, '<title>Zoo API: sign-in</title>')
  t.match(page.body, 'This server offers no sign-in through an external provider')
  t.match(page.body, '<a href="http://zoo.test/documentation">Interactive documentation</a>')
  t.match(page.headers['content-security-policy'], /^default-src 'none'; style-src 'sha256-/)
  for (const [method, headers] of [['GET', {}], ['GET', { accept: 'application/json' }], ['POST', NAVIGATION]] as const) {
    const json = await app.inject({ method, url: '/login', headers })
    t.equal(json.statusCode, 404, `${method} ${JSON.stringify(headers)}`)
    t.same(json.json(), { error: 'Nothing at /login' })
  }
  const htmlOnly = await app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } })
  t.same([htmlOnly.statusCode, htmlOnly.json()], [406, { error: 'This API answers only application/json; Accept was "text/html"' }],
    'text/html alone, not from a navigation: as before')
})

t.test('/favicon.ico: the icon browsers ask for beside every page, on the API and the local tool server', async t => {
  const api = await build(t)
  const local = buildLocalServer(testConfig(t.testdir()))
  t.teardown(() => local.close())
  for (const [name, app] of [['API', api], ['local tool server', local]] as const) {
    const headers = { host: 'localhost', accept: 'image/avif,image/*,*/*;q=0.8' }
    const icon = await app.inject({ method: 'GET', url: '/favicon.ico', headers })
    t.equal(icon.statusCode, 200, name)
    t.equal(icon.headers['content-type'], 'image/svg+xml', name)
    t.equal(icon.headers['cache-control'], 'public, max-age=86400', name)
    t.match(icon.body, /^<svg .*<\/svg>$/, name)
  }
  t.notOk('/favicon.ico' in (await api.inject({ method: 'GET', url: '/documentation/json' })).json().paths, 'not an operation of the API')
  for (const app of [api, local]) {
    const post = await app.inject({ method: 'POST', url: '/favicon.ico', headers: { host: 'localhost' } })
    t.same([post.statusCode, post.headers.allow], [405, 'GET, HEAD'], 'GET only')
  }
})
