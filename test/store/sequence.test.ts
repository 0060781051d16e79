import t from 'tap'
import { DryRun } from '../../store/refusals.ts'
import { exists, later, maybeUndone, resultOf, row, rows, run, runAwaiting, runNow, type Ask, type Sequence } from '../../store/sequence.ts'
import { sql } from '../../store/sql.ts'

/*
 * A write's sequence (store/sequence.ts): the statements it yields, answered at once (SQLite) or
 * awaited (PostgreSQL), and a dry run that undoes it all and still answers its result.
 */

/** A write that reads a record, checks another, writes one and leaves one for later. */
function * writing (): Sequence<string> {
  const found = yield * row(sql`SELECT name FROM zoos WHERE id = ${1}`)
  const taken = yield * exists(sql`SELECT 1 FROM zoos WHERE name = ${'Tierpark'}`)
  yield * run(sql`UPDATE zoos SET name = ${'Tierpark'} WHERE id = ${1}`)
  yield * later(sql`DELETE FROM zoos_search WHERE rowid = ${1}`)
  const all = yield * rows(sql`SELECT id FROM zoos`)
  return { result: `${String(found?.[0])} ${taken ? 'taken' : 'free'} of ${all.length}`, changes: [] }
}

const answers = (ask: Ask): unknown => ({ row: ['Zoo'], exists: false, rows: [[1], [2]], run: undefined, later: undefined })[ask.want]

t.test('each statement is answered as the sequence asks, at once or awaited, in the order asked', async t => {
  const asked: string[] = []
  const answer = (ask: Ask): unknown => {
    asked.push(`${ask.want}: ${ask.statement.render(() => '?').sql}`)
    return answers(ask)
  }
  t.same(runNow(writing(), answer).result, 'Zoo free of 2')
  t.same(asked, [
    'row: SELECT name FROM zoos WHERE id = ?', 'exists: SELECT 1 FROM zoos WHERE name = ?', 'run: UPDATE zoos SET name = ? WHERE id = ?',
    'later: DELETE FROM zoos_search WHERE rowid = ?', 'rows: SELECT id FROM zoos'
  ])
  t.same((await runAwaiting(writing(), async ask => answers(ask))).result, 'Zoo free of 2')
})

t.test('a dry run goes to the end, then is undone as a refusal is, and answers its result all the same', async t => {
  t.throws(() => runNow(maybeUndone(writing(), true), answers), DryRun)
  t.equal(runNow(maybeUndone(writing(), false), answers).result, 'Zoo free of 2')
  t.equal(await resultOf(Promise.reject(new DryRun('undone'))), 'undone')
  await t.rejects(resultOf(Promise.reject(new Error('refused'))), { message: 'refused' })
})
