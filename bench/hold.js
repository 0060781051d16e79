// The hold case: the largest writes WRITE_MAX_RECORDS allows one request, each timed while
// /health is asked every 20 ms on a connection of its own. On SQLite a write holds the database,
// and the event loop with it, for as long as it runs (docs/operations.md): how long each takes,
// and the slowest /health answer meanwhile, show how long the service can be held by one
// request, or by two at once (the group commit ends a group after 50 ms, so the second waits for
// the next turn of the event loop: store/sqlite/group-commit.ts).
import { SETTINGS } from '../dist/config/settings.js'
import { client, expect } from './client.js'

/** The records one request may write, as the service runs in the bench (its default). */
export const LIMIT = Number(SETTINGS.writeMaxRecords.default)
/** The most records one POST of an array creates. */
const ARRAY = 1000
const HEALTH_EVERY_MS = 20

/** Asks /health every HEALTH_EVERY_MS until stopped: the slowest answer, and how many there were. */
function probe (target) {
  const http = client(target)
  const state = { running: true }
  let slowest = 0
  let answers = 0
  const done = (async () => {
    while (state.running) {
      const started = performance.now()
      const answer = await http.send('GET', '/health')
      if (answer.status !== 200) throw new Error(`/health: ${answer.status} ${answer.body.slice(0, 200)}`)
      slowest = Math.max(slowest, performance.now() - started)
      answers++
      await new Promise(resolve => setTimeout(resolve, HEALTH_EVERY_MS))
    }
  })()
  return async () => {
    state.running = false
    await done
    http.close()
    return { slowest, answers }
  }
}

let serial = 0
const zoo = () => ({ name: `bench hold ${++serial}`, city: 'Holdville' })

export async function hold (target, { rows }) {
  // Ranges of ids far from the other cases' and from one another, each `size` long.
  const size = Math.min(LIMIT, Math.floor(rows / 8))
  const range = n => `id_gt=${rows - (n + 1) * size}&id_lte=${rows - n * size}`
  const http = client(target, 2)
  const patch = n => async () => expect(await http.send('PATCH', `/v1/zoos?${range(n)}`, { name: `held ${n} ${serial++}` }), 200,
    'PATCH of many zoos')
  const writes = {
    // The name is searched: every record's search words are written again.
    change: patch(0),
    delete: async () => expect(await http.send('DELETE', `/v1/employees?${range(0)}`), 200, 'DELETE of many employees'),
    'batch of creates': async () => expect(await http.send('POST', '/v1/batch', {
      operations: Array.from({ length: Math.ceil(size / ARRAY) }, (_, i) =>
        ({ method: 'POST', path: '/v1/zoos', body: Array.from({ length: Math.min(ARRAY, size - i * ARRAY) }, zoo) }))
    }), 200, 'a batch of creates'),
    'batch of changes': async () => expect(await http.send('POST', '/v1/batch', {
      operations: Array.from({ length: 10 }, (_, i) => ({
        method: 'PATCH',
        path: `/v1/zoos?id_gt=${rows - 3 * size + i * size / 10}&id_lte=${rows - 3 * size + (i + 1) * size / 10}`,
        body: { city: `held ${i}` }
      }))
    }), 200, 'a batch of changes'),
    'two changes at once': async () => Promise.all([patch(1)(), patch(0)()])
  }
  const measured = {}
  try {
    for (const [name, write] of Object.entries(writes)) {
      const stop = probe(target)
      await new Promise(resolve => setTimeout(resolve, 100))
      const started = performance.now()
      await write()
      const ms = performance.now() - started
      measured[name] = { ms, health: await stop() }
    }
  } finally {
    http.close()
  }
  return { records: size, measured, max: Math.max(...Object.values(measured).map(m => Math.max(m.ms, m.health.slowest))) }
}

/** Aggregates sent at once by aggregateHold. */
const AT_ONCE = 10

/**
 * The aggregate-hold case: ten aggregates of every animal at once (the heaviest grouping the bench
 * sends), each on a connection of its own, timed while /health is asked every 20 ms. On SQLite the
 * aggregates are read on threads beside the event loop (docs/aggregates.md): /health should not wait for them.
 */
export async function aggregateHold (target) {
  const http = client(target, AT_ONCE)
  const stop = probe(target)
  try {
    await new Promise(resolve => setTimeout(resolve, 100))
    const started = performance.now()
    await Promise.all(Array.from({ length: AT_ONCE }, async () =>
      expect(await http.send('GET', '/v1/animals/aggregate?group_by=zoo_id,born_on:year'), 200, 'an aggregate of every animal')))
    return { aggregates: AT_ONCE, ms: performance.now() - started, health: await stop() }
  } finally {
    http.close()
  }
}
