import { closeSync, mkdirSync, openSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { buildLocal, makeTree, post } from './helper.ts'

const COUNT = 100_000
/** Where UTF-16 order and code point order part ways, and where normalization forms differ. */
const UNUSUAL = ['\uFF5E tilde', '\u{1F600} grin', '\uE000 private', 'caf\u00e9', 'cafe\u0301', 'Zebra', '\u{10FFFF}']

t.test('a directory of 100,000 entries, page by page: every entry exactly once, in code point order', async t => {
  const root = makeTree(t, {})
  const dir = join(root, 'big')
  mkdirSync(dir)
  const names = [...UNUSUAL]
  for (let i = names.length; i < COUNT; i++) names.push(`entry-${i.toString(36)}`)
  for (const name of names) closeSync(openSync(join(dir, name), 'w'))
  // Settled, as a directory being browsed is: a directory changed in the last seconds is re-read per page.
  const anHourAgo = new Date(Date.now() - 3_600_000)
  utimesSync(dir, anHourAgo, anHourAgo)
  const expected = names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  const app = await buildLocal(t, { ALLOWED_DIRS: dir })

  for (const limit of [10_000, 1_000]) {
    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const res = await post(app, '/list_directory', { path: dir, limit, ...(cursor === undefined ? {} : { cursor }) })
      t.equal(res.statusCode, 200)
      const page = res.json() as { entries: { name: string, type: string }[], next_cursor: string | null }
      pages++
      if (page.entries.length !== limit && page.next_cursor !== null) t.fail(`page ${pages} has ${page.entries.length} entries`)
      for (const entry of page.entries) seen.push(entry.name)
      cursor = page.next_cursor ?? undefined
    } while (cursor !== undefined)
    t.equal(pages, COUNT / limit, `limit ${limit}: pages`)
    t.equal(seen.length, COUNT, `limit ${limit}: entries`)
    t.equal(seen.findIndex((name, i) => name !== expected[i]), -1, `limit ${limit}: every name once, in order`)
  }
})
