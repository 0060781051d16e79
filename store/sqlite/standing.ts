import type { Statement } from 'better-sqlite3'
import type { StandingCheck } from '../accounts.ts'
import type { StandingColumns, TokenKey, TokenStanding } from '../storage.ts'
import type { SqliteDatabase } from './database.ts'
import { sqliteStatement } from '../observed.ts'

/**
 * A token's standing in SQLite (the CLI, another process, may have deleted the client or the user a moment ago): columns of the
 * request's read of a record (one taking of the file's locks), or alone in a statement of them, without a promise. Placeholders: `?`.
 */
export function sqliteStanding (db: SqliteDatabase): StandingCheck {
  // Compiled once, when first needed (after the migrations).
  let alone: Statement<unknown[], unknown[]> | undefined
  const standingColumns = (token: TokenKey): StandingColumns => ({
    sql: '(SELECT generation FROM oauth_clients WHERE client_id = ?), (SELECT created_at FROM oauth_clients WHERE client_id = ?), ' +
      'EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = ?), (SELECT generation FROM users WHERE id = ?)',
    params: [token.clientId, token.clientId, token.jti, token.userId],
    count: 4,
    // No client: nothing else matters.
    standing: ([generation, createdAt, revoked, userGeneration]): TokenStanding => ({
      revoked: revoked === 1,
      client: generation === null ? undefined : { generation: generation as string, created_at: createdAt as string },
      userExists: token.userId === null || userGeneration !== null,
      userGeneration: (userGeneration as string | null) ?? ''
    })
  })
  return {
    tokenStanding: (token: TokenKey): TokenStanding => {
      const { sql, params, standing } = standingColumns(token)
      const statement = alone ??= db.prepare<unknown[], unknown[]>(`SELECT ${sql}`).raw()
      return standing(sqliteStatement(statement.source, () => statement.get(...params) as unknown[]))
    },
    standingColumns
  }
}
