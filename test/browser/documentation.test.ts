import { createServer } from 'node:net'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { buildApi } from '../../app.ts'
import { loadTls } from '../../listeners/tls.ts'
import { buildLocalServer } from '../../local/app.ts'
import { BOOTSTRAP, testConfig } from '../helper.ts'
import { portOf } from '../local/helper.ts'
import { browserMissing, launchBrowser, watchedPage, type Watched } from './helper.ts'

/*
 * What a new user does first, in a real browser: the documentation page, Authorize with the
 * bootstrap client (a wrong secret first), "Try it out" for a list, a create and a read; the root
 * and /login as pages; the local tool server's document and root.
 */

const skip = browserMissing()

// Three Chromium sessions on two cores, beside other test files.
t.setTimeout(300_000)

/** A port free now, for an API whose PUBLIC_URL (the document's server and token URL) must name it before it listens. */
async function freePort (): Promise<number> {
  const probe = createServer()
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise(resolve => probe.close(resolve))
  return port
}

interface Servers { api: string, local: string }

/**
 * The API over HTTPS as server.ts serves it, and the local tool server, on loopback; closed at
 * teardown. Another process may take the free port before the API listens on it: then another.
 */
async function serve (t: Test): Promise<Servers> {
  const dir = t.testdir()
  const local = buildLocalServer(testConfig(dir, { ALLOWED_DIRS: dir }))
  t.teardown(() => local.close())
  await local.listen({ host: '127.0.0.1', port: 0 })
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const config = testConfig(dir, { PUBLIC_URL: `https://localhost:${port}` })
    const api = buildApi(config, { tls: await loadTls(config) })
    try {
      await api.listen({ host: '127.0.0.1', port })
    } catch (err) {
      await api.close()
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue
      throw err
    }
    t.teardown(() => api.close())
    return { api: `https://localhost:${port}`, local: `http://127.0.0.1:${portOf(local as FastifyInstance)}` }
  }
}

/** The servers, and a watched page of a browser of its own, for one test. */
async function session (t: Test): Promise<Watched & { servers: Servers }> {
  const servers = await serve(t)
  const browser = await launchBrowser(t)
  return { ...await watchedPage(t, browser), servers }
}

/** Nothing a person would see as broken. */
function clean (t: Test, watched: Watched, what: string, expectedErrors: RegExp[] = []): void {
  t.same(watched.consoleErrors.filter(error => !expectedErrors.some(expected => expected.test(error))), [], `${what}: no console error`)
  t.same(watched.violations, [], `${what}: no Content Security Policy violation`)
  t.same(watched.dialogs, [], `${what}: no dialog`)
}

/** Expands an operation of the documentation, presses "Try it out", fills `fill`, executes, and returns the status and body shown. */
async function tryItOut (
  page: Watched['page'],
  operation: string,
  fill: (block: ReturnType<Watched['page']['locator']>) => Promise<void> = async () => {}
): Promise<{ status: number, body: unknown }> {
  const block = page.locator(`#operations-zoos-${operation}`)
  await block.locator('.opblock-summary').first().click()
  await block.locator('button.try-out__btn').click()
  await fill(block)
  await block.locator('button.execute').click()
  const row = block.locator('.live-responses-table .response').first()
  await row.waitFor()
  const status = Number((await row.locator('.response-col_status').innerText()).trim())
  const body = JSON.parse(await row.locator('.response-col_description .microlight, .response-col_description pre').first().innerText())
  return { status, body }
}

t.test('the documentation page, as a new user meets it', { skip, saveFixture: true }, async t => {
  const watched = await session(t)
  const { page, servers } = watched
  await page.goto(`${servers.api}/documentation`)
  await page.locator('.opblock').first().waitFor()
  t.ok(await page.locator('.opblock').count() > 40, 'every operation is listed')
  clean(t, watched, 'loading the page')

  await page.locator('.scheme-container button.authorize').click()
  const dialog = page.locator('.dialog-ux .modal-ux-content')
  await dialog.waitFor()
  const blocks = dialog.locator('.auth-container')
  // Swagger UI writes two spaces before the kind of an http scheme.
  t.same((await blocks.locator('h4').allInnerTexts()).map(title => title.replace(/\s+/g, ' ')),
    ['clientCredentials (OAuth2, clientCredentials)', 'password (OAuth2, password)', 'clientSecretBasic (http, Basic)'],
    'a block per grant, client credentials first, then the client\'s own for the token endpoint')
  t.equal(await page.evaluate('document.activeElement?.id'), 'client_id_clientCredentials', 'the cursor in the client id')
  t.equal(await dialog.evaluate(element => element.scrollTop), 0, 'the box opens at its top')

  const clientCredentials = blocks.nth(0)
  const password = blocks.nth(1)
  await page.fill('#client_id_clientCredentials', BOOTSTRAP.id)
  await page.fill('#client_secret_clientCredentials', 'a wrong secret')
  const refused = page.waitForResponse(response => response.url().endsWith('/oauth/token'))
  await clientCredentials.locator('button.authorize').click()
  const answer = await refused
  t.equal(answer.status(), 401, 'the wrong secret is refused, and the answer reaches the page: no dialog, no hang')
  t.equal(answer.headers()['www-authenticate'], undefined, 'no Basic challenge to the page\'s script')
  await clientCredentials.locator('.errors').waitFor()
  t.match(await clientCredentials.locator('.errors').innerText(), /401.*invalid_client.*wrong client secret/s, 'said in its block')
  t.equal(await password.locator('.errors').count(), 0, 'and only there')
  clean(t, watched, 'a wrong secret', [/status of 401/])

  await page.fill('#client_secret_clientCredentials', BOOTSTRAP.secret)
  await clientCredentials.locator('button.authorize').click()
  await clientCredentials.locator('button', { hasText: 'Logout' }).waitFor()
  t.equal(await password.locator('button', { hasText: 'Logout' }).count(), 0, 'the password block is not authorized by the other grant')
  await dialog.locator('button.btn-done').first().click()

  const empty = await tryItOut(page, 'listZoos')
  t.same(empty, { status: 200, body: [] }, 'Try it out: the list, empty')
  const created = await tryItOut(page, 'createZoo', async block => {
    await block.locator('textarea.body-param__text').fill(JSON.stringify({ name: 'Berlin Zoo', city: 'Berlin', country: 'DE' }))
  })
  t.match(created, { status: 201, body: { id: Number, name: 'Berlin Zoo', city: 'Berlin' } }, 'a create')
  const id = String((created.body as { id: number }).id)
  const read = await tryItOut(page, 'getZoo', async block => { await block.locator('tr[data-param-name="id"] input').fill(id) })
  t.same(read, { status: 200, body: created.body }, 'a read of the record created')
  clean(t, watched, 'trying it out', [/status of 401/])
})

t.test('the root and /login, opened in a browser, are pages saying where to go', { skip, saveFixture: true }, async t => {
  const watched = await session(t)
  const { page, servers } = watched
  for (const path of ['/', '/login']) {
    const answer = await page.goto(`${servers.api}${path}`)
    t.equal(answer?.status(), 200, path)
    t.match(answer?.headers()['content-type'], /^text\/html/, `${path}: HTML`)
    t.match(await page.locator('h1').innerText(), /^Zoo API/, `${path}: says what this is`)
    t.equal(await page.locator('a', { hasText: 'Interactive documentation' }).getAttribute('href'), `${servers.api}/documentation`)
  }
  t.match(await page.locator('main p').innerText(), /no sign-in through an external provider/, '/login says there is none here')
  await page.locator('a', { hasText: 'Interactive documentation' }).click()
  await page.locator('.opblock').first().waitFor()
  t.pass('the link opens the documentation')
  clean(t, watched, 'the pages')
})

t.test('the local tool server\'s document and root, in a browser', { skip, saveFixture: true }, async t => {
  const watched = await session(t)
  const { page, servers } = watched
  for (const path of ['/openapi.json', '/']) {
    const answer = await page.goto(`${servers.local}${path}`)
    t.equal(answer?.status(), 200, path)
    t.ok(JSON.parse(await answer?.text() ?? ''), `${path}: JSON`)
  }
  clean(t, watched, 'the local tool server')
})
