import type { Resource } from '../model/resource.ts'

/**
 * What an operation's description says of the access rules of its collection, when it has some:
 * which records and fields a bound token reads, and what its 403 and 404 then mean.
 */
export function accessNote (resource: Resource, operation: 'list' | 'read' | 'write' | 'feed'): string {
  const access = resource.access
  if (access === undefined) return ''
  const free = access.unrestricted === undefined ? '' : ` (a token with ${access.unrestricted} is bound by none)`
  const hidden = access.hidden.length === 0 ? '' : `; ${access.hidden.join(', ')} never answered, nor named in a query (400)`
  switch (operation) {
    case 'list': return ` Access rules${free}: only the records the token's rules let it see, and counts of those${hidden}.`
    case 'read': return ` Access rules${free}: a record outside the token's rules is 404${hidden}.`
    case 'feed': return ` Access rules${free}: only the changes of records the token's rules let it see; one that leaves them is a ` +
      `removal, its id alone${hidden}.`
    case 'write': return ` Access rules${free}: a record outside those the token sees is 404; a write of one outside those it may ` +
      'write, that would move one outside them, or that gives a field the rules hide or set, is 403 and writes nothing.'
  }
}
