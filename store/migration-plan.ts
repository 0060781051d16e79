import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { referencedFirst, type Resource } from '../model/resource.ts'
import { migrationsOf } from './migrations.ts'
import * as postgres from './postgres/schema.ts'
import * as sqlite from './sqlite/schema.ts'

/**
 * The migration `npm run migrations` writes: what the collection tables of the migrations in a
 * folder lack for the resources, as SQL for both engines, numbered after the last one.
 */
export interface PlannedMigration {
  /** The file's name in both engines' folders, such as `070_keepers.sql`. */
  name: string
  sqlite: string
  postgres: string
}

/**
 * What the migrations of `folder` (`<folder>/sqlite`, `<folder>/postgres`; by default those this
 * version ships) lack for `resources`, or undefined when their tables hold everything the
 * resources need. The SQLite migrations are applied to a database in memory and its collection
 * tables compared with the resources (store/tables.ts): a new collection becomes its table, a
 * new field a column, each with its indexes, an index the resource asks for (ResourceSpec.indexes)
 * its index, on both engines at once (the PostgreSQL migrations
 * are written alongside and go in step; a test holds both to the resources). Any other
 * difference (a field removed, its type, nullability or uniqueness changed, a required field or a
 * reference added to a table that has rows) is the kind of change whose data an operator must
 * decide about: it is refused, listing each, for a migration written by hand. Migrations already
 * shipped are never rewritten.
 */
export function planMigration (resources: Resource[], folder?: string): PlannedMigration | undefined {
  const shipped = { sqlite: migrationsOf('sqlite', folder), postgres: migrationsOf('postgres', folder) }
  const db = new Database(':memory:')
  try {
    for (const migration of shipped.sqlite) db.exec(migration.sql)
    const sql = { sqlite: [] as string[], postgres: [] as string[] }
    const changed: string[] = []
    const byHand: string[] = []
    // New tables after those they reference: PostgreSQL checks a reference when the table is made.
    for (const resource of referencedFirst(resources)) {
      const held = sqlite.tableFacts(db, resource.name)
      if (held.length === 0) {
        sql.sqlite.push(sqlite.createTable(resource))
        sql.postgres.push(postgres.createTable(resource))
        db.exec(sql.sqlite.at(-1) as string)
        changed.push(resource.name)
        continue
      }
      const columns = new Set(held.filter(line => line.startsWith('column ')).map(line => line.split(' ')[1]))
      for (const column of resource.columns.filter(c => !columns.has(c.name))) {
        // A table that has rows takes only a column they can all hold: nullable, and not unique.
        if (!column.nullable || resource.unique.includes(column.name)) {
          byHand.push(`${resource.name}.${column.name}: only a nullable, not unique column is added to a table that has rows`)
          continue
        }
        const added = sqlite.addColumn(resource, column)
        db.exec(added)
        sql.sqlite.push(added)
        sql.postgres.push(postgres.addColumn(resource, column))
        if (!changed.includes(resource.name)) changed.push(resource.name)
      }
      // An index the resource asks for that the table lacks: an index is made for any rows.
      const missing = sqlite.missingIndexes(resource, sqlite.tableFacts(db, resource.name))
      if (missing.length === 0) continue
      sql.sqlite.push(sqlite.createIndexes(resource, missing))
      sql.postgres.push(postgres.createIndexes(resource, missing))
      db.exec(sql.sqlite.at(-1) as string)
      if (!changed.includes(resource.name)) changed.push(resource.name)
    }
    // What the new SQL makes, compared again: whatever still differs was none of the above.
    for (const resource of resources) {
      const held = sqlite.tableFacts(db, resource.name)
      const wanted = sqlite.wantedFacts(resource)
      const lacks = wanted.filter(line => !held.includes(line)).map(line => `${resource.name} lacks ${line}`)
      const tableColumns = new Set(resource.columns.map(c => c.name))
      // A column of the resource's that differs is said above, by what it lacks.
      const known = (line: string): boolean => line.startsWith('column ') && tableColumns.has(line.split(' ')[1] as string)
      const extra = held.filter(line => !wanted.includes(line) && !known(line))
        .map(line => `${resource.name} has ${line}, which its resource does not`)
      byHand.push(...lacks, ...extra)
    }
    if (byHand.length > 0) {
      throw new Error('npm run migrations writes new collections, new nullable fields and the indexes resources ask for; ' +
        `these changes need a migration written by hand:\n  ${[...new Set(byHand)].join('\n  ')}`)
    }
    if (changed.length === 0) return undefined
    const last = Math.max(0, ...shipped.sqlite.map(m => m.version), ...shipped.postgres.map(m => m.version))
    const version = (Math.floor(last / 10) + 1) * 10
    const header = `-- Written by npm run migrations for ${changed.join(', ')}, from their resources (schemas/).\n\n`
    return {
      name: `${String(version).padStart(3, '0')}_${changed.join('_')}.sql`,
      sqlite: `${header}${sql.sqlite.join('\n\n')}\n`,
      postgres: `${header}${sql.postgres.join('\n\n')}\n`
    }
  } finally {
    db.close()
  }
}

/** Writes a planned migration into both engines' folders of `folder`; returns the paths. */
export function writeMigration (folder: string, migration: PlannedMigration): string[] {
  return (['sqlite', 'postgres'] as const).map(engine => {
    mkdirSync(join(folder, engine), { recursive: true })
    const path = join(folder, engine, migration.name)
    writeFileSync(path, migration[engine], { flag: 'wx' })
    return path
  })
}
