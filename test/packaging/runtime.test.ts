import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { unsupportedRuntime } from '../../packaging/shipped.ts'
import { major, olderNode, PACKAGE, PINNED_NODE, ROOT, RUNTIMES } from './helper.ts'

/*
 * The runtime the project brings: Node.js 24 LTS as a pinned package (package.json's
 * optionalDependencies), which npm puts first on the PATH of its scripts, so that npm start,
 * npm test and tap's processes run on it whatever Node.js the machine has; and a lock file that
 * installs from an empty cache.
 */

interface LockEntry { version?: string, integrity?: string, link?: boolean, optional?: boolean }
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }

t.test('the suite runs on the Node.js the project pins, not on the machine\'s own', async t => {
  t.ok(RUNTIMES.length > 0, 'package.json pins a Node.js')
  t.equal(new Set(RUNTIMES.map(([, version]) => version)).size, 1, 'the same version for every platform')
  const pinned = RUNTIMES[0]?.[1] ?? ''
  t.match(pinned, /^\d+\.\d+\.\d+$/, 'an exact version')
  t.equal(major(process.version), major(pinned), `Node.js ${process.version} runs this test`)
  t.equal(unsupportedRuntime(pinned), undefined, 'engines takes the pinned version')
  if (PINNED_NODE === undefined) return
  t.equal(process.version, `v${PINNED_NODE}`, 'exactly the pinned one')
  t.equal(process.execPath, join(ROOT, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node'), 'from node_modules')
})

t.test('a Node.js older than engines allows is refused in words, newer ones run', async t => {
  const oldest = /(\d+\.\d+\.\d+)/.exec(PACKAGE.engines.node)?.[1] ?? ''
  const [least, minor] = oldest.split('.').map(Number) as [number, number]
  for (const older of ['20.20.2', '22.22.0', `${least}.${minor - 1}.99`]) {
    t.equal(unsupportedRuntime(older), `Node.js v${older} is older than the v${oldest} this program needs; ` +
      'npm start and npm test run the Node.js that npm ci installs beside the program', older)
  }
  for (const newer of [oldest, `${least}.${minor}.1`, `${least}.${minor + 1}.0`, `${least + 2}.0.0`]) {
    t.equal(unsupportedRuntime(newer), undefined, newer)
  }
})

t.test('npm test stops at once on an older Node.js, naming both', {
  skip: olderNode === undefined && 'no older Node.js on the PATH to try it with'
}, async t => {
  if (olderNode === undefined) return
  const check = join(ROOT, 'scripts', 'check-runtime.js')
  const refused = spawnSync(olderNode.file, [check], { encoding: 'utf8' })
  t.equal(refused.status, 1)
  t.match(refused.stderr,
    `npm test: running on Node.js ${olderNode.version} (${olderNode.file}), ` +
    `not on the Node.js ${major(process.version)} the project brings`)
  const ours = spawnSync(process.execPath, [check], { encoding: 'utf8' })
  t.equal(ours.status, 0, ours.stderr)
})

t.test('the lock file is complete: npm ci installs every package from it, on an empty cache', async t => {
  const incomplete = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.link !== true && (entry.version === undefined || entry.integrity === undefined))
    .map(([path]) => path)
  t.same(incomplete, [], 'each entry names its version and integrity')
  for (const [name, version] of RUNTIMES) {
    t.match(lock.packages[`node_modules/${name}`], { version, optional: true }, `${name} ${version} locked`)
  }
  const sqlite = lock.packages['node_modules/better-sqlite3']?.version ?? '0'
  t.equal(major(sqlite), 13, 'better-sqlite3 13, the first that runs on Node.js 24.19 and later')
})
