import type { Column, Resource } from '../model/resource.ts'

/*
 * What a collection's table must hold, whatever the engine, derived from its resource alone:
 * a column per field (and `id`, `created_at`, `updated_at`, `version`), and the indexes that keep
 * every list cheap (store/sqlite/list.ts, store/postgres/list.ts):
 *
 * - one led by each column a list may sort or filter by (all but `id`);
 * - for each reference, one led by it and followed by each other column: the nested routes
 *   (`/v1/zoos/:zoo_id/animals`) always filter on it, and such an index holds a parent's records
 *   already in the order of a sort by that column;
 * - those the resource asks for (ResourceSpec.indexes).
 *
 * Each engine writes these as its DDL (store/sqlite/schema.ts, store/postgres/schema.ts), lists
 * what a database holds the same way, and refuses at start-up a database that lacks any of it.
 * `npm run migrations` writes the DDL of what the shipped migrations lack (store/migration-plan.ts).
 */

/** An index of a collection's table: its name, and the columns it is led by, in order. */
export interface TableIndex {
  name: string
  columns: string[]
}

/** The column a list may sort by, each leading an index: every column but `id`. */
export const sortIndexes = (resource: Resource): TableIndex[] =>
  resource.columns.filter(c => c.name !== 'id').map(c => ({ name: `${resource.name}_${c.name}`, columns: [c.name] }))

/** For each reference, an index led by it and each other column but `id`. */
export const groupIndexes = (resource: Resource): TableIndex[] =>
  referenceColumns(resource).flatMap(reference => resource.columns
    .filter(c => c.name !== 'id' && c.name !== reference.name)
    .map(c => ({ name: `${resource.name}_${reference.name}_${c.name}`, columns: [reference.name, c.name] })))

export const referenceColumns = (resource: Resource): Column[] => resource.columns.filter(c => c.references !== undefined)

/** The indexes the resource asks for (ResourceSpec.indexes), but one that another already is. */
export const declaredIndexes = (resource: Resource): TableIndex[] => {
  const named = new Set([...sortIndexes(resource), ...groupIndexes(resource)].map(index => index.name))
  return resource.indexes.map(columns => ({ name: `${resource.name}_${columns.join('_')}`, columns }))
    .filter(index => !named.has(index.name))
}

/**
 * Start-up refuses a table that holds `held` (its engine's lines, store/sqlite/schema.ts and
 * store/postgres/schema.ts) where `resource`'s must hold `wanted`, rather than answer 500s later:
 * it throws, naming the table missing or the first line it lacks, with what it has of the same
 * name instead. What else it holds does not matter.
 */
export function checkTable (resource: Resource, wanted: string[], held: string[]): void {
  const problem = (what: string): Error => new Error(`table ${resource.name} does not match the ${resource.singular} resource: ${what}`)
  if (held.length === 0) throw problem('the table does not exist')
  const has = new Set(held)
  const missing = wanted.find(line => !has.has(line))
  if (missing === undefined) return
  const words = missing.split(' ')
  // `column name`, `index name`, `foreign key name`...
  const subject = words.slice(0, words[0] === 'foreign' ? 3 : 2).join(' ')
  const instead = words[0] === 'unique' ? undefined : held.find(line => line.startsWith(`${subject} `))
  throw problem(`it lacks ${missing}${instead === undefined ? '' : ` (it has ${instead})`}`)
}
