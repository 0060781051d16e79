import type { FastifyInstance } from 'fastify'
import { KINDS } from '../model/kinds.ts'
import type { Column, Resource } from '../model/resource.ts'
import { create } from './helper.ts'

/*
 * Valid records of any collection, made from its resource (each field by its kind and its
 * schema's rules): the one set of sample records the collection tests loop over, so that a
 * collection added to schemas/ is tested as the others are, with nothing to write here.
 */

export type Body = Record<string, unknown>

/** The n-th valid value of a field (its kind's sample): values with another n differ, so unique fields can take them. */
export function sampleValue (column: Column, n: number): unknown {
  if (column.kind === 'reference') throw new Error(`${column.name}: a reference takes the id of a record (samplesOf makes one)`)
  return KINDS[column.kind].sample(column.schema, n, column.name)
}

/** What the collection tests need of one collection, in an app that has the records its references name. */
export interface Samples {
  resource: Resource
  /** A complete valid body: every writable field set; the n-th of them. */
  valid: (n?: number) => Body
  /** The required fields only: the optional ones come back null. */
  minimal: (n?: number) => Body
  /** A PATCH body: one field, set to a value `valid()` does not hold. */
  change: Body
  /** A required field set to a value its schema refuses, and the code of the error that names it. */
  invalid: { field: string, value: unknown, code: string }
}

const required = (resource: Resource, column: Column): boolean => (resource.schemas.create.required ?? []).includes(column.name)

/**
 * The samples of `resource` in `app`: a record of each collection its references name is made
 * first (itself from samples), and they name it.
 */
export async function samplesOf (app: FastifyInstance, resource: Resource): Promise<Samples> {
  const referenced = new Map<string, number>()
  for (const target of new Set(Object.values(resource.references))) {
    const parent = app.collections.resources.find(r => r.name === target)
    if (parent === undefined) throw new Error(`${resource.name} references ${target}, which the app does not serve`)
    referenced.set(target, (await create(app, target, (await samplesOf(app, parent)).minimal())).id)
  }
  const writable = resource.columns.filter(c => !c.readOnly)
  const value = (column: Column, n: number): unknown =>
    column.kind === 'reference' ? referenced.get(column.references as string) : sampleValue(column, n)
  const body = (columns: Column[], n: number): Body => Object.fromEntries(columns.map(c => [c.name, value(c, n)]))
  const changed = writable.find(c => c.kind !== 'reference' && !resource.unique.includes(c.name) && value(c, 0) !== value(c, 1))
  if (changed === undefined) throw new Error(`${resource.name}: no field to change`)
  const firstRequired = writable.find(c => required(resource, c)) as Column
  const emptied = writable.find(c => required(resource, c) && c.kind === 'string' && (c.schema.minLength as number | undefined ?? 0) > 0)
  return {
    resource,
    valid: (n = 0) => body(writable, n),
    minimal: (n = 0) => body(writable.filter(c => required(resource, c)), n),
    change: { [changed.name]: value(changed, 1) },
    invalid: emptied !== undefined
      ? { field: emptied.name, value: '', code: 'length' }
      : { field: firstRequired.name, value: { not: 'a value' }, code: 'type' }
  }
}
