import t from 'tap'
import { AskedThread } from '../../threads/asked.ts'

/*
 * A thread asked questions (threads/asked.ts): answers matched to their questions whatever their
 * order, a question its module refuses answered with why, and a thread that ends replaced.
 */

type Question = { value: number, wait?: number, end?: boolean }
const asked = (): AskedThread<Question, number | string> =>
  new AskedThread<Question, number | string>(new URL('./fixture/doubling.ts', import.meta.url), undefined, why => `lost: ${why}`)

t.test('each answer reaches its own question, in whatever order the thread gives them', async t => {
  const thread = asked()
  t.teardown(() => thread.close())
  t.notOk(thread.running, 'no thread before the first question')
  const slow = thread.ask({ value: 1, wait: 100 })
  const quick = thread.ask({ value: 2 })
  t.equal(await quick, 4)
  t.equal(await slow, 2)
  t.ok(thread.running)
})

t.test('a question the module refuses is answered with why; a thread that ends answers what it was asked, and another starts', async t => {
  const thread = asked()
  t.teardown(() => thread.close())
  t.equal(await thread.ask({ value: -1 }), 'lost: -1 is negative')
  const waiting = thread.ask({ value: 5, wait: 1000 })
  t.equal(await thread.ask({ value: 0, end: true }), 'lost: the thread ended')
  t.equal(await waiting, 'lost: the thread ended', 'the question under way too')
  t.notOk(thread.running)
  t.equal(await thread.ask({ value: 3 }), 6, 'a new thread answers')
})

t.test('closing answers what is still asked', async t => {
  const thread = asked()
  const waiting = thread.ask({ value: 7, wait: 5000 })
  await thread.close()
  t.equal(await waiting, 'lost: the thread was closed')
  t.notOk(thread.running)
  await thread.close()
})
