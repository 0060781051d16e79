import type { Precondition } from './store.ts'
import { HttpError } from '../http/errors.ts'

/** A record's entity tag: its version, which grows on every write. */
export const etagOf = (version: number): string => `"${version}"`

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

/** If-None-Match (RFC 9110 §13.1.2), weak comparison: true when the client's copy is current. */
export function noneMatch (header: string | undefined, version: number): boolean {
  if (header === undefined) return false
  return tags(header).some(t => t.tag === '*' || t.tag === etagOf(version))
}
