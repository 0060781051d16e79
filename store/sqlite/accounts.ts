import type { AccountStore, Client, NewRefreshToken, RefreshToken, User } from '../storage.js'
import type { SqliteDatabase } from './database.js'

/** The authorization server's clients, users and tokens in SQLite (migrations/sqlite/002_oauth.sql). */
export class SqliteAccountStore implements AccountStore {
  constructor (readonly db: SqliteDatabase) {}

  async createClient (client: Omit<Client, 'created_at'>): Promise<Client> {
    const row = { ...client, created_at: new Date().toISOString() }
    this.db.prepare(
      'INSERT INTO oauth_clients (client_id, secret_hash, name, scope, created_at) ' +
      'VALUES (@client_id, @secret_hash, @name, @scope, @created_at)'
    ).run(row)
    return row
  }

  async client (clientId: string): Promise<Client | undefined> {
    return this.db.prepare('SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId) as Client | undefined
  }

  async clients (): Promise<Client[]> {
    return this.db.prepare('SELECT * FROM oauth_clients ORDER BY created_at, client_id').all() as Client[]
  }

  async deleteClient (clientId: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM oauth_clients WHERE client_id = ?').run(clientId).changes > 0
  }

  async createUser (user: Omit<User, 'id' | 'created_at'>): Promise<User> {
    return this.db.prepare(`INSERT INTO users (username, password_hash, scope, external_issuer, external_subject, created_at)
      VALUES (@username, @password_hash, @scope, @external_issuer, @external_subject, @created_at) RETURNING *`)
      .get({ ...user, created_at: new Date().toISOString() }) as User
  }

  async user (username: string): Promise<User | undefined> {
    return this.db.prepare('SELECT * FROM users WHERE username = ?').get(username) as User | undefined
  }

  async userById (id: number): Promise<User | undefined> {
    return this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as User | undefined
  }

  async externalUser (issuer: string, subject: string): Promise<User | undefined> {
    return this.db.prepare('SELECT * FROM users WHERE external_issuer = ? AND external_subject = ?')
      .get(issuer, subject) as User | undefined
  }

  async users (): Promise<User[]> {
    return this.db.prepare('SELECT * FROM users ORDER BY id').all() as User[]
  }

  async deleteUser (username: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM users WHERE username = ?').run(username).changes > 0
  }

  async saveRefreshToken (token: NewRefreshToken): Promise<void> {
    this.#insertRefreshToken(token)
  }

  #insertRefreshToken (token: NewRefreshToken): void {
    this.db.prepare(`INSERT INTO refresh_tokens (token_hash, family_id, client_id, user_id, scope, expires_at, created_at)
      VALUES (@token_hash, @family_id, @client_id, @user_id, @scope, @expires_at, @created_at)`)
      .run({ ...token, created_at: new Date().toISOString() })
  }

  async refreshToken (tokenHash: string): Promise<RefreshToken | undefined> {
    return this.db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?').get(tokenHash) as RefreshToken | undefined
  }

  async rotate (used: string, next: NewRefreshToken): Promise<boolean> {
    return this.db.transaction(() => {
      const claimed = this.db.prepare(
        'UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL'
      ).run(new Date().toISOString(), used).changes === 1
      if (claimed) this.#insertRefreshToken(next)
      return claimed
    })()
  }

  async revokeFamily (familyId: string): Promise<void> {
    this.db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL')
      .run(new Date().toISOString(), familyId)
  }

  async revokeAccessToken (jti: string, expiresAt: Date): Promise<void> {
    this.db.prepare('INSERT OR IGNORE INTO revoked_access_tokens (jti, expires_at) VALUES (?, ?)').run(jti, expiresAt.toISOString())
  }

  async isRevoked (jti: string): Promise<boolean> {
    return this.db.prepare('SELECT 1 FROM revoked_access_tokens WHERE jti = ?').get(jti) !== undefined
  }

  async revokedAccessTokens (): Promise<string[]> {
    const now = new Date().toISOString()
    this.db.prepare('DELETE FROM revoked_access_tokens WHERE expires_at <= ?').run(now)
    this.db.prepare('DELETE FROM refresh_tokens WHERE expires_at <= ?').run(now)
    return this.db.prepare('SELECT jti FROM revoked_access_tokens').pluck().all() as string[]
  }
}
