import pg from 'pg'
import type { Dialect } from '../dialect.ts'
import { quote } from '../text.ts'
import { asciiLower } from '../../model/text.ts'
import { COLUMNS } from './columns.ts'

const { escapeLiteral } = pg

/** Field names as an SQL array of text. */
const names = (fields: readonly string[]): string => `ARRAY[${fields.map(escapeLiteral).join(', ')}]::text[]`

/**
 * PostgreSQL's side of store/collections.ts: `$n` parameters; the record a write changes locked
 * `FOR UPDATE`, a record it references `FOR KEY SHARE` (so that another instance cannot delete it
 * before the write commits); a unique field compared as `lower()` of its "C" column, which folds
 * A-Z only, as SQLite's NOCASE does, with the value folded alike; a list of values as one array
 * parameter of the kind's type; search words in columns of the table.
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
  oneOf: (expression, kind, values, params) => `${expression} = ANY(${params.add(values)}::${COLUMNS[kind].array}[])`,
  // Each field's words by its name (an update that sets some fields keeps the others' as they
  // are), and all of them as the lexemes of a tsvector as they are (no parser, no dictionary),
  // which a query of them as a tsquery of quoted prefixes matches: the words hold letters and
  // digits only.
  searchIndex: table => ({
    column: {
      names: ['search_words', 'search'],
      // jsonb_object of two arrays, not jsonb_build_object: that takes at most 100 arguments, 50 fields.
      values: (fields, words) => {
        const texts = `ARRAY[${words.map(expression => `${expression}::text`).join(', ')}]`
        return [
          `jsonb_object(${names(fields)}, ${texts})`,
          `array_to_tsvector(array_remove(string_to_array(array_to_string(${texts}, ' '), ' '), ''))`
        ]
      },
      kept: field => `search_words ->> ${escapeLiteral(field)}`,
      everyKept: fields => `search_words ?& ${names(fields)}`
    },
    given: {
      from: (ids, words) => `unnest(${ids}::bigint[], ${words}::text[]) AS given (id, words)`,
      on: `${quote(table)}.id = given.id`,
      field: index => `split_part(given.words, E'\\t', ${index + 1})`
    },
    match: (words, params) => `search @@ ${params.add(words.map(w => `'${w}':*`).join(' & '))}::tsquery`,
    unindexed: () => 'search_words IS NULL'
  })
}
