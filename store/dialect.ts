import type { KindName, Scalar, Value } from '../model/kinds.ts'
import type { Sql } from './sql.ts'

/*
 * The engine's side of the collection SQL (store/collection-sql.ts), which each engine implements
 * once (store/sqlite/dialect.ts, store/postgres/dialect.ts): what the SQL of the two engines says
 * apart.
 */

/** What an engine says apart: how statements name their parameters, lock rows and compare values. */
export interface Dialect {
  /** The text of the `n`th parameter of a statement, from 1: `?` or `$n`. */
  placeholder (n: number): string
  /** A value of a kind as bound to a statement; text goes through `storable` first. */
  bind (kind: KindName, value: Value): Value
  /** A value of a kind as read back from a row. */
  read (kind: KindName, stored: Scalar): Scalar
  /**
   * Appended to the read of the record a write changes: what locks it until the write commits
   * (nothing where the transaction holds the whole database).
   */
  forUpdate: Sql
  /** Appended to the read of a referenced record: what keeps it from being deleted until the write commits. */
  forKeyShare: Sql
  /** The null-safe "differs from": `IS NOT`, `IS DISTINCT FROM`. */
  distinct: Sql
  /** A unique field's column as it compares, case-insensitively (SQLite's NOCASE column as it is; PostgreSQL's `lower()`). */
  folded (column: Sql): Sql
  /** A value as a folded column compares with it. */
  fold (value: Value): Value
  /** A text column as it compares by code points, whatever its collation (a unique one's is NOCASE on SQLite). */
  codePoints (column: Sql): Sql
  /** The condition "`expression` is one of `values`". */
  oneOf (expression: Sql, kind: KindName, values: Value[]): Sql
  /** Where and how the search words of a collection's records are kept (`q`, model/search.ts). */
  searchIndex (table: string): SearchIndex
}

/**
 * The search words of a collection's records, kept in the write's own transaction: in columns of
 * the table (PostgreSQL: each field's words, and a tsvector of them all), or in a table apart
 * (SQLite's FTS5, the words bound as one text, separated by spaces).
 */
export interface SearchIndex {
  /**
   * The columns of the table that hold them, and their values made of the searched `fields`
   * (`resource.search`) and their `words`: an SQL text expression each, its words separated by
   * spaces. An update that sets some of those fields takes the others' words as the record keeps
   * them, `kept(field)`, without reading the record first; `everyKept(fields)` is the condition
   * that it keeps those (it does not while it waits to be indexed, `unindexed`, nor a field made
   * searched since it was written). Kept by the field's name, not its place: a field added or
   * moved in the resource leaves the words kept of the others as they are.
   */
  column?: {
    names: string[]
    values (fields: readonly string[], words: Sql[]): Sql[]
    kept (field: string): Sql
    everyKept (fields: string[]): Sql
  }
  /** The statements that keep a table apart: `put` a record's words after an insert (an update removes first), `remove` them. */
  apart?: { put (id: number, words: string): Sql, remove (id: number): Sql }
  /**
   * With columns: how a statement sets the words of many records at once, each its own. `from`
   * lists the given `ids` and their `words` (two array parameters; a record's words are its
   * fields' words separated by a tab), `on` joins them to the table, `field(i)` is the words of a
   * pair's searched field i.
   */
  given?: { from (ids: number[], words: string[]): Sql, on: Sql, field (index: number): Sql }
  /** The condition "every word of `words` begins a word of the record". */
  match (words: string[]): Sql
  /** The condition of the records whose words are not kept yet (rows written before the index was), among those after the id `after`. */
  unindexed (after: number): Sql
}
