import { randomBytes } from 'node:crypto'
import type { AccountStore, Client, NewRefreshToken, RefreshToken, TokenKey, TokenStanding, User } from '../storage.ts'
import { asciiLower } from '../../model/text.ts'
import { prepared, transaction, type Pool, type Queryable } from './database.ts'

const USER = 'id, username, password_hash, scope, external_issuer, external_subject, created_at'

/**
 * The authorization server's clients, users and tokens in PostgreSQL
 * (migrations/postgres/002_oauth.sql). User names compare without regard to ASCII case, as
 * SQLite's NOCASE column does.
 */
export class PostgresAccountStore implements AccountStore {
  readonly pool: Pool

  constructor (pool: Pool) {
    this.pool = pool
  }

  async createClient (client: Omit<Client, 'created_at' | 'generation'>): Promise<Client> {
    const row = { ...client, generation: '', created_at: new Date().toISOString() }
    await this.pool.query('INSERT INTO oauth_clients (client_id, secret_hash, name, scope, created_at) VALUES ($1, $2, $3, $4, $5)',
      [row.client_id, row.secret_hash, row.name, row.scope, row.created_at])
    return row
  }

  async client (clientId: string): Promise<Client | undefined> {
    return (await this.pool.query<Client>(prepared('SELECT * FROM oauth_clients WHERE client_id = $1', [clientId]))).rows[0]
  }

  async clients (): Promise<Client[]> {
    return (await this.pool.query<Client>('SELECT * FROM oauth_clients ORDER BY created_at, client_id')).rows
  }

  async changeClient (clientId: string, change: { secret_hash?: string, scope?: string }): Promise<boolean> {
    return transaction(this.pool, async db => {
      const { rowCount } = await db.query('UPDATE oauth_clients SET secret_hash = coalesce($1, secret_hash), ' +
        'scope = coalesce($2, scope), generation = $3 WHERE client_id = $4 AND ($1::text IS NULL OR secret_hash IS NOT NULL)',
      [change.secret_hash ?? null, change.scope ?? null, randomBytes(12).toString('base64url'), clientId])
      if (rowCount !== 0) await db.query('DELETE FROM refresh_tokens WHERE client_id = $1', [clientId])
      return rowCount !== 0
    })
  }

  async deleteClient (clientId: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM oauth_clients WHERE client_id = $1', [clientId])).rowCount !== 0
  }

  async createUser (user: Omit<User, 'id' | 'created_at'>): Promise<User> {
    const { rows } = await this.pool.query<User>(`INSERT INTO users
      (username, password_hash, scope, external_issuer, external_subject, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${USER}`,
    [user.username, user.password_hash, user.scope, user.external_issuer, user.external_subject, new Date().toISOString()])
    return rows[0] as User
  }

  async user (username: string): Promise<User | undefined> {
    return (await this.pool.query<User>(`SELECT ${USER} FROM users WHERE lower(username) = $1`, [asciiLower(username)])).rows[0]
  }

  async userById (id: number): Promise<User | undefined> {
    return (await this.pool.query<User>(`SELECT ${USER} FROM users WHERE id = $1`, [id])).rows[0]
  }

  async externalUser (issuer: string, subject: string): Promise<User | undefined> {
    return (await this.pool.query<User>(`SELECT ${USER} FROM users WHERE external_issuer = $1 AND external_subject = $2`,
      [issuer, subject])).rows[0]
  }

  async users (): Promise<User[]> {
    return (await this.pool.query<User>(`SELECT ${USER} FROM users ORDER BY id`)).rows
  }

  async deleteUser (username: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM users WHERE lower(username) = $1', [asciiLower(username)])).rowCount !== 0
  }

  async saveRefreshToken (token: NewRefreshToken): Promise<void> {
    await insertRefreshToken(this.pool, token)
  }

  async refreshToken (tokenHash: string): Promise<RefreshToken | undefined> {
    return (await this.pool.query<RefreshToken>(`SELECT token_hash, family_id, client_id, user_id, scope, expires_at, rotated_at, revoked_at
      FROM refresh_tokens WHERE token_hash = $1`, [tokenHash])).rows[0]
  }

  async rotate (used: string, next: NewRefreshToken): Promise<boolean> {
    return transaction(this.pool, async client => {
      // The row lock of the UPDATE makes a concurrent one wait, then find rotated_at set: no row.
      const { rowCount } = await client.query('UPDATE refresh_tokens SET rotated_at = $1 WHERE token_hash = $2 AND rotated_at IS NULL ' +
        'AND revoked_at IS NULL', [new Date().toISOString(), used])
      if (rowCount === 1) await insertRefreshToken(client, next)
      return rowCount === 1
    })
  }

  async revokeFamily (familyId: string): Promise<void> {
    await this.pool.query('UPDATE refresh_tokens SET revoked_at = $1 WHERE family_id = $2 AND revoked_at IS NULL',
      [new Date().toISOString(), familyId])
  }

  async revokeAccessToken (jti: string, expiresAt: Date): Promise<void> {
    await this.pool.query('INSERT INTO revoked_access_tokens (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING',
      [jti, expiresAt.toISOString()])
  }

  // One round trip per request: another instance, or the CLI, may have revoked the token or
  // deleted its client or user a moment ago.
  async tokenStanding (token: TokenKey): Promise<TokenStanding> {
    const { sql, params, standing } = this.standingColumns(token, 1)
    const { rows } = await this.pool.query<unknown[]>({ ...prepared(`SELECT ${sql}`, params), rowMode: 'array' })
    return standing(rows[0] as unknown[])
  }

  /** One row: the client's generation and creation, whether the token was revoked, whether its user (if any) exists. */
  standingColumns (token: TokenKey, first: number) {
    let sql = standingSql.get(first)
    if (sql === undefined) {
      const [jti, client, user] = [`$${first}`, `$${first + 1}`, `$${first + 2}`]
      standingSql.set(first, sql = `(SELECT generation FROM oauth_clients WHERE client_id = ${client}), ` +
        `(SELECT created_at FROM oauth_clients WHERE client_id = ${client}), ` +
        `EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = ${jti}), ` +
        `(${user}::bigint IS NULL OR EXISTS (SELECT 1 FROM users WHERE id = ${user}))`)
    }
    return {
      sql,
      params: [token.jti, token.clientId, token.userId],
      count: 4,
      standing: ([generation, createdAt, revoked, userExists]: unknown[]): TokenStanding => ({
        revoked: revoked as boolean,
        client: generation === null ? undefined : { generation: generation as string, created_at: createdAt as string },
        userExists: userExists as boolean
      })
    }
  }

  async forgetExpired (): Promise<void> {
    const now = new Date().toISOString()
    await this.pool.query('DELETE FROM revoked_access_tokens WHERE expires_at <= $1', [now])
    await this.pool.query('DELETE FROM refresh_tokens WHERE expires_at <= $1', [now])
  }
}

/** The standing's select list by the number of its first parameter: the same text each time, made once. */
const standingSql = new Map<number, string>()

async function insertRefreshToken (db: Queryable, token: NewRefreshToken): Promise<void> {
  await db.query(`INSERT INTO refresh_tokens (token_hash, family_id, client_id, user_id, scope, expires_at, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  [token.token_hash, token.family_id, token.client_id, token.user_id, token.scope, token.expires_at, new Date().toISOString()])
}
