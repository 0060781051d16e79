/**
 * Whether a Prefer header (RFC 7240) asks for respond-async: it holds comma-separated
 * preferences, each a case-insensitive name with an optional value and parameters, in which a
 * quoted string may hold commas.
 */
export function prefersAsync (header: string | string[] | undefined): boolean {
  if (header === undefined) return false
  const preferences = [...[header].flat().join(',').matchAll(/(?:"(?:[^"\\]|\\.)*"|[^,"])+/g)]
  return preferences.some(([preference]) => preference.split(/[=;]/)[0]?.trim().toLowerCase() === 'respond-async')
}
