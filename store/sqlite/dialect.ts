import { KINDS } from '../../collections/kinds.ts'
import type { Dialect } from '../collections.ts'

/**
 * SQLite's side of store/collections.ts: `?` parameters, no row locks (a write's transaction,
 * BEGIN IMMEDIATE, holds the whole database), text compared as its column's collation says (a
 * unique field's column is NOCASE), values of each kind in the form its STRICT column holds.
 */
export const SQLITE: Dialect = {
  placeholder: () => '?',
  bind: (kind, value) => KINDS[kind].sqlite.bind?.(value) ?? value,
  read: (kind, stored) => stored === null ? null : KINDS[kind].sqlite.read?.(stored) ?? stored,
  forUpdate: '',
  forKeyShare: '',
  distinct: 'IS NOT',
  folded: column => column,
  fold: value => value,
  oneOf: (expression, _kind, values, params) => `${expression} IN (${values.map(v => params.add(v)).join(', ')})`
}
