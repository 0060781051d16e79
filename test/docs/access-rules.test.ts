import { readFileSync } from 'node:fs'
import t from 'tap'

/*
 * docs/access-rules.md shows a collection with access rules; test/access/keepers.test.ts serves
 * that collection from its fixture and checks every row of the page's table against it. The two
 * must be one text, so that the page shows what the tests run.
 */

const ROOT = new URL('../../', import.meta.url)
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8')

/** The `defineResource` of Keepers in a text: from its export to its closing line. */
function keepersIn (text: string, where: string): string {
  const start = text.indexOf('export const Keepers = defineResource({')
  const end = text.indexOf('\n})\n', start)
  if (start < 0 || end < 0) throw new Error(`${where} defines no Keepers`)
  return text.slice(start, end + 3)
}

t.test('the collection of docs/access-rules.md is the one the access tests serve, to the character', async t => {
  t.equal(keepersIn(read('docs/access-rules.md'), 'docs/access-rules.md'),
    keepersIn(read('test/access/fixture/keepers.ts'), 'test/access/fixture/keepers.ts'))
})
