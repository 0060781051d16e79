import type { TSchema } from '@sinclair/typebox'
import type { KindName, Scalar } from './kinds.ts'

/** A column of a collection's records: a field, or one the stores keep (id, created_at, updated_at). */
export interface Column {
  name: string
  kind: KindName
  nullable: boolean
  readOnly: boolean
  /** The field's schema, optional and `| null` taken off: what its kind reads its details from (an enum's values). */
  schema: TSchema
  /** For a reference, the collection it names. */
  references?: string
}

export type ResourceRecord = Record<string, Scalar>
