import { Kind, Type, type TSchema } from '@sinclair/typebox'
import { DateSchema, SafeInteger, TimestampSchema } from './values.ts'
import { asciiLower, compareCodePoints } from './text.ts'

/** A value of a field: what JSON carries and the stores compare. */
export type Scalar = string | number | boolean | null
export type Value = Exclude<Scalar, null>

/** Orders two non-null values of one field the way both databases compare them. */
export type Comparator = (a: Value, b: Value) => number

export const FILTER_OPERATORS = ['gt', 'gte', 'lt', 'lte', 'ne', 'in'] as const
/** `search` is `q`, the full-text search of model/search.ts: its value is the words of the query. */
export type FilterOperator = 'eq' | typeof FILTER_OPERATORS[number] | 'search'

/**
 * What one kind of field is, everywhere the generic collection code meets it: how a resource
 * declares it, how a query string filters on it, how its values compare. Adding a kind is one
 * entry of KINDS and one of each engine's column types (store/sqlite/columns.ts,
 * store/postgres/columns.ts): the compiler points at any member left out.
 */
export interface FieldKind {
  /** Whether a field's TypeBox schema (optional and `| null` taken off) is of this kind; tried in KINDS' order. */
  declared (schema: TSchema): boolean
  /** The schema of one value of a filter on the field, in the query string (converted from text by the validator). */
  query (schema: TSchema): TSchema
  /** The pattern of an `_in` list of values; none where a value may hold a comma. */
  inList (schema: TSchema): string | undefined
  /** The filter operators the field takes besides equality. */
  operators: readonly Exclude<FilterOperator, 'eq' | 'search'>[]
  /** A validated query-string value (or a part of an `_in` list) as the stores compare it; throws the reason it is refused. */
  parse (raw: string): Value
  /** Whether a value read back from a cursor can be one of the field's. */
  valid (value: unknown): boolean
  compare: Comparator
  /**
   * The n-th valid value of a field of this kind under its schema's rules (bounds, lengths,
   * formats): values with another n differ, so a unique field can take them; a text names its
   * `field`. What the collection tests make records of, for any collection.
   */
  sample (schema: TSchema, n: number, field: string): Value
}

export type KindName = 'reference' | 'integer' | 'number' | 'boolean' | 'date' | 'timestamp' | 'enum' | 'string'

/** The largest integer JSON keeps exact; both engines refuse larger ones in their integer columns. */
const SAFE = Number.MAX_SAFE_INTEGER

/** Numbers by value; false before true. */
const compareNumbers: Comparator = (a, b) => Number(a) - Number(b)

const compareText: Comparator = (a, b) => compareCodePoints(a as string, b as string)

/** How a unique (case-insensitive) text field compares: SQLite's NOCASE, PostgreSQL's `lower()` of a "C" column. */
export const compareAsciiCaseInsensitive: Comparator = (a, b) => compareCodePoints(asciiLower(a as string), asciiLower(b as string))

const isText = (value: unknown): value is string => typeof value === 'string' && !value.includes('\u0000')

function integer (raw: string): number {
  const value = Number(raw)
  if (!Number.isSafeInteger(value)) throw new Error(`${raw} is not an integer from -${SAFE} to ${SAFE}`)
  return value
}

/** A list of `item` separated by commas. */
const commaList = (item: string): string => `^${item}(,${item})*$`
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

const TIMESTAMP = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})'
const ALL = ['gt', 'gte', 'lt', 'lte', 'ne', 'in'] as const

/** The string literals of a union of them (an enum field), or undefined. */
export function literals (schema: TSchema): string[] | undefined {
  if (schema[Kind] !== 'Union') return undefined
  const members = schema.anyOf as TSchema[]
  return members.every(m => m[Kind] === 'Literal' && typeof m.const === 'string') ? members.map(m => m.const as string) : undefined
}

/** A bound of a numeric schema, when it has one. */
const bound = (schema: TSchema, name: 'minimum' | 'maximum'): number | undefined =>
  typeof schema[name] === 'number' ? schema[name] as number : undefined

/** `offset` past the schema's minimum (0 without one), no higher than its maximum. */
const withinBounds = (schema: TSchema, offset: number): number =>
  Math.min((bound(schema, 'minimum') ?? 0) + offset, bound(schema, 'maximum') ?? Infinity)

const integerKind = {
  query: () => SafeInteger(),
  inList: () => commaList('-?\\d+'),
  operators: ALL,
  parse: integer,
  valid: (value: unknown) => Number.isSafeInteger(value),
  compare: compareNumbers,
  sample: (schema: TSchema, n: number) => withinBounds(schema, n + 1)
} as const

const textKind = {
  operators: ALL,
  parse: (raw: string) => {
    if (!isText(raw)) throw new Error('a value must not contain a null byte')
    return raw
  },
  valid: isText,
  compare: compareText
} as const

/**
 * Every kind, in the order a field's schema is matched against them. A reference is an integer
 * field named in the resource's `references` (resource.ts decides that one before these).
 */
export const KINDS: Record<KindName, FieldKind> = {
  reference: { ...integerKind, declared: () => false },
  integer: { ...integerKind, declared: schema => schema[Kind] === 'Integer' },
  number: {
    declared: schema => schema[Kind] === 'Number',
    query: () => Type.Number(),
    inList: () => commaList('-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?'),
    operators: ALL,
    parse: raw => {
      const value = Number(raw)
      if (!Number.isFinite(value)) throw new Error(`${raw} is not a finite number`)
      return value
    },
    valid: value => typeof value === 'number' && Number.isFinite(value),
    compare: compareNumbers,
    sample: (schema, n) => withinBounds(schema, n + 0.5)
  },
  boolean: {
    declared: schema => schema[Kind] === 'Boolean',
    query: () => Type.Boolean(),
    inList: () => commaList('(true|false)'),
    // An order of two values: equality, difference and a list are what a filter can ask.
    operators: ['ne', 'in'],
    parse: raw => {
      if (raw !== 'true' && raw !== 'false') throw new Error(`${raw} is not true or false`)
      return raw === 'true'
    },
    valid: value => typeof value === 'boolean',
    compare: compareNumbers,
    sample: (_, n) => n % 2 === 0
  },
  date: {
    ...textKind,
    declared: schema => schema[Kind] === 'String' && schema.format === 'date',
    query: () => DateSchema,
    inList: () => commaList('\\d{4}-\\d{2}-\\d{2}'),
    sample: (_, n) => `20${String(10 + (n % 80)).padStart(2, '0')}-0${1 + (n % 9)}-1${n % 10}`
  },
  timestamp: {
    ...textKind,
    declared: schema => schema[Kind] === 'String' && schema.format === 'date-time',
    query: () => TimestampSchema,
    inList: () => commaList(TIMESTAMP),
    sample: (_, n) => new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)).toISOString(),
    // Stored as toISOString(): an equal instant written another way must compare equal.
    parse: raw => {
      const time = new Date(raw)
      if (Number.isNaN(time.getTime())) throw new Error(`"${raw}" is not a valid RFC 3339 timestamp`)
      return time.toISOString()
    }
  },
  enum: {
    ...textKind,
    declared: schema => literals(schema) !== undefined,
    query: schema => Type.Union((literals(schema) ?? []).map(value => Type.Literal(value))),
    inList: schema => commaList(`(${(literals(schema) ?? []).map(escapeRegExp).join('|')})`),
    sample: (schema, n) => {
      const values = literals(schema) ?? []
      return values[n % values.length] as string
    }
  },
  string: {
    ...textKind,
    declared: schema => schema[Kind] === 'String',
    query: () => Type.String(),
    inList: () => undefined,
    sample: (schema, n, field) => {
      const values = schema.enum as string[] | undefined
      if (values !== undefined) return values[n % values.length] as string
      if (schema.format === 'email') return `sample${n}@example.org`
      const text = `Sample ${field} ${n}`
      const least = typeof schema.minLength === 'number' ? schema.minLength : 0
      const most = typeof schema.maxLength === 'number' ? schema.maxLength : text.length
      return text.padEnd(least, 'x').slice(Math.max(0, text.length - most))
    }
  }
}
