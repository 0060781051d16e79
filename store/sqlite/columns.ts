import type { KindName, Value } from '../../model/kinds.ts'

/**
 * SQLite's column type of a kind of field (STRICT tables hold exactly it), and the value as bound
 * and as read when they differ from JSON's.
 */
export interface SqliteColumn {
  type: 'INTEGER' | 'REAL' | 'TEXT'
  bind?: (value: Value) => Value
  read?: (stored: Value) => Value
}

const INTEGER: SqliteColumn = { type: 'INTEGER' }
const TEXT: SqliteColumn = { type: 'TEXT' }

export const COLUMNS: Record<KindName, SqliteColumn> = {
  reference: INTEGER,
  integer: INTEGER,
  number: { type: 'REAL' },
  // STRICT tables have no boolean type: 0 and 1, read back as false and true.
  boolean: { type: 'INTEGER', bind: value => value === true ? 1 : 0, read: stored => stored === 1 },
  date: TEXT,
  timestamp: TEXT,
  enum: TEXT,
  string: TEXT
}
