import t from 'tap'
import { HASH_COST, hashSecret, keptSecret, setHashCostForTests, verifySecret } from '../../auth/secrets.ts'

// This file does not load test/helper.ts, which lowers the cost for the other suites: what it
// hashes, it hashes as the program does.

const SCRYPT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/

t.test('a chosen secret or password is kept as scrypt at the production cost (N=2^15, r=8, p=1), and checks', async t => {
  t.same(HASH_COST, { N: 32768, r: 8, p: 1 })
  for (const stored of [await hashSecret('correct horse battery'), await keptSecret('correct horse battery', 'chosen')]) {
    t.same(SCRYPT.exec(stored)?.slice(1), ['32768', '8', '1'])
    t.equal(await verifySecret('correct horse battery', stored), true)
    t.equal(await verifySecret('correct horse batterY', stored), false)
  }
  t.match(await keptSecret('a generated secret', 'generated'), /^sha256\$/, 'a generated one is a digest')
})

t.test('a hash keeps its cost: one made at another N is checked at that N', async t => {
  const before = await hashSecret('made at the production cost')
  setHashCostForTests(1024)
  t.teardown(() => { setHashCostForTests(HASH_COST.N) })
  const cheaper = await hashSecret('made at a lower cost')
  t.same(SCRYPT.exec(cheaper)?.slice(1), ['1024', '8', '1'])
  t.equal(await verifySecret('made at a lower cost', cheaper), true)
  t.equal(await verifySecret('made at the production cost', before), true)
  t.equal(await verifySecret('made at a lower cost', before), false)
})
