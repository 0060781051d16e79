import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { build, call, create, ENGINE, query, withStorage } from '../../helper.ts'

/*
 * Full-text search (`q=`) through inject() on the engine of the pass: every word of q begins a
 * word of a text field, whatever the case and diacritics; with every other list parameter; kept
 * in step by every write; made at start-up for records written without it.
 */

const names = (res: { json: () => { name: string }[] }): string[] => res.json().map(r => r.name)

async function zoos (app: FastifyInstance): Promise<void> {
  const res = await call(app, 'POST', '/v1/zoos', [
    { name: 'Zoo Zürich', city: 'Zürich', country: 'CH' },
    { name: 'Berlin Zoo', city: 'Berlin', country: 'DE' },
    { name: 'Tierpark Berlin', city: 'Berlin-Friedrichsfelde', country: 'DE', opened_on: '1955-07-02' },
    { name: 'ZOO ZURICH NORTH', city: 'Zurich', country: 'CH' },
    { name: 'Wilhelma', city: 'Stuttgart', country: 'DE' },
    { name: 'Café Zoo', city: 'Paris', country: 'FR' },
    { name: '東京動物園', city: '東京', country: 'JP' },
    { name: 'R2D2 Zoo', city: 'Tatooine' }
  ])
  if (res.statusCode !== 201) throw new Error(res.body)
}

t.test('every word of q begins a word of a text field, without regard to case or diacritics', async t => {
  const app = await build(t)
  await zoos(app)
  const search = async (q: string, more = '') => names(await call(app, 'GET', `/v1/zoos?q=${encodeURIComponent(q)}${more}`))
  t.same(await search('zurich'), ['Zoo Zürich', 'ZOO ZURICH NORTH'], 'zurich finds Zürich')
  t.same(await search('ZÜR'), ['Zoo Zürich', 'ZOO ZURICH NORTH'], 'a prefix, in any case, with its diacritics')
  t.same(await search('berlin zoo'), ['Berlin Zoo'], 'every word')
  t.same(await search('zoo berlin'), ['Berlin Zoo'], 'in any order')
  t.same(await search('berl'), ['Berlin Zoo', 'Tierpark Berlin'], 'name or city')
  t.same(await search('friedrichsfelde'), ['Tierpark Berlin'], 'a hyphen ends a word')
  t.same(await search('erlin'), [], 'a word must begin the word')
  t.same(await search('cafe'), ['Café Zoo'])
  t.same(await search('東京'), ['東京動物園'])
  t.same(await search('r2d'), ['R2D2 Zoo'], 'letters and digits make one word')
  t.same(await search('zoo, berlin!'), ['Berlin Zoo'], 'what is no letter or digit separates words')
  t.same(await search('de'), [], 'the country, an enum, is no text field')
  t.same(await search('zoo zoo'), ['Zoo Zürich', 'Berlin Zoo', 'ZOO ZURICH NORTH', 'Café Zoo', 'R2D2 Zoo'], 'a word twice is once')
  const employees = await call(app, 'POST', '/v1/employees', [
    { name: 'Ann Smith', role: 'keeper', email: 'ann.smith@zoo.example' },
    { name: 'Bob', role: 'Tierärztin', email: 'bob@vet.example' }
  ])
  t.equal(employees.statusCode, 201)
  t.same(names(await call(app, 'GET', '/v1/employees?q=vet')), ['Bob'], 'the e-mail is text: its words count')
  t.same(names(await call(app, 'GET', '/v1/employees?q=tierarzt')), ['Bob'])
})

t.test('q goes with filters, sorts, both paginations, cursors, X-Total-Count and Link', async t => {
  const app = await build(t)
  await zoos(app)
  const desc = await call(app, 'GET', '/v1/zoos?q=zoo&country_ne=FR&sortby=name&order=desc&limit=2')
  t.same(names(desc), ['Zoo Zürich', 'ZOO ZURICH NORTH'], 'in code-point order')
  t.equal(desc.headers['x-total-count'], '4')
  const link = String(desc.headers.link)
  t.match(link, /q=zoo/)
  t.match(link, /rel="last"/)
  const next = new URL(/<([^>]+)>; rel="next"/.exec(link)?.[1] ?? 'http://localhost/none')
  const second = await call(app, 'GET', `${next.pathname}${next.search}`)
  t.same(names(second), ['R2D2 Zoo', 'Berlin Zoo'], 'the cursor keeps q')
  t.equal(second.headers['x-total-count'], '4')
  const paged = await call(app, 'GET', '/v1/zoos?q=zoo&page=2&per_page=2&sortby=city')
  t.same(names(paged), ['R2D2 Zoo', 'ZOO ZURICH NORTH'], 'Berlin, Paris | Tatooine, Zurich | Zürich')
  t.equal(paged.headers['x-total-count'], '5')
  const nested = await create(app, 'zoos', { name: 'Home', city: 'X' })
  await call(app, 'POST', `/v1/zoos/${nested.id}/animals`, [
    { name: 'Leo', species: 'Panthera leo', animal_type_id: 1 },
    { name: 'Léa', species: 'Panthera pardus', animal_type_id: 1 },
    { name: 'Ursula', species: 'Ursus arctos', animal_type_id: 2 }
  ])
  const animals = await call(app, 'GET', `/v1/zoos/${nested.id}/animals?q=panthera+le&animal_type_id=1&fields=name`)
  t.same(animals.json(), [{ id: 1, name: 'Leo' }, { id: 2, name: 'Léa' }])
  t.equal(animals.headers['x-total-count'], '2')
})

t.test('an empty q, one without a word, or one of too many words is 400', async t => {
  const app = await build(t)
  for (const [q, error] of [
    ['', /q/],
    ['!!! ---', /q holds no word to search for/],
    [Array.from({ length: 11 }, (_, i) => `w${i}`).join(' '), /at most 10/],
    ['x'.repeat(201), /q/]
  ] as const) {
    const res = await call(app, 'GET', `/v1/zoos?q=${encodeURIComponent(q)}`)
    t.equal(res.statusCode, 400, q)
    t.match(res.json().error, error, q)
  }
  t.equal((await call(app, 'GET', '/v1/zoos?q=a&q=b')).statusCode, 400, 'q twice')
})

t.test('every write keeps the search words in step, and a refused one changes none', async t => {
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: 'Old Name', city: 'Somewhere' })
  const count = async (q: string) => Number((await call(app, 'GET', `/v1/zoos?q=${q}`)).headers['x-total-count'])
  t.equal(await count('old'), 1)
  t.equal((await call(app, 'PATCH', `/v1/zoos/${zoo.id}`, { name: 'New Name' })).statusCode, 201)
  t.same([await count('old'), await count('new'), await count('somewhere')], [0, 1, 1], 'PATCH: the other fields keep their words')
  t.equal((await call(app, 'PUT', `/v1/zoos/${zoo.id}`, { name: 'Third', city: 'Elsewhere' })).statusCode, 201)
  t.same([await count('new'), await count('somewhere'), await count('third+elsewhere')], [0, 0, 1])
  const refused = await call(app, 'POST', '/v1/zoos', [{ name: 'Ghost', city: 'Nowhere' }, { name: 'Bad', city: 'C', country: 'XX' }])
  t.equal(refused.statusCode, 422)
  t.equal(await count('ghost'), 0, 'a refused batch leaves no words')
  t.equal((await call(app, 'DELETE', `/v1/zoos/${zoo.id}`)).statusCode, 204)
  t.equal(await count('third'), 0)
  const again = await create(app, 'zoos', { name: 'Third again', city: 'C' })
  t.same(names(await call(app, 'GET', '/v1/zoos?q=third')), ['Third again'])
  t.ok(again.id > zoo.id)
})

t.test('records written without search words get theirs when the storage opens', async t => {
  const app = await build(t)
  await create(app, 'zoos', { name: 'Through the API', city: 'Kept' })
  // As a version before search, or an operator's SQL, would write them: the table alone.
  const now = new Date().toISOString()
  await query(app, 'INSERT INTO zoos (name, city, created_at, updated_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)',
    ['Written by SQL', 'Backfilled', now, now, 'Another one', 'Backfilled', now, now])
  t.equal((await call(app, 'GET', '/v1/zoos?q=backfilled')).headers['x-total-count'], '0', 'not indexed yet')
  await withStorage(app, async () => {})
  const found = await call(app, 'GET', '/v1/zoos?q=backfilled')
  t.same(names(found), ['Written by SQL', 'Another one'])
  t.same(names(await call(app, 'GET', '/v1/zoos?q=kept')), ['Through the API'])
})

t.test('a write\'s words are found by a later operation of its batch, and stay when another write of its group is refused', async t => {
  const app = await build(t)
  const batch = await call(app, 'POST', '/v1/batch', {
    operations: [
      { method: 'POST', path: '/v1/zoos', body: { name: 'Alpenzoo', city: 'Innsbruck' } },
      { method: 'PATCH', path: '/v1/zoos?q=alpenzoo', body: { country: 'AT' } },
      { method: 'PATCH', path: '/v1/zoos/{0.id}', body: { name: 'Alpine Zoo' } },
      { method: 'PATCH', path: '/v1/zoos?q=alpine+innsbruck', body: { opened_on: '1962-06-22' } }
    ]
  })
  t.same(batch.json().results.map((r: { body: unknown }) => r.body).filter((b: unknown) => 'affected' in (b as object)),
    [{ affected: 1 }, { affected: 1 }])
  t.same(names(await call(app, 'GET', '/v1/zoos?q=alpine')), ['Alpine Zoo'])
  t.same(names(await call(app, 'GET', '/v1/zoos?q=alpenzoo')), [], 'the old words are gone')

  // Sent together, these share one transaction on SQLite (its group commit): the refused change
  // reads the search index after the others wrote to it, then is undone alone.
  const answers = await Promise.all([
    call(app, 'POST', '/v1/zoos', { name: 'Bärenpark', city: 'Bern' }),
    call(app, 'PATCH', '/v1/zoos?q=alpine', { country: 'CH' }, { prefer: 'max-affected=0' }),
    call(app, 'POST', '/v1/zoos', { name: 'Dählhölzli', city: 'Bern' }),
    call(app, 'PATCH', '/v1/zoos?q=b%C3%A4renpark', { country: 'CH' })
  ])
  t.same(answers.map(a => a.statusCode), [201, 422, 201, 200])
  t.same(names(await call(app, 'GET', '/v1/zoos?q=bern&sortby=name')), ['Bärenpark', 'Dählhölzli'])
  t.same(names(await call(app, 'GET', '/v1/zoos?q=alpine')), ['Alpine Zoo'])
})

t.test('a word longer than the words kept is compared by its first 255 characters, alike on both engines', async t => {
  // 200 characters, each one of six once decomposed: a word of 1,200 characters and 3,600 bytes,
  // longer than PostgreSQL keeps (2,047 bytes).
  const long = '㌖'.repeat(200)
  const app = await build(t)
  const created = await call(app, 'POST', '/v1/zoos', { name: long, city: 'Far' })
  t.equal(created.statusCode, 201, created.body)
  const search = async (q: string) => {
    const res = await call(app, 'GET', `/v1/zoos?q=${encodeURIComponent(q)}`)
    t.equal(res.statusCode, 200, res.body)
    const found = res.statusCode === 200 ? res.json().map((zoo: { id: number }) => zoo.id) : []
    return { found, total: res.headers['x-total-count'] }
  }
  const { id } = created.json()
  t.same(await search(long), { found: [id], total: '1' }, 'the whole word')
  t.same(await search('㌖㌖'), { found: [id], total: '1' }, 'its first characters')
  t.same(await search(`${long.slice(0, 50)} far`), { found: [id], total: '1' }, 'with another word')
  t.same(await search('㍿'.repeat(200)), { found: [], total: '0' }, 'a long word that begins no word')
  // ㌖ is 6 characters decomposed: the first 43 make 258, past which words are not compared.
  t.same(await search(`${'㌖'.repeat(43)}㍿`), { found: [id], total: '1' }, 'what follows the first 255 characters is not compared')

  // ㍿ is 4 characters decomposed, of 3 bytes each: 2,400 bytes.
  const other = '㍿'.repeat(200)
  const patched = await call(app, 'PATCH', `/v1/zoos/${id}`, { name: other })
  t.equal(patched.statusCode, 201, patched.body)
  t.same(await search(long), { found: [], total: '0' }, 'an update: the name\'s words made anew')
  t.same(await search(`${other.slice(0, 100)} far`), { found: [id], total: '1' })

  // As a version before search, or an operator's SQL, would write one: its words are made at start-up.
  const now = new Date().toISOString()
  await query(app, 'INSERT INTO zoos (name, city, created_at, updated_at) VALUES (?, ?, ?, ?)', [long, 'By SQL', now, now])
  await withStorage(app, async () => {})
  t.same(await search(long.slice(0, 60)), { found: [id + 1], total: '1' }, 'indexed when the storage opens')
})

t.test('on SQLite, a word kept whole before words were cut is found as the word cut would be', {
  skip: ENGINE !== 'sqlite' && 'the FTS5 table of SQLite'
}, async t => {
  const long = '㌖'.repeat(200)
  const app = await build(t)
  const zoo = await create(app, 'zoos', { name: long, city: 'Far' })
  // The row of the FTS5 table as a version that kept words whole wrote it.
  await query(app, 'DELETE FROM zoos_search WHERE rowid = ?', [zoo.id])
  await query(app, 'INSERT INTO zoos_search (rowid, words) VALUES (?, ?)', [zoo.id, `${long.normalize('NFKD')} far`])
  const found = async (q: string) => (await call(app, 'GET', `/v1/zoos?q=${encodeURIComponent(q)}`)).json().length
  t.same(await Promise.all([long, '㌖', `${long.slice(0, 43)}㍿`, 'far'].map(found)), [1, 1, 1, 1], 'as a record written now')
  t.same(await Promise.all(['㍿', `${long.slice(0, 42)}㍿`].map(found)), [0, 0], 'what a record written now would not match')
})
