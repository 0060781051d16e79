import t from 'tap'
import { AppliedTotals, KeptTotals } from '../../store/kept-totals.ts'

/*
 * What both engines' kept totals share (store/kept-totals.ts): one entry per set of filters,
 * whatever their order, the least recently read forgotten first.
 */

const inGermany = [{ field: 'country', op: 'eq' as const, value: 'DE' }]
const large = [{ field: 'capacity', op: 'gt' as const, value: 100 }]
const both = [...inGermany, ...large]

t.test('one entry per set of filters, whatever the order they came in', async t => {
  const kept = new KeptTotals<number>()
  kept.keep(both, 3)
  t.equal(kept.read([...large, ...inGermany]), 3)
  t.equal(kept.read(inGermany), undefined)
  kept.keep([...large, ...inGermany], 4)
  t.same([...kept.entries()], [4], 'kept again instead, not beside')
  kept.clear()
  t.same([...kept.entries()], [])
})

t.test('when full, the least recently read set is forgotten first; a peek is not a read', async t => {
  const kept = new KeptTotals<string>(2)
  kept.keep(inGermany, 'germany')
  kept.keep(large, 'large')
  t.equal(kept.read(inGermany), 'germany')
  t.equal(kept.peek(large), 'large')
  kept.keep(both, 'both')
  t.equal(kept.peek(large), undefined, 'the least recently read is gone')
  t.same([...kept.entries()], ['germany', 'both'])
  t.equal(kept.capacity, 2)
})

t.test('kept totals follow every write, and forget the least recently read filter set first', async t => {
  const totals = new AppliedTotals(() => (a, b) => (a as number) - (b as number), [], 2)
  let counted = 0
  const count = (n: number) => () => { counted++; return n }
  const small = [{ field: 'n', op: 'lt' as const, value: 10 }]
  const big = [{ field: 'n', op: 'gte' as const, value: 10 }]
  t.equal(totals.get(small, count(3)), 3)
  t.equal(totals.get(big, count(5)), 5)
  totals.apply(undefined, { n: 1 })
  totals.apply({ n: 1 }, { n: 20 })
  totals.apply({ n: null }, { n: 2 })
  t.equal(totals.get(small, count(-1)), 4)
  t.equal(totals.get(big, count(-1)), 6)
  t.equal(counted, 2, 'both read from the cache')
  t.equal(totals.get([{ field: 'n', op: 'eq', value: null }], count(7)), 7)
  t.equal(totals.get(big, count(-1)), 6, 'the most recently read set stays')
  t.equal(totals.get(small, count(4)), 4, 'the least recently read one was forgotten and is counted again')
  t.equal(counted, 4)
})
