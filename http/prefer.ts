import { HttpError } from './errors.ts'

/**
 * The preferences of a Prefer header (RFC 7240), by lower-cased name: comma-separated, each a
 * case-insensitive name with an optional value (token or quoted string) and parameters after `;`,
 * in which a quoted string may hold commas. The first of a name counts (§2).
 */
function preferences (header: string | string[] | undefined): Map<string, string> {
  const found = new Map<string, string>()
  if (header === undefined) return found
  for (const [preference] of [...[header].flat().join(',').matchAll(/(?:"(?:[^"\\]|\\.)*"|[^,"])+/g)]) {
    const [name = '', value = ''] = (preference.split(';')[0] as string).split('=').map(part => part.trim())
    const key = name.toLowerCase()
    if (key !== '' && !found.has(key)) found.set(key, value.replace(/^"(.*)"$/, '$1'))
  }
  return found
}

/** Whether a Prefer header asks for respond-async. */
export const prefersAsync = (header: string | string[] | undefined): boolean => preferences(header).has('respond-async')

/** Preferences written as a header again: `name` or `name=value`, the value quoted where a token cannot hold it. */
const written = (found: [string, string][]): string | undefined => found.length === 0
  ? undefined
  : found.map(([name, value]) => value === '' ? name : `${name}=${/^[\w.!#$%&'*+^`|~-]+$/.test(value) ? value : JSON.stringify(value)}`)
    .join(', ')

/**
 * The preferences of a Prefer header but respond-async (undefined when none is left): what a
 * queued write asks of its answer when the job runs it (jobs/respond-async.ts).
 */
export const preferencesOfJob = (header: string | string[] | undefined): string | undefined =>
  written([...preferences(header)].filter(([name]) => name !== 'respond-async'))

/**
 * The preferences of a Prefer header in one form however they were written (names in lower case,
 * in order of name): what makes two requests the same request (plugins/app/idempotency.ts).
 */
export const canonicalPreferences = (header: string | string[] | undefined): string | undefined =>
  written([...preferences(header)].map(([name, value]): [string, string] => [name, value.toLowerCase()]).sort(([a], [b]) => a < b ? -1 : 1))

/**
 * What a Prefer header asks a write to answer: `return=minimal` (the status and headers, no body),
 * `return=representation` (the record, the default), or undefined when it asks neither.
 */
export function returnPreference (header: string | string[] | undefined): 'minimal' | 'representation' | undefined {
  const value = preferences(header).get('return')?.toLowerCase()
  return value === 'minimal' || value === 'representation' ? value : undefined
}

/**
 * What a Prefer header asks of a list's count: `count=none` (no count), `count=exact` (the
 * default), or undefined when it asks nothing we do (an unknown value is ignored, RFC 7240 §2).
 */
export function countPreference (header: string | string[] | undefined): 'exact' | 'none' | undefined {
  const value = preferences(header).get('count')?.toLowerCase()
  return value === 'exact' || value === 'none' ? value : undefined
}

/** What a Prefer header asks of a change of many records. */
export interface BulkPreferences {
  /** `max-affected=N`: refuse the change when more than N records match. */
  max?: number
  /** `tx=rollback`: work the change out, answer it, and undo it. */
  dryRun: boolean
  /** `return=representation`: answer the changed records too. */
  representation: boolean
  /** What of it applies, as Preference-Applied says it; empty when nothing was asked. */
  applied: string[]
}

/**
 * The preferences of a change of many records. A `max-affected` or `tx` we cannot read is 400:
 * ignored, as RFC 7240 §2 lets a server ignore what it does not know, it would change more records
 * than the client allowed, or commit what it asked to undo. An unknown `return` is ignored, as on
 * any write: it shapes only the answer.
 */
export function bulkPreferences (header: string | string[] | undefined): BulkPreferences {
  const found = preferences(header)
  const applied: string[] = []
  const max = found.get('max-affected')
  if (max !== undefined && !/^\d{1,15}$/.test(max)) {
    throw new HttpError(400, `Invalid Prefer: max-affected must be a whole number of records, 0 or more, in digits; got "${max}"`)
  }
  const limit = max === undefined ? undefined : Number(max)
  if (limit !== undefined) applied.push(`max-affected=${limit}`)
  const tx = found.get('tx')?.toLowerCase()
  if (tx !== undefined && tx !== 'rollback' && tx !== 'commit') {
    throw new HttpError(400, `Invalid Prefer: tx must be commit or rollback; got "${tx}"`)
  }
  if (tx !== undefined) applied.push(`tx=${tx}`)
  const returned = returnPreference(header)
  if (returned !== undefined) applied.push(`return=${returned}`)
  return { max: limit, dryRun: tx === 'rollback', representation: returned === 'representation', applied }
}
