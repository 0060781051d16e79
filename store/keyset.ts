import type { Scalar } from '../model/resource.ts'
import type { SortKey } from './contract.ts'

/** One comparison of a keyset range: a sort key's column against the cursor's value of it. */
export type RangeTerm =
  | { field: string, position: number, test: 'is null' | 'is not null' }
  | { field: string, position: number, test: '=' | '>' | '<', value: Exclude<Scalar, null> }

/**
 * The rows after the keyset position `after` (the sort-key values of the last row seen), as
 * disjoint ranges in sort order, each a conjunction of terms: for each key i from the last to the
 * first, "the keys before i equal the cursor's, key i comes after it". Both engines sort NULL
 * first in ascending order and last in descending order (SQLite always does; the PostgreSQL store
 * says NULLS FIRST / NULLS LAST), so "after" a value of a nullable key in descending order is two
 * ranges: smaller values, then NULL. Each range is one an index of the sort can seek to.
 */
export function keysetRanges (sort: SortKey[], after: Scalar[], nullable: (field: string) => boolean): RangeTerm[][] {
  const ranges: RangeTerm[][] = []
  for (let i = sort.length - 1; i >= 0; i--) {
    const equal: RangeTerm[] = sort.slice(0, i).map((key, j) => {
      const value = after[j] ?? null
      return value === null
        ? { field: key.field, position: j, test: 'is null' }
        : { field: key.field, position: j, test: '=', value }
    })
    const key = sort[i] as SortKey
    const value = after[i] ?? null
    const at = { field: key.field, position: i }
    const following: RangeTerm[] = key.direction === 'asc'
      ? [value === null ? { ...at, test: 'is not null' } : { ...at, test: '>', value }]
      : value === null
        ? []
        : [{ ...at, test: '<', value }, ...(nullable(key.field) ? [{ ...at, test: 'is null' } as const] : [])]
    for (const term of following) ranges.push([...equal, term])
  }
  return ranges
}
