import t from 'tap'
import { KeptTotals } from '../../store/kept-totals.ts'

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
