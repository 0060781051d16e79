import { createHash, randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sea from 'node:sea'
import { ConfigError, privateDirectory } from '../config/index.ts'

/**
 * The files the program ships besides its code (the migrations, package.json, and in the single
 * binary the SQLite addon and the documentation UI), wherever it runs from: an install tree
 * (`dist/`, which the build fills, or the source folder under tap) or the binary, which carries
 * them as single-executable-application assets (scripts/build-binary.ts).
 */

/** Whether this process is the single binary. */
export const inBinary = sea.isSea()

/**
 * Where the binary's bundled modules say they are. No such folder exists: the bundle's copy of
 * @fastify/autoload reads a snapshot of the plugin and route folders taken at build time under
 * this name (scripts/build-binary.ts).
 */
export const BUNDLED_ROOT = '/zoo-api'

/** The asset that lists the names of all the others: a binary cannot list its assets itself. */
export const ASSET_INDEX = 'assets.json'

/** The folder the program's modules are in: `dist/`, or the source folder when tap runs the TypeScript. */
export const programDir = inBinary ? BUNDLED_ROOT : fileURLToPath(new URL('..', import.meta.url))

let assetNames: string[] | undefined
const assets = (): string[] => (assetNames ??= JSON.parse(sea.getAsset(ASSET_INDEX, 'utf8')) as string[])

/** A shipped file by its path from the program's folder, such as `migrations/sqlite/001_collections.sql`. */
export function shippedFile (path: string): Buffer {
  return inBinary ? Buffer.from(sea.getAsset(path)) : readFileSync(join(programDir, path))
}

/** The names of the files of a shipped folder, sorted. */
export function shippedNames (folder: string): string[] {
  const names = inBinary
    ? assets().filter(name => name.startsWith(`${folder}/`)).map(name => name.slice(folder.length + 1))
    : readdirSync(join(programDir, folder))
  return names.sort()
}

interface PackageJson { version: string, engines: { node: string } }
const packageJson = (): PackageJson => JSON.parse(shippedFile('package.json').toString('utf8')) as PackageJson

/** The program's version, from its package.json. */
export const programVersion = (): string => packageJson().version

/** What `--version` prints: the program's version and the Node.js that runs it (in the binary, the one it embeds). */
export const versionLine = (): string => `zoo-api ${programVersion()} (Node.js ${process.version})`

/**
 * Why the Node.js running the program cannot, or undefined. The oldest it takes is the lowest
 * version in package.json's `engines`: SQLite's addon crashes the process on older ones (Node.js
 * 20), so start-up refuses them in words instead. Newer ones are let run.
 */
export function unsupportedRuntime (running = process.versions.node): string | undefined {
  const oldest = /(\d+)\.(\d+)\.(\d+)/.exec(packageJson().engines.node)
  if (oldest === null) throw new Error(`package.json: engines.node names no version: ${packageJson().engines.node}`)
  const [major, minor, patch] = running.split('.').map(Number) as [number, number, number]
  const [least, leastMinor, leastPatch] = oldest.slice(1).map(Number) as [number, number, number]
  const older = major !== least ? major < least : minor !== leastMinor ? minor < leastMinor : patch < leastPatch
  return older
    ? `Node.js v${running} is older than the v${oldest.slice(1).join('.')} this program needs; ` +
      'npm start and npm test run the Node.js that npm ci installs beside the program'
    : undefined
}

interface Unpacked {
  /** better-sqlite3's native addon, loaded: what its `nativeBinding` option takes. */
  sqlite: object
  /** The addon's file. */
  sqliteAddon: string
  /** The files of the modules threads run (THREAD_MODULES), by their asset's name. */
  threadModules: Map<string, string>
  /** The folder holding @fastify/swagger-ui's static files. */
  documentationUi: string
}

let unpacked: Unpacked | undefined

/** The modules a thread runs, bundled apart (scripts/build-binary.ts): SQLite's readers, the traces' exporter, the webhooks' sender. */
export const THREAD_MODULES = ['store/sqlite/reader.js', 'telemetry/exporter.js', 'webhooks/sender.js']

/**
 * What must be a file on disk to be used: the SQLite addon (the system loads code only from a
 * file), the modules threads run (a thread runs a file) and the documentation UI's
 * files (@fastify/static serves from a folder). Unpacked once per
 * process into `dir`, which must be this user's alone: a `.node` file planted there would run as
 * this process. Each file is named by a digest of its content, written under a temporary name
 * and renamed, so that several processes starting together each see a whole file, and an older
 * binary's files never pass for this one's. Outside the binary there is nothing to unpack.
 */
export function unpack (dir: string, setting: string): void {
  if (!inBinary || unpacked !== undefined) return
  privateDirectory(dir, 'UNPACK_DIR')
  const ui = assets().filter(name => name.startsWith('swagger-ui/'))
  const uiDigest = createHash('sha256')
  for (const name of ui) uiDigest.update(name).update(shippedFile(name))
  const documentationUi = join(dir, `documentation-ui-${uiDigest.digest('hex').slice(0, 16)}`)
  mkdirSync(documentationUi, { recursive: true, mode: 0o700 })
  for (const name of ui) placeFile(join(documentationUi, name.slice('swagger-ui/'.length)), shippedFile(name))
  const addon = shippedFile('sqlite/better_sqlite3.node')
  const addonFile = join(dir, `better_sqlite3-${createHash('sha256').update(addon).digest('hex').slice(0, 16)}.node`)
  placeFile(addonFile, addon)
  const sqlite = { exports: {} }
  try {
    process.dlopen(sqlite, addonFile)
  } catch (err) {
    throw new ConfigError(`${setting}: the SQLite addon unpacked to ${dir} cannot be loaded (${(err as Error).message}); ` +
      'choose a folder on a file system that allows executing code (not mounted noexec)')
  }
  const threadModules = new Map(THREAD_MODULES.map(name => {
    const module = shippedFile(name)
    const file = join(dir, `${name.replace(/[/.]/g, '-')}-${createHash('sha256').update(module).digest('hex').slice(0, 16)}.js`)
    placeFile(file, module)
    return [name, file]
  }))
  unpacked = { sqlite: sqlite.exports, sqliteAddon: addonFile, threadModules, documentationUi }
}

/** better-sqlite3's `nativeBinding` in the binary (after `unpack`); undefined elsewhere, where it finds its own. */
export function sqliteBinding (): object | undefined {
  if (!inBinary) return undefined
  if (unpacked === undefined) throw new Error('the binary has not unpacked its files yet')
  return unpacked.sqlite
}

/** In the binary (after `unpack`), the file of the SQLite addon, which a reader thread loads; undefined elsewhere. */
export function sqliteAddonFile (): string | undefined {
  if (!inBinary) return undefined
  if (unpacked === undefined) throw new Error('the binary has not unpacked its files yet')
  return unpacked.sqliteAddon
}

/**
 * The file of a module a thread runs, by its path from the program's folder as THREAD_MODULES
 * names it: in the binary the one it unpacked, elsewhere the program's own (in dist/, or its
 * `.ts` source where tap runs it).
 */
export function threadModule (path: string): string {
  if (!inBinary) return join(programDir, `${path.replace(/\.js$/, '')}${extname(fileURLToPath(import.meta.url))}`)
  if (unpacked === undefined) throw new Error('the binary has not unpacked its files yet')
  const file = unpacked.threadModules.get(path)
  if (file === undefined) throw new Error(`${path} is not among the modules the binary ships for threads`)
  return file
}

/** Where the bundle's @fastify/swagger-ui finds its static files (scripts/build-binary.ts). */
export function documentationUiFolder (): string {
  if (unpacked === undefined) throw new Error('the binary has not unpacked its files yet')
  return unpacked.documentationUi
}

/** Makes `path` hold exactly `content`: kept when it does, else written whole under another name and renamed into place. */
function placeFile (path: string, content: Buffer): void {
  try {
    if (readFileSync(path).equals(content)) return
  } catch {}
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
  const fd = openSync(temporary, 'wx', 0o600)
  try {
    writeSync(fd, content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    renameSync(temporary, path)
  } catch (err) {
    rmSync(temporary, { force: true })
    throw err
  }
}
