import { shippedFile, shippedNames } from '../packaging/shipped.ts'

export interface Migration {
  /** The file's name, such as `001_collections.sql`. */
  name: string
  /** Its number: migrations are applied in this order, each once. */
  version: number
  sql: string
}

const MIGRATION_FILE = /^(\d+)_[\w-]+\.sql$/

/** The migrations this version ships for `engine` (`migrations/<engine>/`), in order. */
export function shippedMigrations (engine: 'sqlite' | 'postgres'): Migration[] {
  const folder = `migrations/${engine}`
  return shippedNames(folder)
    .map(name => ({ name, match: MIGRATION_FILE.exec(name) }))
    .filter(m => m.match !== null)
    .map(m => ({ name: m.name, version: Number(m.match?.[1]), sql: shippedFile(`${folder}/${m.name}`).toString('utf8') }))
    .sort((a, b) => a.version - b.version)
}

/** Of `engine`'s migrations, those whose version is not in `applied`. */
export const pendingOf = (engine: 'sqlite' | 'postgres', applied: Iterable<number>): Migration[] => {
  const done = new Set(applied)
  return shippedMigrations(engine).filter(m => !done.has(m.version))
}
