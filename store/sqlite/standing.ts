import type { Statement } from 'better-sqlite3'
import type { StandingCheck } from '../accounts.ts'
import type { TokenKey, TokenStanding } from '../storage.ts'
import type { SqliteDatabase } from './database.ts'

/**
 * generation, created_at, revoked, the user's generation (null when none): a row of plain values,
 * as .raw() returns it, costs less to build.
 */
type StandingRow = [string, string, 0 | 1, string | null]

/**
 * A token's standing in SQLite: three primary-key lookups in one statement, and no promise. This
 * runs for every request, and the CLI, another process, may have deleted the client or the user
 * a moment ago. No row: the client is gone, and nothing else matters.
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
      if (row === undefined) return { revoked: false, client: undefined, userExists: false, userGeneration: '' }
      const [generation, createdAt, revoked, userGeneration] = row
      return {
        revoked: revoked === 1,
        client: { generation, created_at: createdAt },
        userExists: token.userId === null || userGeneration !== null,
        userGeneration: userGeneration ?? ''
      }
    }
  }
}
