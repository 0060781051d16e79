import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
  engines: { node: string }
  dependencies: Record<string, string>
  optionalDependencies: Record<string, string>
}

/** The Node.js packages the project brings (package.json's optionalDependencies), one per platform, with their pinned version. */
export const RUNTIMES = Object.entries(PACKAGE.optionalDependencies).filter(([name]) => /^node-(linux|darwin|win)-/.test(name))

/** The pinned Node.js of this platform, which npm scripts run on and the binary embeds; undefined where the project brings none. */
export const PINNED_NODE: string | undefined = PACKAGE.optionalDependencies[`node-${process.platform}-${process.arch}`]

export const major = (version: string): number => Number(version.replace(/^v/, '').split('.')[0])

/** A node on the PATH but the project's, of an older major than the one running: on our machines, the system's Node.js 20. */
export const olderNode: { file: string, version: string } | undefined = (process.env.PATH ?? '').split(delimiter)
  .filter(dir => !dir.startsWith(join(ROOT, 'node_modules')))
  .map(dir => join(dir, 'node'))
  .filter(file => existsSync(file))
  .map(file => ({ file, version: spawnSync(file, ['--version'], { encoding: 'utf8' }).stdout.trim() }))
  .find(({ version }) => /^v\d+/.test(version) && major(version) < major(process.version))
