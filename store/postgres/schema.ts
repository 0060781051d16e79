import { KINDS } from '../../collections/kinds.ts'
import type { Resource } from '../../collections/resource.ts'
import type { Pool } from './database.ts'

/**
 * The check store/sqlite/schema.ts makes, on PostgreSQL: start-up refuses a database whose
 * tables disagree with the TypeBox resources, naming the first difference. Every column of a
 * resource must exist with its type and nullability, every reference must be a foreign key to
 * the referenced table's id, and every unique field must have a unique index.
 */
export async function checkTables (pool: Pool, resources: Resource[]): Promise<void> {
  for (const resource of resources) {
    const problem = (what: string) => new Error(`table ${resource.name} does not match the ${resource.singular} resource: ${what}`)
    const { rows: columns } = await pool.query<{ name: string, type: string, nullable: string }>(`SELECT column_name AS name,
      data_type AS type, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
    [resource.name])
    if (columns.length === 0) throw problem('the table does not exist')
    const byName = new Map(columns.map(c => [c.name, c]))
    for (const column of resource.columns) {
      const stored = byName.get(column.name)
      if (stored === undefined) throw problem(`column ${column.name} is missing`)
      const type = KINDS[column.kind].postgres.type
      if (stored.type !== type) throw problem(`column ${column.name} is ${stored.type}, not ${type}`)
      const nullable = stored.nullable === 'YES'
      if (nullable !== column.nullable) {
        throw problem(`column ${column.name} is ${nullable ? '' : 'NOT '}NULL, the field is ${column.nullable ? '' : 'not '}nullable`)
      }
    }
    const { rows: foreignKeys } = await pool.query<{ definition: string }>(`SELECT pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE c.contype = 'f' AND t.relname = $1 AND n.nspname = current_schema()`, [resource.name])
    for (const [field, target] of Object.entries(resource.references)) {
      if (!foreignKeys.some(k => k.definition.startsWith(`FOREIGN KEY (${field}) REFERENCES ${target}(id)`))) {
        throw problem(`column ${field} is not a foreign key to ${target} (id)`)
      }
    }
    const { rows: indexes } = await pool.query<{ definition: string }>(`SELECT indexdef AS definition FROM pg_indexes
      WHERE schemaname = current_schema() AND tablename = $1`, [resource.name])
    for (const field of resource.unique) {
      // Unique without regard to ASCII case, as the resource says unique fields are.
      if (!indexes.some(i => i.definition.startsWith('CREATE UNIQUE INDEX') && i.definition.endsWith(`(lower(${field}))`))) {
        throw problem(`column ${field} has no unique index on lower(${field})`)
      }
    }
  }
}
