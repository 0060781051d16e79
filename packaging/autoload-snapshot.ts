/** A folder's entries as the binary's snapshot records them: a name, and whether it is a folder. */
export interface SnapshotEntry { name: string, directory: boolean }

const missing = (what: string, path: string): Error =>
  Object.assign(new Error(`${what} ${path} is not in the binary`), { code: 'ENOENT' })

/**
 * What the bundle's @fastify/autoload reads in place of the file system and imports in place of
 * files (scripts/build-binary.ts): the plugin and route folders as they were at build time,
 * and their modules, imported statically. `readdir` answers as `fs.promises.readdir` with
 * `withFileTypes` does, for what autoload asks of it.
 */
export function autoloadSnapshot (folders: Record<string, SnapshotEntry[]>, modules: Map<string, unknown>) {
  return {
    async readdir (dir: string) {
      const entries = folders[dir]
      if (entries === undefined) throw missing('folder', dir)
      return entries.map(({ name, directory }) => ({ name, isDirectory: () => directory, isFile: () => !directory }))
    },
    load (file: string): unknown {
      if (!modules.has(file)) throw missing('module', file)
      return modules.get(file)
    }
  }
}
