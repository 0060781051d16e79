import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox'
import { HttpError } from '../http/errors.ts'
import { KINDS, type KindName, type Value } from '../model/kinds.ts'
import { termOf } from '../model/filters.ts'
import type { Column, Resource } from '../model/resource.ts'
import { SafeInteger } from '../model/values.ts'
import type { AggregateQuery, GroupCondition, GroupKey, GroupMeasure, GroupSortKey, Measure } from '../store/contract.ts'
import { measuredKind } from '../store/aggregate-sql.ts'
import { parseFilters } from './list-query.ts'

/*
 * The query string of an aggregate (`GET /v1/<c>/aggregate`, docs/aggregates.md), made from the
 * resource's fields: its schema, which names every parameter a collection takes (each measure's
 * fields, each condition on a group), and the aggregate it asks for once validated, refusing
 * what a schema cannot say (a bucket of a field that is no date, a condition on a measure not asked).
 */

/** Groups a page holds: more than a list's records, as a group is a few numbers. */
export const GROUPS_PAGE = { default: 100, max: 1000 } as const

/** The kinds of field each measure takes. */
const MEASURED: Record<Measure, readonly KindName[]> = {
  sum: ['integer', 'number'],
  avg: ['integer', 'number'],
  min: ['integer', 'reference', 'number', 'date', 'timestamp', 'string', 'enum'],
  max: ['integer', 'reference', 'number', 'date', 'timestamp', 'string', 'enum']
}
const MEASURES = Object.keys(MEASURED) as Measure[]
const BUCKETED: readonly KindName[] = ['date', 'timestamp']
const BUCKETS = ['year', 'month', 'day'] as const
/** The parameters that are neither a filter nor a condition on a group. */
const SHAPING = ['group_by', 'count', ...MEASURES, 'sortby', 'order', 'limit', 'offset']

const bad = (message: string): HttpError => new HttpError(400, `Invalid query: ${message}`)

/** A comma list of `item`. */
const commaList = (item: string): string => `^${item}(,${item})*$`

const measurable = (resource: Resource, measure: Measure): Column[] =>
  resource.columns.filter(column => MEASURED[measure].includes(column.kind))

const querystrings = new WeakMap<Resource, TObject>()

/** The querystring of a collection's aggregate: its fields enumerated, one object per resource (the validator compiles it once). */
export function aggregateQuerystring (resource: Resource): TObject {
  let query = querystrings.get(resource)
  if (query !== undefined) return query
  const names = resource.columns.map(c => c.name).join('|')
  const fieldList = (columns: Column[]): string => `(${columns.map(c => c.name).join('|')})`
  const measures: TProperties = {}
  for (const measure of MEASURES) {
    measures[measure] = Type.String({
      pattern: commaList(fieldList(resource.columns)),
      description: `Comma-separated fields whose ${measure} each group answers, of: ` +
        measurable(resource, measure).map(c => c.name).join(', ')
    })
  }
  query = Type.Partial(Type.Object({
    group_by: Type.String({
      pattern: commaList(`(${names})(:(${BUCKETS.join('|')}))?`),
      description: 'Comma-separated fields whose values form a group; a date or timestamp may take a bucket, ' +
        `:year, :month or :day (default: one group of every record matched), of: ${resource.columns.map(c => c.name).join(', ')}`
    }),
    count: Type.String({ maxLength: 0, description: 'Every group answers its count, asked or not' }),
    ...measures,
    sortby: Type.String({
      pattern: commaList(`(${names}|count|(${MEASURES.join('|')})\\.(${names}))`),
      description: 'Comma-separated group_by fields, count, or measures asked (avg.weight) to sort the groups by ' +
        '(default the group_by fields)'
    }),
    order: Type.String({
      pattern: commaList('(asc|desc)'),
      description: 'asc or desc: one for all sortby keys, or one per key (default asc)'
    }),
    limit: SafeInteger({
      minimum: 1,
      maximum: GROUPS_PAGE.max,
      description: `Groups per answer, 1 to ${GROUPS_PAGE.max} (default ${GROUPS_PAGE.default})`
    }),
    offset: SafeInteger({ minimum: 0, description: 'Groups to skip (default 0)' }),
    ...resource.schemas.filters.properties
  }), {
    additionalProperties: false,
    // The conditions on the groups by a pattern, each read by parseAggregateQuery: enumerated, they
    // were some 600 parameters of the service's routes, and every request of the service paid for
    // them in V8's caches of property stores (docs/benchmarks.md, "Aggregates").
    patternProperties: {
      [HAVING.source]: Type.String({
        description: 'having.count[_<op>], having.<sum|avg|min|max>.<field>[_<op>]: a condition on a measure the aggregate asks for, ' +
          'op one of ne, gt, gte, lt, lte, in (a comma list); the value a count\'s integer, an average\'s number, or of the field\'s kind'
      })
    },
    description: 'group_by, count, sum, avg, min, max; having.<measure>[.<field>][_<op>] on a measure asked; sortby, order, ' +
      'limit, offset; and the filters of the list'
  })
  querystrings.set(resource, query)
  return query
}

/** An aggregate as asked, paged. */
export interface AggregateRequest {
  query: AggregateQuery
  /** Groups a page holds. */
  size: number
  /** The first group's index among all. */
  position: number
}

/** Turns a validated querystring (aggregateQuerystring) into the aggregate the store runs. */
export function parseAggregateQuery (resource: Resource, params: Record<string, unknown>): AggregateRequest {
  const columns = new Map(resource.columns.map(c => [c.name, c]))
  const groupBy = groupKeysOf(columns, params.group_by as string | undefined)
  const measures = MEASURES.flatMap(measure => measuresOf(columns, measure, params[measure] as string | undefined))
  const asked = (measure: Measure, field: string): boolean => measures.some(m => m.measure === measure && m.field === field)
  const having: GroupCondition[] = []
  const filters: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || SHAPING.includes(name)) continue
    if (name.startsWith('having.')) having.push(conditionOf(columns, name, String(value), asked))
    else filters[name] = value
  }
  const size = params.limit as number | undefined ?? GROUPS_PAGE.default
  const offset = params.offset as number | undefined ?? 0
  const sort = sortOf(groupBy, params.sortby as string | undefined, params.order as string | undefined, asked)
  const query = { filters: parseFilters(resource, filters), groupBy, measures, having, sort, limit: size, offset }
  return { query, size, position: offset }
}

function groupKeysOf (columns: Map<string, Column>, raw: string | undefined): GroupKey[] {
  if (raw === undefined) return []
  const keys = raw.split(',').map(part => {
    const [field, bucket] = part.split(':') as [string, GroupKey['bucket'] | undefined]
    const { kind } = columns.get(field) as Column
    if (bucket !== undefined && !BUCKETED.includes(kind)) {
      throw bad(`group_by: ${field} is a ${kind} field; only a date or timestamp takes a bucket (:year, :month, :day)`)
    }
    return bucket === undefined ? { field } : { field, bucket }
  })
  const repeated = keys.find((key, i) => keys.findIndex(k => k.field === key.field) !== i)
  if (repeated !== undefined) throw bad(`group_by names ${repeated.field} twice`)
  return keys
}

function measuresOf (columns: Map<string, Column>, measure: Measure, raw: string | undefined): { measure: Measure, field: string }[] {
  if (raw === undefined) return []
  const fields = raw.split(',')
  const repeated = fields.find((field, i) => fields.indexOf(field) !== i)
  if (repeated !== undefined) throw bad(`${measure} names ${repeated} twice`)
  return fields.map(field => {
    const { kind } = columns.get(field) as Column
    if (!MEASURED[measure].includes(kind)) {
      throw bad(`${measure}=${field}: ${field} is a ${kind} field; ${measure} takes ${MEASURED[measure].join(', ')} fields`)
    }
    return { measure, field }
  })
}

/** The name of a condition on a group: `having.count[_<op>]` or `having.<measure>.<field>[_<op>]`. */
const HAVING = /^having\.(count|sum|avg|min|max)(\..+|_(?:ne|gt|gte|lt|lte|in))?$/

/** A condition on a group, from its parameter's name and value, refused (400) where either is not one. */
function conditionOf (
  columns: Map<string, Column>, name: string, raw: string, asked: (measure: Measure, field: string) => boolean
): GroupCondition {
  const unknown = (): HttpError => bad(`unknown query parameter ${name}: a condition is having.count[_<op>] or ` +
    'having.<measure>.<field>[_<op>], on a field the measure takes')
  const matched = HAVING.exec(name)
  if (matched === null) throw unknown()
  const [, measure, rest = ''] = matched as unknown as [string, Measure | 'count', string | undefined]
  let of: GroupMeasure
  let op: GroupCondition['op']
  let column: Column | undefined
  if (measure === 'count') {
    if (rest.startsWith('.')) throw unknown()
    of = { measure }
    op = rest === '' ? 'eq' : rest.slice(1) as GroupCondition['op']
  } else {
    const term = rest.startsWith('.') ? termOf(columns, rest.slice(1)) : undefined
    if (term === undefined || term.op === 'search' || !MEASURED[measure].includes(term.column.kind)) throw unknown()
    column = term.column
    op = term.op
    if (!asked(measure, column.name)) {
      throw bad(`${name} is on ${measure}=${column.name}, which is not asked for: a condition takes a measure the aggregate answers`)
    }
    of = { measure, field: column.name }
  }
  const kind = measuredKind(measure, column?.kind)
  if (op !== 'eq' && !(KINDS[kind].operators as readonly string[]).includes(op)) throw unknown()
  // The form of the kind's values, as a list's filter's schema has it (a date's YYYY-MM-DD, an enum's values).
  const form = KINDS[kind].inList(column === undefined || measure === 'avg' ? Type.Number() : column.schema)
  if (form !== undefined && (!new RegExp(form).test(raw) || (op !== 'in' && raw.includes(',')))) {
    const of = measure === 'count' ? 'a count' : measure === 'avg' ? 'an average' : `its ${kind} field`
    throw bad(`${name}: "${raw}" is not ${op === 'in' ? 'a comma list of values' : 'a value'} of ${of}`)
  }
  const parse = (text: string): Value => {
    try {
      return KINDS[kind].parse(text)
    } catch (err) {
      throw bad(`${name}: ${(err as Error).message}`)
    }
  }
  return { of, op, value: op === 'in' ? raw.split(',').map(parse) : parse(raw) }
}

/** The sort of the groups: the keys asked, then every group key not among them, ascending, so that the order is total. */
function sortOf (
  groupBy: GroupKey[], sortby: string | undefined, order: string | undefined, asked: (measure: Measure, field: string) => boolean
): GroupSortKey[] {
  const names = sortby?.split(',') ?? groupBy.map(key => key.field)
  const directions = (order ?? 'asc').split(',') as GroupSortKey['direction'][]
  if (new Set(names).size !== names.length) throw bad('sortby names a key twice')
  if (directions.length !== 1 && directions.length !== names.length) {
    throw bad(`order takes one direction for all sortby keys or one per key (${names.length}), got ${directions.length}`)
  }
  const sort = names.map((name, i): GroupSortKey => {
    const direction = (directions.length === 1 ? directions[0] : directions[i]) as GroupSortKey['direction']
    if (name === 'count') return { by: { measure: 'count' }, direction }
    const [measure, field] = name.split('.') as [Measure, string | undefined]
    if (field !== undefined) {
      if (!asked(measure, field)) throw bad(`sortby: ${name} is not asked for; the groups sort by a measure they answer`)
      return { by: { measure, field }, direction }
    }
    if (!groupBy.some(key => key.field === name)) throw bad(`sortby: ${name} is not a group_by field, count or a measure asked`)
    return { by: { field: name }, direction }
  })
  for (const key of groupBy) {
    if (!names.includes(key.field)) sort.push({ by: { field: key.field }, direction: 'asc' })
  }
  return sort
}

const groupSchemas = new WeakMap<Resource, TObject>()

/**
 * A group as answered (store/contract.ts's Group): the fields it may be grouped by, a bucketed
 * date or timestamp as its bucket's text; its count; and an object of each measure, by field.
 */
export function groupSchema (resource: Resource): TObject {
  let schema = groupSchemas.get(resource)
  if (schema !== undefined) return schema
  const { properties } = resource.schemas.record
  const nullable = (type: string, description: string): TSchema => Type.Unsafe({ type: [type, 'null'], description })
  const fieldOf = (column: Column): TSchema => ({ ...properties[column.name] as TSchema })
  const measured = (measure: Measure, value: (column: Column) => TSchema): TSchema => Type.Optional(Type.Object(
    Object.fromEntries(measurable(resource, measure).map(column => [column.name, Type.Optional(value(column))])),
    { additionalProperties: false, description: `The ${measure} of each field asked (${measure}=), null for a group without values` }))
  schema = Type.Object({
    ...Object.fromEntries(resource.columns.map(column => [column.name, Type.Optional(BUCKETED.includes(column.kind)
      ? nullable('string', `The group's ${column.name}, or its bucket's: 2020, 2020-03, 2020-03-01`)
      : fieldOf(column))])),
    count: SafeInteger({ minimum: 0, description: 'How many records the group holds' }),
    sum: measured('sum', column => column.kind === 'number'
      ? nullable('number', `The sum of ${column.name}`)
      : Type.Unsafe({ ...SafeInteger(), type: ['integer', 'null'], description: `The sum of ${column.name}` })),
    avg: measured('avg', column => nullable('number', `The average of ${column.name}`)),
    min: measured('min', fieldOf),
    max: measured('max', fieldOf)
  }, { additionalProperties: false, title: `${resource.singular} group` })
  groupSchemas.set(resource, schema)
  return schema
}
