import type { StandingCheck } from '../accounts.ts'
import type { StandingColumns, TokenKey, TokenStanding } from '../storage.ts'
import { prepared, type Pool } from './database.ts'

/**
 * A token's standing in PostgreSQL, one round trip per request (another instance, or the CLI, may
 * have revoked the token or deleted its client or user a moment ago): asked alone, or as columns
 * of a read the request makes anyway (`standingColumns`, store/contract.ts's Alongside).
 */
export function postgresStanding (pool: Pool): StandingCheck {
  return {
    tokenStanding: async (token: TokenKey): Promise<TokenStanding> => {
      const { sql, params, standing } = standingColumns(token, 1)
      const { rows } = await pool.query<unknown[]>({ ...prepared(`SELECT ${sql}`, params), rowMode: 'array' })
      return standing(rows[0] as unknown[])
    },
    standingColumns
  }
}

/** One row: the client's generation and creation, whether the token was revoked, its user's generation (null when none). */
function standingColumns (token: TokenKey, first: number): StandingColumns {
  let sql = standingSql.get(first)
  if (sql === undefined) {
    const [jti, client, user] = [`$${first}`, `$${first + 1}`, `$${first + 2}`]
    standingSql.set(first, sql = `(SELECT generation FROM oauth_clients WHERE client_id = ${client}), ` +
      `(SELECT created_at FROM oauth_clients WHERE client_id = ${client}), ` +
      `EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = ${jti}), ` +
      `(SELECT generation FROM users WHERE id = ${user}::bigint)`)
  }
  return {
    sql,
    params: [token.jti, token.clientId, token.userId],
    count: 4,
    standing: ([generation, createdAt, revoked, userGeneration]: unknown[]): TokenStanding => ({
      revoked: revoked as boolean,
      client: generation === null ? undefined : { generation: generation as string, created_at: createdAt as string },
      userExists: token.userId === null || userGeneration !== null,
      userGeneration: (userGeneration as string | null) ?? ''
    })
  }
}

/** The standing's select list by the number of its first parameter: the same text each time, made once. */
const standingSql = new Map<number, string>()
