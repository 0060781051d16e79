import { KINDS, type Scalar } from './kinds.ts'
import { filterOfText, termOf, type FieldFilter, type Filter } from './filters.ts'
import type { Column } from './column.ts'

/*
 * Who may see and change which records and fields of a collection: its access rules, as its
 * schema file states them (`defineResource({ access })`), read once here, then bound to each
 * token's claims. A rule is written as a list's filters (model/filters.ts), with `@name` for the
 * value of the token's claim `name`; bound, it is a filter like any other, which the stores
 * compile into the SQL of every read and write.
 */

/** The access rules of a collection, as its schema file writes them. */
export interface AccessSpec {
  /** A token holding this scope is bound by none of the rules. */
  unrestricted?: string
  /** The records a bound token sees: those any one of these rules matches. Left out: every record. */
  read?: string | string[]
  /** The records a bound token may create, change or delete. Left out: every record it sees. */
  write?: string | string[]
  /** Fields written from the token's claims on create (`'@sub'`): no other value is accepted. */
  set?: Record<string, string>
  /** Fields a bound token never sees, never filters, sorts or searches by, and never writes. */
  hidden?: string[]
}

/** A value of a rule: as written, or the claim that gives it. */
type RuleValue = { given: Scalar | Scalar[] } | { claim: string }

/** One comparison of a rule, its value still to be bound. */
interface Term { column: Column, op: FieldFilter['op'], value: RuleValue }

/** Every comparison of a rule must hold. */
type Rule = Term[]

/** The access rules of a collection, read and checked. */
export interface Access {
  unrestricted: string | undefined
  read: Rule[] | undefined
  write: Rule[] | undefined
  /** Field -> the claim written into it. */
  set: ReadonlyMap<string, { column: Column, claim: string }>
  hidden: readonly string[]
}

/** What a token may do with a collection's records: its rules bound to the token's claims. */
export interface Binding {
  /**
   * The records it sees, as filters every one of which must hold (the one rule's comparisons, or
   * one `any` of several rules); none: every record.
   */
  read: Filter[]
  /** The records it may write, as `read`: the read rules and the write rules, all of which must hold. */
  write: Filter[]
  /** Field -> the value the token writes into it on create; undefined where its claim is missing or does not fit. */
  set: ReadonlyMap<string, Scalar | undefined>
  hidden: ReadonlySet<string>
}

const CLAIM = /^@([A-Za-z_][A-Za-z0-9_.:-]*)$/

const listOf = (rules: string | string[]): string[] => typeof rules === 'string' ? [rules] : rules

/**
 * Whether text is a value of the field as a query string writes it: what a list's query schema
 * checks before its values are read (a date's form, an enum's values), asked here of a rule's
 * values and a claim's text.
 */
function fitsText (column: Column, text: string): boolean {
  const pattern = KINDS[column.kind].inList(column.schema)
  // The pattern is of a comma list: one value of a field whose values may hold no comma holds none.
  return pattern === undefined || (!text.includes(',') && new RegExp(pattern).test(text))
}

/** One rule as written (`field=value&field_op=@claim`), checked against the columns. */
function ruleOf (resourceName: string, columns: ReadonlyMap<string, Column>, text: string): Rule {
  if (text.trim() === '') throw new Error(`${resourceName}: an access rule is empty`)
  return text.split('&').map(part => {
    const equals = part.indexOf('=')
    const name = equals < 0 ? part : part.slice(0, equals)
    const raw = equals < 0 ? undefined : part.slice(equals + 1)
    const term = termOf(columns, name)
    if (raw === undefined || raw === '' || term === undefined) {
      throw new Error(`${resourceName}: access rule "${text}": "${part}" is not a filter <field>=value or ` +
        '<field>_<gt|gte|lt|lte|ne|in>=value ' +
        `on a field of ${resourceName}`)
    }
    const claim = CLAIM.exec(raw)
    if (claim !== null) return { ...term, value: { claim: claim[1] as string } }
    try {
      for (const value of term.op === 'in' ? raw.split(',') : [raw]) {
        if (!fitsText(term.column, value) && !(value === 'null' && term.column.nullable)) {
          throw new Error(`${term.column.name}: "${value}" is not a value of the field`)
        }
      }
      return { ...term, value: { given: filterOfText(term.column, term.op, raw).value } }
    } catch (err) {
      throw new Error(`${resourceName}: access rule "${text}": ${(err as Error).message}`)
    }
  })
}

/** The access rules of a resource, checked against its columns; undefined when it states none. */
export function accessOf (resourceName: string, columns: readonly Column[], spec: AccessSpec | undefined): Access | undefined {
  if (spec === undefined) return undefined
  const byName = new Map(columns.map(c => [c.name, c]))
  const writable = (field: string, what: string): Column => {
    const column = byName.get(field)
    if (column === undefined || column.readOnly) {
      throw new Error(`${resourceName}: access ${what} names ${field}, which is no writable field`)
    }
    return column
  }
  const hidden = spec.hidden ?? []
  for (const field of hidden) {
    // A bound token can neither see nor give it: it must be one a record may be created without.
    if (!writable(field, 'hidden').nullable) throw new Error(`${resourceName}: the hidden field ${field} must be optional and nullable`)
  }
  const set = new Map(Object.entries(spec.set ?? {}).map(([field, value]) => {
    const column = writable(field, 'set')
    if (hidden.includes(field)) throw new Error(`${resourceName}: ${field} cannot be both set and hidden`)
    const claim = CLAIM.exec(value)
    if (claim === null) throw new Error(`${resourceName}: access set ${field}: "${value}" is not a claim @name`)
    return [field, { column, claim: claim[1] as string }]
  }))
  const rules = (written: string | string[] | undefined): Rule[] | undefined => {
    if (written === undefined) return undefined
    const read = listOf(written).map(text => ruleOf(resourceName, byName, text))
    for (const term of read.flat()) {
      if (hidden.includes(term.column.name)) {
        throw new Error(`${resourceName}: an access rule compares the hidden field ${term.column.name}`)
      }
    }
    return read
  }
  return { unrestricted: spec.unrestricted, read: rules(spec.read), write: rules(spec.write), set, hidden }
}

/**
 * A claim's value as a value of `column`: a JSON value of its kind, or text it reads as one of
 * its values (an external issuer's numbers often come as text); undefined when it fits neither.
 */
function claimed (column: Column, value: unknown): Scalar | undefined {
  const kind = KINDS[column.kind]
  if (typeof value === 'string') {
    if (!fitsText(column, value)) return undefined
    try {
      return kind.parse(value)
    } catch {
      return undefined
    }
  }
  return kind.valid(value) ? value as Scalar : undefined
}

/** A term bound to `claims`: its filter, or undefined where the claim is missing or does not fit (it matches nothing then). */
function boundTerm ({ column, op, value }: Term, claims: Readonly<Record<string, unknown>>): FieldFilter | undefined {
  if ('given' in value) return { field: column.name, op, value: value.given }
  const given = claims[value.claim]
  if (given === undefined || given === null) return undefined
  if (op === 'in') {
    const values = (Array.isArray(given) ? given : [given]).map(v => claimed(column, v))
    if (values.length === 0 || values.some(v => v === undefined)) return undefined
    return { field: column.name, op, value: values as Scalar[] }
  }
  const one = claimed(column, given)
  return one === undefined ? undefined : { field: column.name, op, value: one }
}

/** Rules bound to `claims` as filters that must all hold: a missing claim never widens what they match. */
function boundRules (rules: Rule[] | undefined, claims: Readonly<Record<string, unknown>>): Filter[] {
  if (rules === undefined) return []
  const sets = rules
    .map(rule => rule.map(term => boundTerm(term, claims)))
    .filter((set): set is FieldFilter[] => set.every(filter => filter !== undefined))
  // One rule is its comparisons themselves: planned as the same filters sent in a list's query.
  if (sets.length === 1) return sets[0] as FieldFilter[]
  return [{ field: '', op: 'any', value: sets }]
}

/**
 * What a token with `scopes` and `claims` may do with the records of a collection of `access`;
 * undefined when it is bound by nothing (no rules, or the unrestricted scope).
 */
export function bindAccess (
  access: Access | undefined, scopes: ReadonlySet<string>, claims: Readonly<Record<string, unknown>>
): Binding | undefined {
  if (access === undefined || (access.unrestricted !== undefined && scopes.has(access.unrestricted))) return undefined
  const set = new Map([...access.set].map(([field, { column, claim }]) => {
    const value = claims[claim]
    return [field, value === undefined || value === null ? undefined : claimed(column, value)]
  }))
  const read = boundRules(access.read, claims)
  return {
    read,
    // What a token writes, it must see: a record created, or as a change leaves it, within the read rules too.
    write: [...read, ...boundRules(access.write, claims)],
    set,
    hidden: new Set(access.hidden)
  }
}
