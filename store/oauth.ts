import type { SqliteDatabase } from './sqlite.js'

export interface Client {
  client_id: string
  /** null for a public client. */
  secret_hash: string | null
  name: string
  /** Space-separated scopes the client may be granted. */
  scope: string
  created_at: string
}

export interface User {
  id: number
  username: string
  password_hash: string | null
  scope: string
  external_issuer: string | null
  external_subject: string | null
  created_at: string
}

export interface RefreshToken {
  token_hash: string
  family_id: string
  client_id: string
  user_id: number | null
  scope: string
  expires_at: string
  rotated_at: string | null
  revoked_at: string | null
}

/** What the authorization server keeps: clients, users, refresh tokens, revoked access tokens. */
export class OAuthStore {
  constructor (readonly db: SqliteDatabase) {}

  createClient (client: Omit<Client, 'created_at'>): Client {
    const row = { ...client, created_at: new Date().toISOString() }
    this.db.prepare(
      'INSERT INTO oauth_clients (client_id, secret_hash, name, scope, created_at) ' +
      'VALUES (@client_id, @secret_hash, @name, @scope, @created_at)'
    ).run(row)
    return row
  }

  client (clientId: string): Client | undefined {
    return this.db.prepare('SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId) as Client | undefined
  }

  clients (): Client[] {
    return this.db.prepare('SELECT * FROM oauth_clients ORDER BY created_at, client_id').all() as Client[]
  }

  deleteClient (clientId: string): boolean {
    return this.db.prepare('DELETE FROM oauth_clients WHERE client_id = ?').run(clientId).changes > 0
  }

  createUser (user: Omit<User, 'id' | 'created_at'>): User {
    return this.db.prepare(`INSERT INTO users (username, password_hash, scope, external_issuer, external_subject, created_at)
      VALUES (@username, @password_hash, @scope, @external_issuer, @external_subject, @created_at) RETURNING *`)
      .get({ ...user, created_at: new Date().toISOString() }) as User
  }

  user (username: string): User | undefined {
    return this.db.prepare('SELECT * FROM users WHERE username = ?').get(username) as User | undefined
  }

  userById (id: number): User | undefined {
    return this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as User | undefined
  }

  externalUser (issuer: string, subject: string): User | undefined {
    return this.db.prepare('SELECT * FROM users WHERE external_issuer = ? AND external_subject = ?')
      .get(issuer, subject) as User | undefined
  }

  users (): User[] {
    return this.db.prepare('SELECT * FROM users ORDER BY id').all() as User[]
  }

  deleteUser (username: string): boolean {
    return this.db.prepare('DELETE FROM users WHERE username = ?').run(username).changes > 0
  }

  saveRefreshToken (token: Omit<RefreshToken, 'rotated_at' | 'revoked_at'>): void {
    this.db.prepare(`INSERT INTO refresh_tokens (token_hash, family_id, client_id, user_id, scope, expires_at, created_at)
      VALUES (@token_hash, @family_id, @client_id, @user_id, @scope, @expires_at, @created_at)`)
      .run({ ...token, created_at: new Date().toISOString() })
  }

  refreshToken (tokenHash: string): RefreshToken | undefined {
    return this.db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?').get(tokenHash) as RefreshToken | undefined
  }

  /** Marks a token used and stores its successor, both or neither. */
  rotate (used: string, next: Omit<RefreshToken, 'rotated_at' | 'revoked_at'>): void {
    this.db.transaction(() => {
      this.db.prepare('UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ?').run(new Date().toISOString(), used)
      this.saveRefreshToken(next)
    })()
  }

  revokeFamily (familyId: string): void {
    this.db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL')
      .run(new Date().toISOString(), familyId)
  }

  revokeAccessToken (jti: string, expiresAt: Date): void {
    this.db.prepare('INSERT OR IGNORE INTO revoked_access_tokens (jti, expires_at) VALUES (?, ?)').run(jti, expiresAt.toISOString())
  }

  /** The revoked access tokens not yet expired; the expired ones are forgotten. */
  revokedAccessTokens (): string[] {
    const now = new Date().toISOString()
    this.db.prepare('DELETE FROM revoked_access_tokens WHERE expires_at <= ?').run(now)
    this.db.prepare('DELETE FROM refresh_tokens WHERE expires_at <= ?').run(now)
    return this.db.prepare('SELECT jti FROM revoked_access_tokens').pluck().all() as string[]
  }
}
