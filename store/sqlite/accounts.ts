import { randomBytes } from 'node:crypto'
import type { Statement } from 'better-sqlite3'
import type { AccountStore, Client, NewRefreshToken, RefreshToken, TokenKey, TokenStanding, User } from '../storage.ts'
import type { SqliteDatabase } from './database.ts'

/** generation, created_at, revoked, user_exists: a row of plain values, as .raw() returns it, costs less to build. */
type StandingRow = [string, string, 0 | 1, 0 | 1]

/** The authorization server's clients, users and tokens in SQLite (migrations/sqlite/002_oauth.sql). */
export class SqliteAccountStore implements AccountStore {
  // Asked on every request: compiled once, when first needed (after the migrations).
  #standing: Statement<[string, number | null, number | null, string], StandingRow> | undefined

  readonly db: SqliteDatabase

  constructor (db: SqliteDatabase) {
    this.db = db
  }

  async createClient (client: Omit<Client, 'created_at' | 'generation'>): Promise<Client> {
    const row = { ...client, generation: '', created_at: new Date().toISOString() }
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

  async changeClient (clientId: string, change: { secret_hash?: string, scope?: string }): Promise<boolean> {
    return this.db.transaction(() => {
      const changed = this.db.prepare(
        'UPDATE oauth_clients SET secret_hash = coalesce(@secret_hash, secret_hash), scope = coalesce(@scope, scope), ' +
        'generation = @generation WHERE client_id = @client_id AND (@secret_hash IS NULL OR secret_hash IS NOT NULL)'
      ).run({ secret_hash: null, scope: null, ...change, generation: randomBytes(12).toString('base64url'), client_id: clientId })
        .changes > 0
      if (changed) this.db.prepare('DELETE FROM refresh_tokens WHERE client_id = ?').run(clientId)
      return changed
    })()
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

  // Three primary-key lookups in one statement (about 4 µs), and no promise: this runs for every
  // request, and the CLI, another process, may have deleted the client or the user a moment ago.
  // No row: the client is gone, and nothing else matters.
  tokenStanding (token: TokenKey): TokenStanding {
    this.#standing ??= this.db.prepare<[string, number | null, number | null, string], StandingRow>(`SELECT generation, created_at,
        EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = ?),
        (? IS NULL OR EXISTS (SELECT 1 FROM users WHERE id = ?))
      FROM oauth_clients WHERE client_id = ?`).raw()
    const row = this.#standing.get(token.jti, token.userId, token.userId, token.clientId)
    if (row === undefined) return { revoked: false, client: undefined, userExists: false }
    const [generation, createdAt, revoked, userExists] = row
    return { revoked: revoked === 1, client: { generation, created_at: createdAt }, userExists: userExists === 1 }
  }

  async forgetExpired (): Promise<void> {
    const now = new Date().toISOString()
    this.db.prepare('DELETE FROM revoked_access_tokens WHERE expires_at <= ?').run(now)
    this.db.prepare('DELETE FROM refresh_tokens WHERE expires_at <= ?').run(now)
  }
}
