import type { Precondition } from '../store/contract.ts'
import { HttpError } from '../http/errors.ts'

/**
 * A record's entity tag: its version, which grows on every write; a sparse answer (`fields=`,
 * in the resource's order) is another representation, with its fields in its tag.
 */
export const etagOf = (version: number, fields?: readonly string[]): string =>
  fields === undefined ? `"${version}"` : `"${version}-${fields.join('-')}"`

/** The entity tags of an If-Match or If-None-Match list, `*` included; W/ marks a weak one. */
function tags (header: string): { weak: boolean, tag: string }[] {
  return [...header.matchAll(/(W\/)?("[^"]*"|\*)/g)].map(m => ({ weak: m[1] !== undefined, tag: m[2] as string }))
}

/**
 * If-Match (RFC 9110 §13.1.1), strong comparison: the write goes ahead only if the record's
 * current tag is listed (or the list is `*`), else 412 naming `record`. Undefined when the
 * request has no If-Match.
 */
export function ifMatch (header: string | undefined, record: string): Precondition | undefined {
  if (header === undefined) return undefined
  const listed = tags(header)
  return ({ version }) => {
    if (!listed.some(t => t.tag === '*' || (!t.weak && t.tag === etagOf(version)))) {
      throw new HttpError(412, `${record} has changed: its ETag is now "${version}"`)
    }
  }
}

/** If-None-Match (RFC 9110 §13.1.2), weak comparison: true when the client's copy, tagged `etag`, is current. */
export function noneMatch (header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const opaque = etag.replace(/^W\//, '')
  return tags(header).some(t => t.tag === '*' || t.tag === opaque)
}
