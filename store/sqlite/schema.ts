import { KINDS } from '../../collections/kinds.ts'
import type { Resource } from '../../collections/resource.ts'
import type { SqliteDatabase } from './database.ts'

interface TableColumn { name: string, type: string, notnull: number, pk: number }
interface ForeignKey { table: string, from: string, to: string }

/**
 * Each collection is described twice: by its TypeBox resource (schemas/) and by its table
 * (migrations/). Start-up refuses a database whose tables disagree with the resources, naming the
 * first difference, rather than answering 500s later: every column of a resource must exist with
 * the type and nullability the resource says, every reference must be a foreign key to the
 * referenced table, and every unique field must have a unique index.
 */
export function checkTables (db: SqliteDatabase, resources: Resource[]): void {
  for (const resource of resources) {
    const problem = (what: string) => new Error(`table ${resource.name} does not match the ${resource.singular} resource: ${what}`)
    const columns = new Map((db.pragma(`table_info("${resource.name}")`) as TableColumn[]).map(c => [c.name, c]))
    if (columns.size === 0) throw problem('the table does not exist')
    for (const column of resource.columns) {
      const stored = columns.get(column.name)
      if (stored === undefined) throw problem(`column ${column.name} is missing`)
      const type = KINDS[column.kind].sqlite.type
      if (stored.type !== type) throw problem(`column ${column.name} is ${stored.type}, not ${type}`)
      // An INTEGER PRIMARY KEY is the rowid: never null, whatever table_info says.
      const nullable = stored.notnull === 0 && stored.pk === 0
      if (nullable !== column.nullable) {
        throw problem(`column ${column.name} is ${nullable ? '' : 'NOT '}NULL, the field is ${column.nullable ? '' : 'not '}nullable`)
      }
    }
    const foreignKeys = db.pragma(`foreign_key_list("${resource.name}")`) as ForeignKey[]
    for (const [field, target] of Object.entries(resource.references)) {
      if (!foreignKeys.some(k => k.from === field && k.table === target && (k.to ?? 'id') === 'id')) {
        throw problem(`column ${field} is not a foreign key to ${target} (id)`)
      }
    }
    const uniqueIndexes = (db.pragma(`index_list("${resource.name}")`) as { name: string, unique: number }[]).filter(i => i.unique === 1)
    for (const field of resource.unique) {
      const indexed = uniqueIndexes.some(i => {
        const names = (db.pragma(`index_info("${i.name}")`) as { name: string }[]).map(c => c.name)
        return names.length === 1 && names[0] === field
      })
      if (!indexed) throw problem(`column ${field} has no unique index`)
    }
  }
}
