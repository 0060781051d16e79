import type { Scalar } from '../model/kinds.ts'

/** An identifier quoted for SQL (both engines quote alike). */
export const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`

/**
 * Text as the database will hold it. A lone UTF-16 surrogate (JSON may carry one) has no UTF-8
 * form: stored as it is, it would read back as other characters than were compared. It becomes
 * U+FFFD.
 */
export function storable (value: Scalar | undefined): Scalar {
  if (typeof value !== 'string') return value ?? null
  return value.replace(/\p{Surrogate}/gu, '\uFFFD')
}
