import type { AccountStore, Client, NewRefreshToken, RefreshToken, User } from '../storage.js'
import { asciiLower } from '../text.js'
import { prepared, transaction, type Pool, type Queryable } from './database.js'

const USER = 'id, username, password_hash, scope, external_issuer, external_subject, created_at'

/**
 * The authorization server's clients, users and tokens in PostgreSQL
 * (migrations/postgres/002_oauth.sql). User names compare without regard to ASCII case, as
 * SQLite's NOCASE column does.
 */
export class PostgresAccountStore implements AccountStore {
  constructor (readonly pool: Pool) {}

  async createClient (client: Omit<Client, 'created_at'>): Promise<Client> {
    const row = { ...client, created_at: new Date().toISOString() }
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

  async isRevoked (jti: string): Promise<boolean> {
    return (await this.pool.query(prepared('SELECT 1 FROM revoked_access_tokens WHERE jti = $1', [jti]))).rowCount !== 0
  }

  async revokedAccessTokens (): Promise<string[]> {
    const now = new Date().toISOString()
    await this.pool.query('DELETE FROM revoked_access_tokens WHERE expires_at <= $1', [now])
    await this.pool.query('DELETE FROM refresh_tokens WHERE expires_at <= $1', [now])
    return (await this.pool.query<{ jti: string }>('SELECT jti FROM revoked_access_tokens')).rows.map(r => r.jti)
  }
}

async function insertRefreshToken (db: Queryable, token: NewRefreshToken): Promise<void> {
  await db.query(`INSERT INTO refresh_tokens (token_hash, family_id, client_id, user_id, scope, expires_at, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  [token.token_hash, token.family_id, token.client_id, token.user_id, token.scope, token.expires_at, new Date().toISOString()])
}
