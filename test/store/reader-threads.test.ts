import t from 'tap'
import { StoreError } from '../../model/refusal.ts'
import { ReaderThreads } from '../../store/reader-threads.ts'

/*
 * The threads that read beside the event loop (store/reader-threads.ts): a read waits for a free
 * thread, one whose time runs out is refused as timed_out whether it waits or runs, and a thread
 * that fails or ends is replaced.
 */

const READER = new URL('./fixture/sleepy-reader.ts', import.meta.url)

t.test('reads are answered by at most `size` threads, the others waiting their turn', async t => {
  const threads = new ReaderThreads(READER, undefined, 1)
  t.teardown(() => threads.close())
  const order: number[] = []
  const reads = [1, 2, 3].map(value => threads.read<number>({ wait: 50, value }, 10).then(answer => { order.push(answer) }))
  await Promise.all(reads)
  t.same(order, [1, 2, 3], 'in turn, on the one thread')
})

const TIMED_OUT = new StoreError('timed_out', 'the read ran longer than its time limit')

t.test('a read whose time runs out is refused at once as timed_out, waiting or running, and the next is answered', async t => {
  const threads = new ReaderThreads(READER, undefined, 1)
  t.teardown(() => threads.close())
  const running = threads.read({ wait: 2000, value: 'late' }, 0.2)
  const waiting = threads.read({ value: 'waits' }, 0.05)
  await t.rejects(waiting, TIMED_OUT, 'its time ran out before a thread was free')
  await t.rejects(running, TIMED_OUT, 'its time ran out while its thread read')
  t.equal(await threads.read({ value: 'next' }, 10), 'next', 'a new thread took the place of the one let go')
})

t.test('a failure is the read\'s, with its code; a thread that ends is replaced', async t => {
  const threads = new ReaderThreads(READER, undefined, 1)
  t.teardown(() => threads.close())
  await t.rejects(threads.read({ fail: 'no such table: zoos' }, 10), { message: 'no such table: zoos', code: 'E_TEST' })
  t.equal(await threads.read({ value: 1 }, 10), 1, 'the thread reads on after a failed read')
  await t.rejects(threads.read({ exit: true }, 10), /ended before it answered/)
  t.equal(await threads.read({ value: 2 }, 10), 2)
})

t.test('once closed, every thread ends: a read waiting or reading is refused, and no read begins', async t => {
  const threads = new ReaderThreads(READER, undefined, 1)
  const running = t.rejects(threads.read({ wait: 200, value: 1 }, 10), /ended before it answered/)
  const waiting = t.rejects(threads.read({ value: 2 }, 10), /closed/)
  await threads.close()
  await Promise.all([running, waiting])
  await t.rejects(threads.read({ value: 3 }, 10), /closed/)
})
