import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import type { Test } from 'tap'

/*
 * A real browser for the tests of what people see: Debian's Chromium, driven by playwright-core
 * (which downloads no browser of its own). CI requires it (ZOO_REQUIRE_BROWSER=1, .ci/run
 * installs the package); elsewhere, without Chromium, the tests are skipped with a message.
 */

export const CHROMIUM = process.env.ZOO_CHROMIUM ?? '/usr/bin/chromium'

/** Why the browser tests cannot run here, or false when they can; with ZOO_REQUIRE_BROWSER=1 a missing browser fails instead. */
export function browserMissing (): string | false {
  if (existsSync(CHROMIUM)) return false
  const said = `no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or name it in ZOO_CHROMIUM`
  if (process.env.ZOO_REQUIRE_BROWSER === '1') throw new Error(`${said}; ZOO_REQUIRE_BROWSER=1 requires the browser tests`)
  return said
}

/**
 * Chromium, headless, closed at teardown. The flags keep it off the network it would otherwise
 * reach for at start (updates, sync, field trials), which this machine refuses.
 */
export async function launchBrowser (t: Test): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-default-apps']
  })
  t.teardown(() => browser.close())
  return browser
}

/** What a page did that a person would see as broken: console errors, policy violations, native dialogs. */
export interface Watched {
  page: Page
  consoleErrors: string[]
  violations: string[]
  dialogs: string[]
}

/**
 * A new page that records its console errors, its Content Security Policy violations and any
 * native dialog (dismissed at once, so the test does not hang). When the test fails, a screenshot
 * of the page is kept in the test's folder, and its path said; when it passes, the folder goes.
 * The test must be made with `{ saveFixture: true }`.
 */
export async function watchedPage (t: Test, browser: Browser): Promise<Watched> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  const watched: Watched = { page, consoleErrors: [], violations: [], dialogs: [] }
  page.on('console', message => { if (message.type() === 'error') watched.consoleErrors.push(message.text()) })
  page.on('dialog', dialog => {
    watched.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    dialog.dismiss().catch(() => {})
  })
  await page.exposeFunction('reportViolation', (text: string) => { watched.violations.push(text) })
  // Run in the page, before its own scripts: the policy's refusals, as the page sees them.
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', event => window.reportViolation(
      event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' (' + event.sourceFile + ':' + event.lineNumber + ')'))`
  })
  const dir = t.testdir()
  t.teardown(async () => {
    if (t.passing()) {
      rmSync(dir, { recursive: true, force: true })
      return
    }
    const screenshot = join(dir, 'failure.png')
    await page.screenshot({ path: screenshot, fullPage: false }).catch(() => {})
    t.comment(`screenshot of the page when the test failed: ${screenshot}`)
  })
  return watched
}
