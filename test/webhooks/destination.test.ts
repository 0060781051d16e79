import t from 'tap'
import { Destinations } from '../../webhooks/destination.ts'

/*
 * The check of the address a delivery connects to, as Node's sockets call it: one address, or all
 * of them (what a connection that tries IPv4 and IPv6 side by side asks).
 */

const lookup = (destinations: Destinations, host: string, all: boolean) =>
  new Promise<{ err: NodeJS.ErrnoException | null, found: unknown }>(resolve => {
    destinations.lookup(host, { all }, (err, found) => { resolve({ err, found }) })
  })

t.test('a host that resolves to an address not public is refused where it is connected to, unless allowed', async t => {
  const refused = await lookup(new Destinations({ names: [], ranges: [] }), 'localhost', false)
  t.equal(refused.err?.code, 'EREFUSED_ADDRESS')
  t.match(refused.err?.message, /^localhost resolves to .*, which is not a public address/)
  t.equal((await lookup(new Destinations({ names: [], ranges: [] }), 'localhost', true)).err?.code, 'EREFUSED_ADDRESS')

  const byName = await lookup(new Destinations({ names: ['localhost'], ranges: [] }), 'localhost', false)
  t.equal(byName.err, null)
  t.match(byName.found, /^(127\.0\.0\.1|::1)$/)
  const all = await lookup(new Destinations({ names: ['localhost'], ranges: [] }), 'localhost', true)
  t.ok(Array.isArray(all.found) && (all.found as { address: string }[]).length >= 1, 'every address, when all are asked for')

  const byRange = new Destinations({ names: [], ranges: [['127.0.0.0', 8], ['::1', 128]] })
  t.equal((await lookup(byRange, 'localhost', true)).err, null, 'allowed by its addresses\' ranges')
  t.equal(byRange.refusalOfAddress('example.com', '10.0.0.1')?.includes('not a public address'), true)
  t.equal(byRange.refusalOfAddress('example.com', '93.184.216.34'), undefined, 'a public address')
  t.equal(byRange.refusalOfAddress('example.com', '2606:2800:220:1:248:1893:25c8:1946'), undefined)
  t.equal(byRange.refusalOfAddress('example.com', 'fe80::1')?.includes('not a public address'), true)
  t.equal(byRange.refusalOfUrl('http://127.0.0.1:8080/'), undefined, 'plain http to an allowed address')
  t.match(byRange.refusalOfUrl('not a url'), /not an absolute URL/)
})
