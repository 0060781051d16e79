import type { KindName } from '../../model/kinds.ts'

/** PostgreSQL's column type of a kind of field, as information_schema names it, and the type of an array of its values. */
export interface PostgresColumn {
  type: 'bigint' | 'double precision' | 'boolean' | 'text'
  array: string
}

const BIGINT: PostgresColumn = { type: 'bigint', array: 'bigint' }
const TEXT: PostgresColumn = { type: 'text', array: 'text' }

export const COLUMNS: Record<KindName, PostgresColumn> = {
  reference: BIGINT,
  integer: BIGINT,
  number: { type: 'double precision', array: 'float8' },
  boolean: { type: 'boolean', array: 'boolean' },
  date: TEXT,
  timestamp: TEXT,
  enum: TEXT,
  string: TEXT
}
