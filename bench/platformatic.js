// Platformatic DB for the P baseline, installed on demand: it is not the project's dependency
// (some 190 MB), so `npm ci` never fetches it. A run that asks for P installs this version into
// bench/.platformatic/ once; where the registry cannot be reached the target fails to start, and
// the run goes on without it.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PLATFORMATIC_VERSION = '3.67.0'
export const PLATFORMATIC_DIR = fileURLToPath(new URL('.platformatic', import.meta.url))

const installed = () => {
  const manifest = join(PLATFORMATIC_DIR, 'node_modules/@platformatic/db/package.json')
  return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === PLATFORMATIC_VERSION
}

/** Installs Platformatic DB unless this version is there already; throws what npm said when it cannot. */
export function ensurePlatformatic () {
  if (installed()) return
  console.log(`  P: installing Platformatic DB ${PLATFORMATIC_VERSION} into bench/.platformatic (once; about two minutes)`)
  mkdirSync(PLATFORMATIC_DIR, { recursive: true })
  writeFileSync(join(PLATFORMATIC_DIR, 'package.json'), JSON.stringify({
    name: 'zoo-bench-platformatic',
    private: true,
    dependencies: { '@platformatic/db': PLATFORMATIC_VERSION }
  }, null, 2))
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: PLATFORMATIC_DIR, stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (err) {
    const said = String(err.stderr ?? err.message).trim().split('\n')[0]
    throw new Error(`Platformatic DB ${PLATFORMATIC_VERSION} could not be installed: ${said}`)
  }
}
