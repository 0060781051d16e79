import pg from 'pg'
import type { Dialect } from '../dialect.ts'
import { identifier, join, raw, sql } from '../sql.ts'
import { asciiLower } from '../../model/text.ts'
import { COLUMNS } from './columns.ts'

const { escapeLiteral } = pg

/** Field names as an SQL array of text. */
const names = (fields: readonly string[]): string => `ARRAY[${fields.map(escapeLiteral).join(', ')}]::text[]`

/**
 * PostgreSQL's side of store/collection-sql.ts: `$n` parameters, row locks (`FOR UPDATE`, a
 * referenced record `FOR KEY SHARE`), a unique field as `lower()` of its "C" column (A-Z folded,
 * as NOCASE), a list of values as one array parameter, search words in columns of the table.
 */
export const POSTGRES: Dialect = {
  placeholder: n => `$${n}`,
  bind: (_kind, value) => value,
  read: (_kind, stored) => stored,
  forUpdate: raw(' FOR UPDATE'),
  forKeyShare: raw(' FOR KEY SHARE'),
  distinct: raw('IS DISTINCT FROM'),
  folded: column => sql`lower(${column})`,
  fold: value => typeof value === 'string' ? asciiLower(value) : value,
  // Every text column is "C".
  codePoints: column => column,
  oneOf: (expression, kind, values) => sql`${expression} = ANY(${values}::${raw(COLUMNS[kind].array)}[])`,
  // Each field's words by its name (an update that sets some fields keeps the others' as they
  // are), and all of them as the lexemes of a tsvector as they are (no parser, no dictionary),
  // which a query of them as a tsquery of quoted prefixes matches: the words hold letters and
  // digits only.
  searchIndex: table => ({
    column: {
      names: ['search_words', 'search'],
      // jsonb_object of two arrays, not jsonb_build_object: that takes at most 100 arguments, 50 fields.
      values: (fields, words) => {
        const texts = sql`ARRAY[${join(words.map(expression => sql`${expression}::text`), ', ')}]`
        return [
          sql`jsonb_object(${raw(names(fields))}, ${texts})`,
          sql`array_to_tsvector(array_remove(string_to_array(array_to_string(${texts}, ' '), ' '), ''))`
        ]
      },
      kept: field => raw(`search_words ->> ${escapeLiteral(field)}`),
      everyKept: fields => raw(`search_words ?& ${names(fields)}`)
    },
    given: {
      // Named apart from any field: a rule's conditions, returned by the same update, name the table's columns unqualified.
      from: (ids, words) => sql`unnest(${ids}::bigint[], ${words}::text[]) AS given (given_id, given_words)`,
      on: sql`${identifier(table)}.id = given.given_id`,
      field: index => raw(`split_part(given.given_words, E'\\t', ${index + 1})`)
    },
    match: words => sql`search @@ ${words.map(w => `'${w}':*`).join(' & ')}::tsquery`,
    unindexed: () => raw('search_words IS NULL')
  })
}
