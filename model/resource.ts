import {
  Kind, OptionalKind, Type, TypeGuard,
  type TObject, type TProperties, type TSchema
} from '@sinclair/typebox'
import { IdSchema, PAGE_SIZE, SafeInteger, TimestampSchema } from './values.ts'
import { compareAsciiCaseInsensitive, FILTER_OPERATORS, KINDS, literals, type Comparator, type KindName } from './kinds.ts'
import { MAX_QUERY_WORDS } from './search.ts'
import { accessOf, type Access, type AccessSpec } from './access.ts'
import type { Column } from './column.ts'

export type { Scalar } from './kinds.ts'
export type { Column, ResourceRecord } from './column.ts'
export type { FilterOperator } from './kinds.ts'

export interface ResourceSpec {
  /** Plural name: URL segment, table name and scope prefix. */
  name: string
  singular: string
  /**
   * The writable fields, each of a kind of model/kinds.ts: `Type.String` (with lengths, a
   * pattern or `enum`), an integer (`SafeInteger` of values.ts), `Type.Number`, `Type.Boolean`, a
   * date or timestamp (`DateSchema`, `TimestampSchema`), an enum (`Type.Union` of `Type.Literal`
   * strings), and a reference (an integer named in `references`). `Type.Optional` marks a field
   * that may be left out; it is then null, so it must also be `Nullable`.
   */
  fields: TProperties
  /** Fields that must name a live record of another collection: field -> collection name. */
  references?: Record<string, string>
  /** Fields whose value is unique within the collection (case-insensitive), for clear 422s. */
  unique?: string[]
  /**
   * Indexes beyond those every collection has (store/tables.ts), each the fields it is led by, in
   * order: for the queries its clients ask most that those do not serve, such as an aggregate's
   * group and measure (`[['species', 'born_on']]`: docs/aggregates.md). `npm run migrations` makes them.
   */
  indexes?: string[][]
  /**
   * Who may see and change which records and fields (model/access.ts, docs/access-rules.md);
   * none: every token with the collection's scope, all of them.
   */
  access?: AccessSpec
}

/**
 * Everything the generic collection code needs, derived from one TypeBox description: the
 * bodies it validates, the record it serializes, the columns filters and sorts may name and
 * the querystring of its list route.
 */
export interface Resource {
  name: string
  singular: string
  references: Record<string, string>
  unique: string[]
  /** The indexes the resource asks for beyond those every collection has (ResourceSpec.indexes). */
  indexes: string[][]
  /** The access rules; undefined: a token with the collection's scope sees and writes every record and field. */
  access: Access | undefined
  /** The text fields `q` searches (model/search.ts); none: the collection takes no `q`. */
  search: string[]
  /** Writable fields in declaration order (OPTIONS `writable`). */
  writable: string[]
  /** Every column: id, the writable fields, created_at, updated_at. */
  columns: Column[]
  schemas: {
    record: TObject
    create: TObject
    replace: TObject
    patch: TObject
    list: TObject
    /** The querystring of a change of many records: the list's filters and q, nothing else. */
    filters: TObject
    /** The querystring of a one-record read. */
    read: TObject
  }
}

/**
 * Names a field cannot have: the query parameters of a list (a filter on the field is a parameter
 * of its name) and the columns the stores keep beside the fields.
 */
const RESERVED = [
  'limit', 'offset', 'page', 'per_page', 'sortby', 'order', 'cursor', 'q', 'fields', 'embed', 'version', 'search', 'search_words'
]

const READ_ONLY: TProperties = { id: IdSchema, created_at: TimestampSchema, updated_at: TimestampSchema }

/** Strips the Optional marker and a `| null` union: what remains names the kind. */
function columnOf (name: string, schema: TSchema, readOnly: boolean, references: Record<string, string>): Column {
  let inner = schema
  let nullable = false
  if (inner[Kind] === 'Union' && literals(inner) === undefined) {
    const members = (inner.anyOf as TSchema[]).filter(s => s[Kind] !== 'Null')
    nullable = members.length < (inner.anyOf as TSchema[]).length
    if (members.length !== 1) throw new Error(`field ${name}: only "T | null" unions (and unions of string literals) are supported`)
    inner = members[0] as TSchema
  }
  const target = references[name]
  if (target !== undefined) {
    if (inner[Kind] !== 'Integer') throw new Error(`field ${name}: a reference is an integer (an id of ${target})`)
    return { name, kind: 'reference', nullable, readOnly, schema: inner, references: target }
  }
  const kind = (Object.keys(KINDS) as KindName[]).find(k => KINDS[k].declared(inner))
  if (kind === undefined) throw new Error(`field ${name}: unsupported schema kind ${String(inner[Kind])}`)
  return { name, kind, nullable, readOnly, schema: inner }
}

function filterParameters (column: Column): TProperties {
  const kind = KINDS[column.kind]
  const value = kind.query(column.schema)
  const equality = column.nullable
    ? Type.Union([value, Type.Literal('null')], { description: `${column.name} equals this value; "null" matches records without one` })
    : { ...value, description: `${column.name} equals this value` }
  const parameters: TProperties = { [column.name]: equality }
  for (const op of FILTER_OPERATORS.filter(op => kind.operators.includes(op))) {
    const list = kind.inList(column.schema)
    parameters[`${column.name}_${op}`] = op === 'in'
      ? Type.String({
        minLength: 1,
        ...(list === undefined ? {} : { pattern: list }),
        description: `${column.name} is one of these comma-separated ${column.kind} values`
      })
      : op === 'ne'
        ? { ...equality, description: `${column.name} differs from this value` }
        : { ...value, description: `${column.name} ${op} this value` }
  }
  return parameters
}

/** `fields`: the fields a read answers (with id), as a comma list of `columns`. */
function fieldsParameter (columns: Column[]): TSchema {
  const names = columns.map(c => c.name).join('|')
  return Type.String({
    pattern: `^(${names})(,(${names}))*$`,
    description: `Comma-separated fields to answer, from: ${columns.map(c => c.name).join(', ')}; ` +
      'id is always answered (default: every field)'
  })
}

/** `q`, when the resource has text fields to search. */
const searchParameter = (search: string[]) => search.length === 0
  ? {}
  : {
      q: Type.String({
        minLength: 1,
        maxLength: 200,
        description: `Full-text search of ${search.join(', ')}: records in which every word of q ` +
          `(up to ${MAX_QUERY_WORDS}) begins a word, ` +
          'whatever the case and diacritics; a word is a run of letters and digits'
      })
    }

const filtersAllowed = (columns: Column[]): string =>
  `filters <field>, <field>_gt, _gte, _lt, _lte, _ne, _in on the fields ${columns.map(c => c.name).join(', ')} ` +
  '(a boolean takes _ne and _in only)'

/** The parameters that choose records: `q` and the filters of every field. */
const filterProperties = (columns: Column[], search: string[]): Record<string, TSchema> =>
  ({ ...searchParameter(search), ...Object.assign({}, ...columns.map(filterParameters)) })

function filterQuerySchema (columns: Column[], search: string[]): TObject {
  return Type.Partial(Type.Object(filterProperties(columns, search)), {
    additionalProperties: false,
    description: `Allowed: ${search.length === 0 ? '' : 'q and '}${filtersAllowed(columns)}`
  })
}

/** The furthest page a list takes. */
const LAST_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / PAGE_SIZE.max)

function listQuerySchema (columns: Column[], search: string[]): TObject {
  const names = columns.map(c => c.name).join('|')
  const fieldList = columns.map(c => c.name).join(', ')
  return Type.Partial(Type.Object({
    limit: SafeInteger({
      minimum: 1,
      maximum: PAGE_SIZE.max,
      description: `Records per answer, 1 to ${PAGE_SIZE.max} (default ${PAGE_SIZE.default}); goes with offset`
    }),
    offset: SafeInteger({ minimum: 0, description: 'Records to skip (default 0); goes with limit' }),
    // Its first record, (page − 1) × per_page, stays a safe integer whatever per_page.
    page: SafeInteger({ minimum: 1, maximum: LAST_PAGE, description: 'Page number from 1 (default 1); goes with per_page' }),
    per_page: SafeInteger({
      minimum: 1,
      maximum: PAGE_SIZE.max,
      description: `Records per page, 1 to ${PAGE_SIZE.max} (default ${PAGE_SIZE.default}); goes with page`
    }),
    sortby: Type.String({
      pattern: `^(${names})(,(${names}))*$`,
      description: `Comma-separated fields to sort by, from: ${fieldList} (default id)`
    }),
    order: Type.String({
      pattern: '^(asc|desc)(,(asc|desc))*$',
      description: 'asc or desc: one for all sortby fields, or one per field (default asc)'
    }),
    cursor: Type.String({
      pattern: '^[A-Za-z0-9_-]+$',
      maxLength: 4096,
      description: 'Opaque keyset cursor from a Link header; replaces offset and page'
    }),
    fields: fieldsParameter(columns),
    ...filterProperties(columns, search)
  }), {
    additionalProperties: false,
    description: `Allowed: limit and offset, or page and per_page; sortby, order, cursor; fields${search.length === 0 ? '' : '; q'}; ` +
      `and ${filtersAllowed(columns)}`
  })
}

/**
 * A field of the record as answers serialize it. `T | null` becomes one schema whose `type` lists
 * both (the same values, JSON Schema 2020-12 and OpenAPI 3.1 alike): fast-json-stringify picks the
 * branch of an `anyOf` by running the validator on the value, a format check per nullable field of
 * every record of a page, where a list of types is one `typeof` test.
 */
function serializable (schema: TSchema): TSchema {
  const values = literals(schema)
  // An enum is a string with its values: one test, where an `anyOf` of constants is one per value.
  if (values !== undefined) return Type.Unsafe({ type: 'string', enum: values })
  if (schema[Kind] !== 'Union') return schema
  const { anyOf, ...options } = schema as TSchema & { anyOf: TSchema[] }
  const member = anyOf.find(s => s[Kind] !== 'Null') as TSchema
  const inner = literals(member) === undefined ? member : serializable(member)
  // Keywords of one type (format, pattern, minimum) let null through; an enum must list it.
  const nullable = inner.enum === undefined ? {} : { enum: [...inner.enum, null] }
  return Type.Unsafe({ ...inner, ...options, type: [inner.type, 'null'], ...nullable })
}

/** `item` -> `Item`: operation ids and component names are built from resource names. */
export const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1)

const AND = new Intl.ListFormat('en', { type: 'conjunction' })

/** The collections' names as a sentence says them (`a, b, and c`), for descriptions made from the resources. */
export const namesOf = (resources: readonly Resource[]): string => AND.format(resources.map(resource => resource.name))

/** Each resource after those it references (a cycle is refused, naming it), else in the order given. */
export function referencedFirst (resources: readonly Resource[]): Resource[] {
  const ordered: Resource[] = []
  const visit = (resource: Resource, path: string[]): void => {
    if (ordered.includes(resource)) return
    if (path.includes(resource.name)) throw new Error(`the references of ${[...path, resource.name].join(' -> ')} go round`)
    for (const target of Object.values(resource.references)) {
      const referenced = resources.find(r => r.name === target)
      if (referenced !== undefined) visit(referenced, [...path, resource.name])
    }
    ordered.push(resource)
  }
  for (const resource of resources) visit(resource, [])
  return ordered
}

/**
 * Whether a field's values compare without regard to ASCII case (a unique one's), in every store:
 * the one source of how the SQL compares it (store/collection-sql.ts folds its column) and of how
 * a filter is evaluated in memory on it (`fieldComparator`: the change feed's access rules).
 */
export const foldsCase = (resource: Resource, field: string): boolean => resource.unique.includes(field)

/** How a field's values compare, as the stores' SQL compares them (`foldsCase`). */
export function fieldComparator (resource: Resource, field: string): Comparator {
  if (foldsCase(resource, field)) return compareAsciiCaseInsensitive
  const column = resource.columns.find(c => c.name === field)
  if (column === undefined) throw new Error(`no field ${field} in ${resource.name}`)
  return KINDS[column.kind].compare
}

/** What defineResource made: how a folder of schema files is told its resources from its other schemas. */
const DEFINED = new WeakSet<Resource>()

/**
 * The resources the modules of a folder of schema files export, each once: those that others
 * reference first, otherwise by name. Two with one name are refused, as is a reference to a
 * collection none of them is.
 */
export function resourcesOf (modules: readonly object[]): Resource[] {
  const found = [...new Set(modules.flatMap(module => Object.values(module).filter(value => DEFINED.has(value as Resource))))] as Resource[]
  const byName = found.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  for (const [i, resource] of byName.entries()) {
    if (byName[i + 1]?.name === resource.name) throw new Error(`two resources are named ${resource.name}`)
    for (const [field, target] of Object.entries(resource.references)) {
      if (!byName.some(r => r.name === target)) throw new Error(`${resource.name}.${field} references ${target}, which is no collection`)
    }
  }
  return referencedFirst(byName)
}

export function defineResource (spec: ResourceSpec): Resource {
  const writable = Object.keys(spec.fields)
  const reserved = writable.filter(name => RESERVED.includes(name))
  if (reserved.length > 0) {
    throw new Error(`${spec.name}: a field cannot be named ${reserved.join(' or ')}: the name is a query parameter or a kept column`)
  }
  const references = spec.references ?? {}
  for (const field of Object.keys(references)) {
    if (!(field in spec.fields)) throw new Error(`references: ${spec.name} has no field ${field}`)
  }
  const recordFields: TProperties = {}
  for (const [name, schema] of Object.entries(spec.fields)) {
    // A stored record always has every field: one left out on input is null, so it must be nullable.
    if (TypeGuard.IsOptional(schema) && !columnOf(name, schema, false, references).nullable) {
      throw new Error(`field ${name}: an optional field must also be nullable`)
    }
    const { [OptionalKind]: _optional, ...required } = schema as TSchema & { [OptionalKind]?: string }
    recordFields[name] = serializable(required as TSchema)
  }
  const readOnlyInput = Object.fromEntries(
    Object.entries(READ_ONLY).map(([name, schema]) => [name, Type.Optional({ ...schema, readOnly: true })])
  )
  const columns = [
    columnOf('id', IdSchema, true, {}),
    ...Object.entries(spec.fields).map(([name, schema]) => columnOf(name, schema, false, references)),
    columnOf('created_at', TimestampSchema, true, {}),
    columnOf('updated_at', TimestampSchema, true, {})
  ]
  for (const index of spec.indexes ?? []) {
    const unknown = index.find(field => !columns.some(c => c.name === field))
    if (index.length === 0 || unknown !== undefined || new Set(index).size !== index.length) {
      throw new Error(`indexes: [${index.join(', ')}] must name fields of ${spec.name}, each once`)
    }
  }
  for (const field of spec.unique ?? []) {
    if (columns.find(c => c.name === field)?.kind !== 'string') throw new Error(`unique: ${field} must be a string field of ${spec.name}`)
  }
  const strict = { additionalProperties: false }
  const access = accessOf(spec.name, columns, spec.access)
  // A field hidden from a bound token is left out of the records it is answered.
  for (const field of access?.hidden ?? []) recordFields[field] = Type.Optional(recordFields[field] as TSchema)
  // Prose: strings that are not one of a fixed set of values (a country code), nor dates or timestamps.
  // Nor a field hidden from bound tokens: one index of words serves every token, and q must never
  // find a record by words a token may not see (docs/access-rules.md).
  const search = columns.filter(c => c.kind === 'string' && c.schema.enum === undefined && !(access?.hidden ?? []).includes(c.name))
    .map(c => c.name)
  const resource: Resource = {
    name: spec.name,
    singular: spec.singular,
    references,
    unique: spec.unique ?? [],
    indexes: spec.indexes ?? [],
    access,
    search,
    writable,
    columns,
    schemas: {
      record: Type.Object(
        { id: IdSchema, ...recordFields, created_at: TimestampSchema, updated_at: TimestampSchema },
        { ...strict, title: spec.singular }
      ),
      create: Type.Object(spec.fields, strict),
      replace: Type.Object({ ...readOnlyInput, ...spec.fields }, strict),
      patch: Type.Partial(Type.Object({ ...readOnlyInput, ...spec.fields }), strict),
      list: listQuerySchema(columns, search),
      filters: filterQuerySchema(columns, search),
      read: Type.Partial(Type.Object({ fields: fieldsParameter(columns) }), strict)
    }
  }
  DEFINED.add(resource)
  return resource
}
