import { execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { AUTOLOADED } from '../app.ts'
import type { SnapshotEntry } from '../packaging/autoload-snapshot.ts'
import { ASSET_INDEX, BUNDLED_ROOT, THREAD_MODULES } from '../packaging/shipped.ts'

/**
 * `npm run build:binary`: `dist/zoo-api`, one file that runs the whole program with nothing
 * installed beside it, made from `dist/` (which `npm run build` has just written) as a Node.js
 * single executable application:
 *
 * 1. esbuild bundles `dist/server.js` and everything it imports into one CommonJS file. Two
 *    packages read files at run time, which a binary has none of: @fastify/autoload, which scans
 *    the plugin and route folders and imports what it finds, and @fastify/swagger-ui, which serves
 *    its folder of static files. The bundle gives autoload a snapshot of those folders taken here,
 *    and the modules in them imported statically (`autoloadSnapshot`): its own discovery rules
 *    and registration run unchanged on the snapshot, so the binary registers exactly the plugins
 *    and routes `npm start` does. The UI's folder is unpacked at start-up (packaging/shipped.ts).
 *    Our own dist/schemas/index.js reads its folder too, to find the resources: the bundle's is made
 *    here, the same files imported statically (`resourcesModule`).
 * 2. Node makes the application blob: the bundle with its V8 code cache, and as assets the files
 *    the program reads (migrations, package.json), the SQLite addon, the modules threads run
 *    (SQLite's readers, the traces' exporter, the webhooks' sender: each bundled apart) and the UI's files.
 * 3. A copy of this Node.js binary, stripped of its debug symbols, gets the blob (postject).
 */

const require = createRequire(import.meta.url)
/** The compiled program, which `npm run build` has just written; this script runs from the source folder. */
const DIST = fileURLToPath(new URL('../dist', import.meta.url))
const OUT = join(DIST, 'binary')
const BINARY = join(DIST, 'zoo-api')
const SHIPPED = join(DIST, 'packaging', 'shipped.js')
/** The fuse Node.js looks for to know it carries an application (Node's single-executable documentation). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

/** Every file below `dir`, by its path relative to `dir`. */
function filesBelow (dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(name => statSync(join(dir, name)).isFile()).sort()
}

/**
 * The module that stands in for the file system and the module loader of the bundle's autoload
 * (packaging/autoload-snapshot.ts): the folders of `AUTOLOADED` as they are in dist/ now, their
 * sub-folders and `.js` files named under BUNDLED_ROOT, and each of those files imported.
 */
function autoloadSnapshotModule (): string {
  const folders: Record<string, SnapshotEntry[]> = {}
  const files: string[] = []
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).filter(e => e.isDirectory() || e.name.endsWith('.js'))
    folders[bundledName(dir)] = entries.map(e => ({ name: e.name, directory: e.isDirectory() }))
    for (const entry of entries) {
      if (entry.isDirectory()) walk(join(dir, entry.name))
      else files.push(join(dir, entry.name))
    }
  }
  for (const { folder } of AUTOLOADED) walk(join(DIST, folder))
  const modules = files.map((file, i) => `[${JSON.stringify(bundledName(file))}, m${i}]`)
  return [
    `import { autoloadSnapshot } from ${JSON.stringify(join(DIST, 'packaging', 'autoload-snapshot.js'))}`,
    ...files.map((file, i) => `import * as m${i} from ${JSON.stringify(file)}`),
    `export const { readdir, load } = autoloadSnapshot(${JSON.stringify(folders)}, new Map([${modules.join(', ')}]))`
  ].join('\n')
}

/**
 * dist/schemas/index.js as the bundle has it: the resources of the schema files of dist/schemas, which
 * the program finds by reading that folder (with a top-level await, which a CommonJS bundle cannot
 * hold either), imported statically and listed by the same function.
 */
function resourcesModule (): string {
  const folder = join(DIST, 'schemas')
  const files = readdirSync(folder).filter(name => name.endsWith('.js') && name !== 'index.js').sort()
  return [
    `import { resourcesOf } from ${JSON.stringify(join(DIST, 'model', 'resource.js'))}`,
    ...files.map((name, i) => `import * as m${i} from ${JSON.stringify(join(folder, name))}`),
    `export const RESOURCES = resourcesOf([${files.map((_, i) => `m${i}`).join(', ')}])`
  ].join('\n')
}

/**
 * The better-sqlite3 addon this Node.js loads, as the package itself picks it: one compiled here
 * on purpose (`build/Release`), else the prebuilt one the package ships for this platform. The
 * binary is built for glibc Linux, so the musl builds are never the one.
 */
function sqliteAddon (): string {
  const packageDir = dirname(require.resolve('better-sqlite3/package.json'))
  const candidates = [
    join(packageDir, 'build', 'Release', 'better_sqlite3.node'),
    join(packageDir, 'prebuilds', `${process.platform}-${process.arch}.node`)
  ]
  const found = candidates.find(file => existsSync(file))
  if (found === undefined) throw new Error(`build:binary: no better-sqlite3 addon at ${candidates.join(' or ')}`)
  return found
}

/** A path of dist/ as the bundle names it. */
const bundledName = (path: string): string => join(BUNDLED_ROOT, relative(DIST, path))

/** `source` with each of `replacements` made exactly once: a package that changed shape fails the build, not the binary. */
function patch (file: string, source: string, replacements: [string, string][]): string {
  return replacements.reduce((text, [from, to]) => {
    const count = text.split(from).length - 1
    if (count !== 1) throw new Error(`build:binary: ${file} holds "${from}" ${count} times, not once: see scripts/build-binary.ts`)
    return text.replace(from, to)
  }, source)
}

/** What the bundle changes in the two packages, and the one module of ours, that read files at run time (see above). */
const binaryFileAccess: Plugin = {
  name: 'binary-file-access',
  setup (esbuild) {
    const autoloadDir = dirname(require.resolve('@fastify/autoload'))
    const findPlugins = join(autoloadDir, 'lib', 'find-plugins.js')
    const swaggerUiRoutes = join(dirname(require.resolve('@fastify/swagger-ui')), 'lib', 'routes.js')
    const schemaIndex = join(DIST, 'schemas', 'index.js')
    esbuild.onResolve({ filter: /^node:fs\/promises$/ }, args =>
      args.importer === findPlugins ? { path: 'autoload-snapshot', namespace: 'binary' } : undefined)
    esbuild.onResolve({ filter: /^autoload-snapshot$/ }, () => ({ path: 'autoload-snapshot', namespace: 'binary' }))
    esbuild.onLoad({ filter: /^autoload-snapshot$/, namespace: 'binary' }, () =>
      ({ contents: autoloadSnapshotModule(), loader: 'js', resolveDir: DIST }))
    esbuild.onLoad({ filter: /\/schemas\/index\.js$/ }, args =>
      args.path === schemaIndex ? { contents: resourcesModule(), loader: 'js', resolveDir: DIST } : undefined)
    esbuild.onLoad({ filter: /\/@fastify\/autoload\/index\.js$/ }, args => ({
      contents: "const snapshot = require('autoload-snapshot')\n" + patch(args.path, readFileSync(args.path, 'utf8'), [
        ['await import(pathToFileURL(file).href)', 'snapshot.load(file)'],
        ['await import(pathToFileURL(hook.file).href)', 'snapshot.load(hook.file)']
      ]),
      loader: 'js'
    }))
    esbuild.onLoad({ filter: /\/@fastify\/swagger-ui\/lib\/routes\.js$/ }, args => args.path !== swaggerUiRoutes
      ? undefined
      : {
          contents: patch(args.path, readFileSync(args.path, 'utf8'), [
            ["path.join(__dirname, '..', 'static')", `require(${JSON.stringify(SHIPPED)}).documentationUiFolder()`]
          ]),
          loader: 'js'
        })
  }
}

/** Runs a step whose output says nothing when it succeeds; when it fails, its output is the reason. */
function quietly (command: string, args: string[]): void {
  try {
    execFileSync(command, args, { stdio: 'pipe' })
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: Buffer, stderr?: Buffer }
    process.stderr.write(`${String(stdout ?? '')}${String(stderr ?? '')}`)
    throw err
  }
}

async function main (): Promise<void> {
  const started = Date.now()
  rmSync(OUT, { recursive: true, force: true })
  mkdirSync(OUT, { recursive: true })
  const bundle = join(OUT, 'zoo-api.cjs')
  await build({
    entryPoints: [join(DIST, 'server.js')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    plugins: [binaryFileAccess],
    // import.meta.url is read only outside the binary (packaging/shipped.ts), where the module is ESM.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning'
  })
  // The modules threads run, each bundled apart: a thread runs a file, which the binary unpacks (packaging/shipped.ts).
  const threadModules: Record<string, string> = {}
  for (const name of THREAD_MODULES) {
    const outfile = join(OUT, `${name.replace(/[/.]/g, '-')}.cjs`)
    await build({
      entryPoints: [join(DIST, name)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: `node${process.versions.node.split('.')[0]}`,
      logLevel: 'warning'
    })
    threadModules[name] = outfile
  }

  const assets: Record<string, string> = {
    'package.json': join(DIST, 'package.json'),
    ...threadModules,
    'sqlite/better_sqlite3.node': sqliteAddon()
  }
  for (const name of filesBelow(join(DIST, 'migrations'))) assets[`migrations/${name}`] = join(DIST, 'migrations', name)
  const uiFolder = join(dirname(require.resolve('@fastify/swagger-ui')), 'static')
  for (const name of filesBelow(uiFolder)) assets[`swagger-ui/${name}`] = join(uiFolder, name)
  const index = join(OUT, ASSET_INDEX)
  writeFileSync(index, JSON.stringify(Object.keys(assets)))
  assets[ASSET_INDEX] = index

  const blob = join(OUT, 'sea-prep.blob')
  const seaConfig = join(OUT, 'sea-config.json')
  const sea = { main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }
  writeFileSync(seaConfig, JSON.stringify(sea))
  quietly(process.execPath, ['--experimental-sea-config', seaConfig])

  rmSync(BINARY, { force: true })
  copyFileSync(process.execPath, BINARY)
  chmodSync(BINARY, 0o755)
  // Node.js as Debian ships it carries its debug symbols and symbol table, a seventh of its size; the dynamic symbols
  // that native addons link against stay.
  try {
    execFileSync('strip', [BINARY], { stdio: 'ignore' })
  } catch {
    process.stderr.write('build:binary: strip is not installed, the binary keeps the debug symbols of Node.js\n')
  }
  // postject warns of every note section it reads without a name, which a stripped binary has.
  quietly(process.execPath, [require.resolve('postject/dist/cli.js'), BINARY, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE])
  const size = statSync(BINARY).size / 2 ** 20
  const seconds = (Date.now() - started) / 1000
  process.stdout.write(`build:binary: ${relative(process.cwd(), BINARY)}, ${size.toFixed(1)} MiB, in ${seconds.toFixed(1)} s\n`)
}

await main()
