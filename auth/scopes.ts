import type { Resource } from '../model/resource.ts'

/**
 * `<collection>:read` and `<collection>:write` for every collection, the scope that frees a
 * token from a collection's access rules where it names one (model/access.ts), and those of the
 * webhooks (webhooks/routes.ts).
 */
export const scopesOf = (resources: readonly Resource[]): string[] => [...new Set([...resources.flatMap(r => [
  `${r.name}:read`, `${r.name}:write`, ...(r.access?.unrestricted === undefined ? [] : [r.access.unrestricted])
]), 'webhooks:read', 'webhooks:write'])]

/** The read scope of every collection: what a user gets at the first sign-in unless LOGIN_USER_SCOPE says otherwise. */
export const readScopesOf = (resources: readonly Resource[]): string[] => resources.map(r => `${r.name}:read`)

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The scope a request on a collection's route needs: reads for GET, HEAD and OPTIONS. */
export const scopeFor = (collection: string, method: string): string =>
  `${collection}:${READS.has(method) ? 'read' : 'write'}`

/**
 * The scopes a request on a collection's route needs: `scopeFor`, and the read scope too for a
 * write that `selects` its records by their values (a change of many records): its filters and
 * what it answers (how many matched, the records, its refusals) would tell a token that may only
 * write what it may not read.
 */
export const scopesFor = (collection: string, method: string, selects: boolean): string[] => {
  const scope = scopeFor(collection, method)
  return selects && !READS.has(method) ? [`${collection}:read`, scope] : [scope]
}

/** The scopes a space-separated list names, as given (none checked); undefined when no list was given. */
export function parseScope (scope: string | undefined): string[] | undefined {
  if (scope === undefined) return undefined
  return scope.split(' ').filter(s => s !== '')
}

/** A space-separated list of `known` scopes, normalized; an unknown one is refused. */
export function knownScope (scope: string, known: readonly string[]): string {
  const scopes = parseScope(scope) ?? []
  const unknown = scopes.filter(s => !known.includes(s))
  if (unknown.length > 0) throw new Error(`unknown scope ${unknown.join(', ')}; known: ${known.join(' ')}`)
  return [...new Set(scopes)].join(' ')
}
