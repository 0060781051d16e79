import { delimiter } from 'node:path'
import t from 'tap'
import { allowedOf, bodyOf, cases, expand, layout } from './escapes.ts'
import { buildLocal, makeTree, post } from './helper.ts'

t.test('list_directory refuses every escape and malformed request, and lists what is allowed', async t => {
  const root = makeTree(t, layout)
  const app = await buildLocal(t, { ALLOWED_DIRS: allowedOf(root).join(delimiter) })

  t.ok(cases.length >= 90, `${cases.length} cases`)
  for (const c of cases) {
    const res =
      c.raw !== undefined
        ? await app.inject({
          method: 'POST',
          url: '/list_directory',
          headers: c.raw.headers,
          ...(c.raw.payload === undefined ? {} : { payload: c.raw.payload })
        })
        : await post(app, '/list_directory', bodyOf(root, c))
    t.equal(res.statusCode, c.status, `${c.name}: status`)
    t.match(res.headers['content-type'], /^application\/json/, `${c.name}: JSON`)
    const body = res.json()
    if (c.status === 200) {
      t.equal(body.path, expand(root, c.answeredPath ?? c.path), `${c.name}: path answered`)
      t.same(
        body.entries.map((e: { name: string }) => e.name),
        c.names,
        `${c.name}: entries`
      )
      t.equal(body.next_cursor, null, `${c.name}: one page`)
    } else {
      t.same(body, { error: c.error }, `${c.name}: body`)
      t.notOk(res.body.includes(root), `${c.name}: no path of the tree in the error`)
    }
  }
})

t.test('symbolic links are listed as such, with their own data, and never followed', async t => {
  const root = makeTree(t, layout)
  const app = await buildLocal(t, { ALLOWED_DIRS: `${root}/data/allowed` })
  const res = await post(app, '/list_directory', { path: `${root}/data/allowed` })
  t.equal(res.statusCode, 200)
  const byName = new Map(res.json().entries.map((e: { name: string }) => [e.name, e]))
  t.match(byName.get('link-out-dir'), { type: 'symlink', size: null })
  t.match(byName.get('link-out-file'), { type: 'symlink', size: null })
  t.match(byName.get('loop1'), { type: 'symlink', size: null })
  t.match(byName.get('file.txt'), { type: 'file', size: 5 })
  t.match(byName.get('sub'), { type: 'directory', size: null })
  for (const entry of byName.values()) t.match(entry, { modified: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/ })
})
