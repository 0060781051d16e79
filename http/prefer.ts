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

/**
 * What a Prefer header asks of a list's count: `count=none` (no count), `count=exact` (the
 * default), or undefined when it asks nothing we do (an unknown value is ignored, RFC 7240 §2).
 */
export function countPreference (header: string | string[] | undefined): 'exact' | 'none' | undefined {
  const value = preferences(header).get('count')?.toLowerCase()
  return value === 'exact' || value === 'none' ? value : undefined
}
