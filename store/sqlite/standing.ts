import type { Statement } from 'better-sqlite3'
import type { StandingCheck } from '../accounts.ts'
import type { StandingColumns, TokenKey, TokenStanding } from '../storage.ts'
import type { SqliteDatabase } from './database.ts'

/**
 * generation, created_at, revoked, the user's generation (null when none): a row of plain values,
 * as .raw() returns it, costs less to build.
 */
type StandingRow = [string, string, 0 | 1, string | null]

/**
 * A token's standing in SQLite, asked on every request: the CLI, another process, may have deleted
 * the client or the user a moment ago. Asked alone (`tokenStanding`: three primary-key lookups in
 * one statement, and no promise), or as columns of the request's read of a record
 * (`standingColumns`), which spares a statement and its file locks (docs/benchmarks.md,
 * "Per-request cost"). No client: nothing else matters.
 */
export function sqliteStanding (db: SqliteDatabase): StandingCheck {
  // Compiled once, when first needed (after the migrations).
  let standing: Statement<[string, number | null, string], StandingRow> | undefined
  return {
    tokenStanding: (token: TokenKey): TokenStanding => {
      standing ??= db.prepare<[string, number | null, string], StandingRow>(`SELECT generation, created_at,
          EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = ?),
          (SELECT generation FROM users WHERE id = ?)
        FROM oauth_clients WHERE client_id = ?`).raw()
      const row = standing.get(token.jti, token.userId, token.clientId)
      return row === undefined ? standingOf(token, [null, null, 0, null]) : standingOf(token, row)
    },
    standingColumns: (token: TokenKey): StandingColumns => ({
      sql: STANDING_COLUMNS,
      params: [token.clientId, token.clientId, token.jti, token.userId],
      count: 4,
      standing: values => standingOf(token, values as StandingRow | NoClient)
    })
  }
}

/** The standing as a select list over one row, its placeholders unnumbered (`?`): the same text for every token. */
const STANDING_COLUMNS = '(SELECT generation FROM oauth_clients WHERE client_id = ?), ' +
  '(SELECT created_at FROM oauth_clients WHERE client_id = ?), ' +
  'EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = ?), ' +
  '(SELECT generation FROM users WHERE id = ?)'

/** The row of a client that is gone. */
type NoClient = [null, null, 0 | 1, string | null]

function standingOf (token: TokenKey, [generation, createdAt, revoked, userGeneration]: StandingRow | NoClient): TokenStanding {
  return {
    revoked: revoked === 1,
    client: generation === null ? undefined : { generation, created_at: createdAt as string },
    userExists: token.userId === null || userGeneration !== null,
    userGeneration: userGeneration ?? ''
  }
}
