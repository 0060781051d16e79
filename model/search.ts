/*
 * Full-text search (`q=`), as both engines answer it. A word is a run of letters and digits,
 * compared without regard to case or diacritics: `Zürich` is the word `zurich`, and so is
 * `ZURICH`. A record matches a query when every word of the query begins a word of one of the
 * record's text fields.
 *
 * The words are made here, in one function, for the record as it is written and for the query
 * as it is read, and the engines only compare them: SQLite's FTS5 (its `ascii` tokenizer splits
 * the words written here at their spaces and changes nothing else) and PostgreSQL's tsvector
 * (made of the words as they are, by `array_to_tsvector`, queried by a tsquery of them). Neither
 * engine's own notion of a word, a letter or a diacritic is used, so both find exactly the same
 * records, and the kept totals tell in memory whether a record matches (AppliedTotals, store/kept-totals.ts).
 *
 * A word is kept, and searched for, by its first MAX_WORD_LENGTH characters: PostgreSQL refuses a
 * word of more than 2,047 bytes, in a tsvector as in a tsquery, and a text field of 200 characters
 * may make one of 3,600 (`㌖` decomposes to `キロメートル`). Whatever matched still matches once
 * both words are cut: a query word that begins a record's word is either no longer than the cut,
 * and begins the record's word cut, or is cut to the same characters. What it costs is a rare
 * extra match: a query word longer than the cut matches every word that shares its first
 * MAX_WORD_LENGTH characters. By the same reasoning, a query word cut begins a word kept whole
 * (in SQLite's FTS5 tables, written before words were cut) exactly when it begins that word cut:
 * those need not be made again.
 */

/** At most this many words in `q`: each is one more index lookup. */
export const MAX_QUERY_WORDS = 10

/** The characters (code points) of a word that are kept: of 4 bytes of UTF-8 at most each, half PostgreSQL's bound. */
const MAX_WORD_LENGTH = 255

const MARKS = /\p{M}+/gu
const SEPARATORS = /[^\p{L}\p{N}]+/u

/**
 * The words of a text: lower-cased, decomposed (NFKD: `ü` is `u` and a combining diaeresis, `ﬁ`
 * is `fi`), its combining marks dropped, lower-cased again (a decomposition may hold capitals:
 * `㎆` is `MB`), split at whatever is no letter or digit, each cut to MAX_WORD_LENGTH characters.
 */
export function wordsOf (text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(MARKS, '').toLowerCase().split(SEPARATORS).filter(word => word !== '').map(cut)
}

/** A word's first MAX_WORD_LENGTH characters: code points, never half of a surrogate pair. */
const cut = (word: string): string => word.length <= MAX_WORD_LENGTH ? word : [...word].slice(0, MAX_WORD_LENGTH).join('')

/** The distinct words of a record's searched fields (`resource.search`), in the order they first appear. */
export function recordWords (fields: readonly string[], record: Readonly<Record<string, unknown>>): string[] {
  const words = new Set<string>()
  for (const field of fields) {
    const value = record[field]
    if (typeof value === 'string') for (const word of wordsOf(value)) words.add(word)
  }
  return [...words]
}

/** Whether a record with `words` matches a query of `wanted`: each wanted word begins one of its words. */
export const matchesWords = (words: readonly string[], wanted: readonly string[]): boolean =>
  wanted.every(prefix => words.some(word => word.startsWith(prefix)))
