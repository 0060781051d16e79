import { Type, type TProperties, type TSchema } from '@sinclair/typebox'
import { HttpError } from '../http/errors.ts'
import type { Resource, ResourceRecord } from '../model/resource.ts'
import { SafeInteger } from '../model/values.ts'
import type { BoundCollection } from '../store/bound.ts'

/*
 * `embed=`: the records of other collections a list answers with its own, one level deep, read
 * in one statement per embedded collection per page (never one per record). Each follows a
 * reference (model/resource.ts `references`), one way or the other:
 *
 * - a parent: a record naming another by `zoo_id` gains `zoo`, the record it names (null when
 *   it names none);
 * - children: a record that others name gains their collection's name (`animals`), the first
 *   CHILDREN_LIMIT of them in id order, and `<name>_total`, how many there are; the rest are
 *   read through the nested route, or the child collection filtered on its reference.
 */

/** Children embedded per record at most. */
export const CHILDREN_LIMIT = 100

export interface Embed {
  /** The member each record gains, and the name `embed=` gives. */
  name: string
  kind: 'parent' | 'children'
  /** The embedded collection: its read scope is needed. */
  resource: Resource
  /** A parent: the listed record's field that names it. Children: their field that names the listed record. */
  field: string
}

/** A record as a list answers it: its fields, and what it embeds. */
export type Answered = Record<string, unknown>

/**
 * What a collection's records can embed: each reference of its own (`zoo_id` gives `zoo`), and
 * each collection with exactly one reference to it (as nesting needs). An embed whose member
 * would have a field's name is not offered.
 */
export function embedsOf (resource: Resource, resources: readonly Resource[]): Embed[] {
  const parents = Object.entries(resource.references).map(([field, target]): Embed => ({
    name: field.endsWith('_id') ? field.slice(0, -3) : `${field}_record`,
    kind: 'parent',
    resource: resources.find(r => r.name === target) as Resource,
    field
  }))
  const children = resources.flatMap((child): Embed[] => {
    const fields = Object.entries(child.references).filter(([, target]) => target === resource.name).map(([field]) => field)
    return fields.length === 1 ? [{ name: child.name, kind: 'children', resource: child, field: fields[0] as string }] : []
  })
  const taken = new Set(resource.columns.map(c => c.name))
  return [...parents, ...children].filter(embed => !taken.has(embed.name) && !taken.has(`${embed.name}_total`))
}

/** The `embed` query parameter of a list of a collection that can embed `embeds`. */
export function embedParameter (embeds: readonly Embed[]): TProperties {
  if (embeds.length === 0) return {}
  const names = embeds.map(e => e.name).join('|')
  return {
    embed: Type.Optional(Type.String({
      pattern: `^(${names})(,(${names}))*$`,
      description: `Comma-separated records to embed in each record, one level deep, from: ${embeds.map(e => e.name).join(', ')}`
    }))
  }
}

/** What the members of the embeds look like in an answer, for its schema. */
export function embeddedProperties (embeds: readonly Embed[]): TProperties {
  const properties: TProperties = {}
  for (const embed of embeds) {
    const record = embed.resource.schemas.record
    if (embed.kind === 'parent') {
      // One schema with both types: the serializer tells them apart by a typeof test (http/serialization.ts).
      properties[embed.name] = Type.Optional(Type.Unsafe({
        ...record,
        type: ['object', 'null'],
        description: `With embed=${embed.name}: the ${embed.resource.singular} ${embed.field} names, or null`
      }))
    } else {
      properties[embed.name] = Type.Optional(Type.Array(record as TSchema, {
        maxItems: CHILDREN_LIMIT,
        description: `With embed=${embed.name}: its first ${CHILDREN_LIMIT} ${embed.resource.name} in id order`
      }))
      properties[`${embed.name}_total`] = Type.Optional(SafeInteger({
        minimum: 0,
        description: `With embed=${embed.name}: how many ${embed.resource.name} it has`
      }))
    }
  }
  return properties
}

/** The embeds `embed=` names (its schema allows only their names), each once. */
export function parseEmbeds (embeds: readonly Embed[], raw: string | undefined): Embed[] {
  if (raw === undefined) return []
  const named = raw.split(',')
  const repeated = named.find((name, i) => named.indexOf(name) !== i)
  if (repeated !== undefined) throw new HttpError(400, `Invalid query: embed names ${repeated} twice`)
  return embeds.filter(embed => named.includes(embed.name))
}

/**
 * Refuses an embed that would tell a field the token may not see: a parent named by a field hidden
 * from it, or children whose field naming the record is hidden from it in their collection.
 */
export function refuseHiddenEmbeds (embeds: readonly Embed[], listed: BoundCollection, recordsOf: (resource: Resource) => BoundCollection):
void {
  for (const embed of embeds) {
    if ((embed.kind === 'parent' ? listed : recordsOf(embed.resource)).hides(embed.field)) {
      throw new HttpError(400, `Invalid query: embed names ${embed.name}, which cannot be embedded`, {
        errors: [{ field: 'embed', code: 'pattern', message: `embed names ${embed.name}, which cannot be embedded` }]
      })
    }
  }
}

/**
 * The members `embeds` add to each of `records`, by the record's position: one read per embed,
 * of the records of its collection the token sees, as it sees them (`recordsOf`, its records
 * view). A parent it does not see embeds as null.
 */
export async function embedded (
  embeds: readonly Embed[], records: readonly ResourceRecord[], recordsOf: (resource: Resource) => BoundCollection
): Promise<Answered[]> {
  const members: Answered[] = records.map(() => ({}))
  for (const embed of embeds) {
    const store = recordsOf(embed.resource)
    if (embed.kind === 'parent') {
      const ids = [...new Set(records.map(r => r[embed.field]).filter(id => typeof id === 'number'))] as number[]
      const found = new Map((await store.getMany(ids)).map(parent => [parent.id, parent]))
      records.forEach((record, i) => { (members[i] as Answered)[embed.name] = found.get(record[embed.field] as number) ?? null })
    } else {
      const children = await store.children(embed.field, records.map(r => r.id as number), CHILDREN_LIMIT)
      records.forEach((record, i) => {
        const member = members[i] as Answered
        member[embed.name] = children.items.get(record.id as number) ?? []
        member[`${embed.name}_total`] = children.totals.get(record.id as number) ?? 0
      })
    }
  }
  return members
}
