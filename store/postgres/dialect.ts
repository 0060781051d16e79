import { KINDS } from '../../collections/kinds.ts'
import type { Dialect } from '../collections.ts'
import { asciiLower, quote } from '../text.ts'

/**
 * PostgreSQL's side of store/collections.ts: `$n` parameters; the record a write changes locked
 * `FOR UPDATE`, a record it references `FOR KEY SHARE` (so that another instance cannot delete it
 * before the write commits); a unique field compared as `lower()` of its "C" column, which folds
 * A-Z only, as SQLite's NOCASE does, with the value folded alike; a list of values as one array
 * parameter of the kind's type; search words in a tsvector column of the table.
 */
export const POSTGRES: Dialect = {
  placeholder: n => `$${n}`,
  bind: (_kind, value) => value,
  read: (_kind, stored) => stored,
  forUpdate: ' FOR UPDATE',
  forKeyShare: ' FOR KEY SHARE',
  distinct: 'IS DISTINCT FROM',
  folded: column => `lower(${column})`,
  fold: value => typeof value === 'string' ? asciiLower(value) : value,
  oneOf: (expression, kind, values, params) => `${expression} = ANY(${params.add(values)}::${KINDS[kind].postgres.array}[])`,
  // The words as the lexemes of a tsvector as they are (no parser, no dictionary), a query of
  // them as a tsquery of quoted prefixes: the words hold letters and digits only.
  searchIndex: table => ({
    column: { name: 'search', value: placeholder => `array_to_tsvector(string_to_array(${placeholder}::text, ' '))` },
    given: {
      from: (ids, words) => `unnest(${ids}::bigint[], ${words}::text[]) AS given (id, words)`,
      on: `${quote(table)}.id = given.id`,
      value: "array_to_tsvector(string_to_array(given.words, ' '))"
    },
    match: (words, params) => `search @@ ${params.add(words.map(w => `'${w}':*`).join(' & '))}::tsquery`,
    unindexed: () => 'search IS NULL'
  })
}
