import type { Column, Resource } from '../../model/resource.ts'
import { checkTable, declaredIndexes, groupIndexes, sortIndexes, type TableIndex } from '../tables.ts'
import type { SqliteDatabase } from './database.ts'
import { searchTable } from './dialect.ts'
import { COLUMNS } from './columns.ts'

/*
 * A collection's table in SQLite (store/tables.ts): STRICT; `AUTOINCREMENT`, so a deleted id is
 * never handed out again; a unique field `COLLATE NOCASE UNIQUE`; references `ON DELETE RESTRICT`.
 */

/** A column's definition in CREATE TABLE. */
function columnDefinition (resource: Resource, column: Column): string {
  if (column.name === 'id') return 'id INTEGER PRIMARY KEY AUTOINCREMENT'
  return [
    column.name,
    COLUMNS[column.kind].type,
    ...(column.nullable ? [] : ['NOT NULL']),
    ...(resource.unique.includes(column.name) ? ['COLLATE NOCASE UNIQUE'] : []),
    ...(column.references === undefined ? [] : [`REFERENCES ${column.references} (id) ON DELETE RESTRICT`])
  ].join(' ')
}

/** The indexes of the table, as SQLite keeps them: a unique column's own index already leads with it. */
const indexesOf = (resource: Resource): TableIndex[] => [
  ...sortIndexes(resource).filter(index => !resource.unique.includes(index.columns[0] as string)),
  ...groupIndexes(resource),
  ...declaredIndexes(resource)
]

const createIndex = (resource: Resource, index: TableIndex): string =>
  `CREATE INDEX ${index.name} ON ${resource.name} (${index.columns.join(', ')});`

/** An index as `tableFacts` reads it: its columns, a unique one's with its collation. */
const indexFact = (resource: Resource, index: TableIndex): string =>
  `index ${index.name} (${index.columns.map(c => resource.unique.includes(c) ? `${c} COLLATE NOCASE` : c).join(', ')})`

/**
 * The names of the indexes of `resource` that a table holding `held` (tableFacts) has none of by
 * their name, of columns it has (one of a column it lacks is said by what it lacks).
 */
export const missingIndexes = (resource: Resource, held: string[]): string[] => indexesOf(resource)
  .filter(index => !held.some(line => line.startsWith(`index ${index.name} `)) &&
    index.columns.every(column => held.some(line => line.startsWith(`column ${column} `))))
  .map(index => index.name)

/** The SQL that makes the indexes of `resource` named `names`. */
export const createIndexes = (resource: Resource, names: string[]): string =>
  indexesOf(resource).filter(index => names.includes(index.name)).map(index => createIndex(resource, index)).join('\n')

/** The FTS5 table of a collection's search words, or none without text fields (docs/architecture.md, "Search words on SQLite"). */
export const createSearchTable = (resource: Resource): string[] => resource.search.length === 0
  ? []
  : [`CREATE VIRTUAL TABLE ${searchTable(resource.name)} USING fts5(words, content = '', contentless_delete = 1, ` +
    "tokenize = 'ascii', detail = 'column', prefix = '1 2 3 4 5 6');"]

/** The SQL that makes a collection's table, its indexes and its search words' table. */
export function createTable (resource: Resource): string {
  const columns = [...resource.columns.map(c => columnDefinition(resource, c)), 'version INTEGER NOT NULL DEFAULT 1']
  return [
    `CREATE TABLE ${resource.name} (\n  ${columns.join(',\n  ')}\n) STRICT;`,
    ...indexesOf(resource).map(index => createIndex(resource, index)),
    ...createSearchTable(resource)
  ].join('\n')
}

/** The SQL that adds a field to a collection's table, with its indexes (one store/migration-plan.ts can add). */
export function addColumn (resource: Resource, column: Column): string {
  const indexes = indexesOf(resource).filter(index => index.columns.includes(column.name))
  const add = `ALTER TABLE ${resource.name} ADD COLUMN ${columnDefinition(resource, column)};`
  return [add, ...indexes.map(i => createIndex(resource, i))].join('\n')
}

/** What the table of `resource` must hold, each a line as `tableFacts` reads it from a database. */
export function wantedFacts (resource: Resource): string[] {
  return [
    'table STRICT',
    ...resource.columns.map(c => c.name === 'id'
      ? 'column id INTEGER PRIMARY KEY AUTOINCREMENT'
      : `column ${c.name} ${COLUMNS[c.kind].type}${c.nullable ? '' : ' NOT NULL'}`),
    'column version INTEGER NOT NULL DEFAULT 1',
    ...resource.columns.filter(c => c.references !== undefined)
      .map(c => `foreign key ${c.name} REFERENCES ${c.references as string} (id) ON DELETE RESTRICT`),
    ...resource.unique.map(field => `unique (${field} COLLATE NOCASE)`),
    // An index takes the collation of its columns: a unique one's is NOCASE.
    ...indexesOf(resource).map(index => indexFact(resource, index)),
    ...createSearchTable(resource).map(sql => `search ${sql.slice(0, -1)}`)
  ]
}

interface TableColumn { name: string, type: string, notnull: number, dflt_value: string | null, pk: number, hidden: number }
interface ForeignKey { table: string, from: string, to: string | null, on_delete: string }
interface IndexListing { name: string, unique: number, origin: string, partial: number }
interface IndexColumn { name: string | null, coll: string, key: number, desc: number }

/** The indexes of a table as SQLite lists them, with their key columns; no partial one, which no store made. */
export function indexesIn (db: SqliteDatabase, table: string): { name: string, origin: string, keys: IndexColumn[] }[] {
  return (db.pragma(`index_list("${table}")`) as IndexListing[]).filter(index => index.partial !== 1).map(({ name, origin }) =>
    ({ name, origin, keys: (db.pragma(`index_xinfo("${name}")`) as IndexColumn[]).filter(k => k.key === 1) }))
}

/** What a table of the database holds, in the lines of `wantedFacts`; none when there is no such table. */
export function tableFacts (db: SqliteDatabase, table: string): string[] {
  const listed = db.pragma(`table_list("${table}")`) as { name: string, strict: number }[]
  if (listed.length === 0) return []
  const facts: string[] = listed[0]?.strict === 1 ? ['table STRICT'] : []
  const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(table) as string | undefined) ?? ''
  for (const c of db.pragma(`table_xinfo("${table}")`) as TableColumn[]) {
    if (c.hidden !== 0) continue
    if (c.pk === 1) {
      facts.push(`column ${c.name} ${c.type} PRIMARY KEY${/\bAUTOINCREMENT\b/i.test(sql) ? ' AUTOINCREMENT' : ''}`)
      continue
    }
    facts.push(`column ${c.name} ${c.type}${c.notnull === 1 ? ' NOT NULL' : ''}${c.dflt_value === null ? '' : ` DEFAULT ${c.dflt_value}`}`)
  }
  for (const k of db.pragma(`foreign_key_list("${table}")`) as ForeignKey[]) {
    facts.push(`foreign key ${k.from} REFERENCES ${k.table} (${k.to ?? 'id'}) ON DELETE ${k.on_delete}`)
  }
  for (const index of indexesIn(db, table)) {
    if (index.origin === 'pk') continue
    const columns = index.keys.map(k =>
      `${k.name ?? '(expression)'}${k.coll === 'BINARY' ? '' : ` COLLATE ${k.coll}`}${k.desc === 1 ? ' DESC' : ''}`)
    facts.push(index.origin === 'u' ? `unique (${columns.join(', ')})` : `index ${index.name} (${columns.join(', ')})`)
  }
  const search = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(searchTable(table))
  if (typeof search === 'string') facts.push(`search ${search}`)
  return facts
}

/** Start-up refuses a database whose tables lack anything their resources need (store/tables.ts). */
export function checkTables (db: SqliteDatabase, resources: Resource[]): void {
  for (const resource of resources) checkTable(resource, wantedFacts(resource), tableFacts(db, resource.name))
}
