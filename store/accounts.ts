import { randomBytes } from 'node:crypto'
import { changesOf, rowsOf, type DatabasePort, type Work } from './database.ts'
import { join, raw, sql, type Sql } from './sql.ts'
import type { AccountStore, Client, NewRefreshToken, RefreshToken, StandingColumns, TokenKey, TokenStanding, User } from './storage.ts'

const CLIENT = raw('client_id, secret_hash, name, scope, created_at, generation, claims')
const USER = raw('id, username, password_hash, scope, external_issuer, external_subject, claims, generation, created_at')
const REFRESH_TOKEN = raw('token_hash, family_id, client_id, user_id, scope, expires_at, rotated_at, revoked_at')

/**
 * Whether a token still stands, as a select list over one row, the same on both engines: the
 * client's generation and creation, whether the token was revoked, its user's generation (null
 * when none). No client: nothing else matters.
 */
export function standingColumns (token: TokenKey): StandingColumns {
  const client = sql`FROM oauth_clients WHERE client_id = ${token.clientId}`
  return {
    columns: join([
      sql`(SELECT generation ${client})`,
      sql`(SELECT created_at ${client})`,
      sql`EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = ${token.jti})`,
      sql`(SELECT generation FROM users WHERE id = ${token.userId})`
    ], ', '),
    standing: ([generation, createdAt, revoked, userGeneration]): TokenStanding => ({
      revoked: revoked === true || revoked === 1,
      client: generation === null ? undefined : { generation: generation as string, created_at: createdAt as string },
      userExists: token.userId === null || userGeneration !== null,
      userGeneration: (userGeneration as string | null) ?? ''
    })
  }
}

/**
 * How an engine asks the standing alone, on every request that reads nothing it could ride with:
 * SQLite answers at once, without a promise; PostgreSQL in a round trip.
 */
export type StandingAlone = (statement: Sql) => unknown[] | Promise<unknown[]>

/**
 * The authorization server's clients, users and tokens (migrations/{sqlite,postgres}/002_oauth.sql).
 * User names compare without regard to ASCII case.
 */
export class SqlAccountStore implements AccountStore {
  readonly db: DatabasePort
  readonly #alone: StandingAlone

  constructor (db: DatabasePort, alone: StandingAlone) {
    this.db = db
    this.#alone = alone
  }

  standingColumns (token: TokenKey): StandingColumns {
    return standingColumns(token)
  }

  tokenStanding (token: TokenKey): TokenStanding | Promise<TokenStanding> {
    const { columns, standing } = standingColumns(token)
    const values = this.#alone(sql`SELECT ${columns}`)
    return values instanceof Promise ? values.then(standing) : standing(values)
  }

  async createClient (client: Omit<Client, 'created_at' | 'generation'>): Promise<Client> {
    const row = { ...client, generation: '', created_at: new Date().toISOString() }
    await this.db.run(sql`INSERT INTO oauth_clients (client_id, secret_hash, name, scope, claims, created_at)
      VALUES (${row.client_id}, ${row.secret_hash}, ${row.name}, ${row.scope}, ${row.claims}, ${row.created_at})`)
    return row
  }

  async client (clientId: string): Promise<Client | undefined> {
    return this.db.row<Client>(sql`SELECT ${CLIENT} FROM oauth_clients WHERE client_id = ${clientId}`)
  }

  async clients (): Promise<Client[]> {
    return this.db.rows<Client>(sql`SELECT ${CLIENT} FROM oauth_clients ORDER BY created_at, client_id`)
  }

  async changeClient (clientId: string, change: { secret_hash?: string, scope?: string, claims?: string }): Promise<boolean> {
    return this.db.transaction(changing(clientId, change.secret_hash ?? null, change.scope ?? null, change.claims ?? null))
  }

  async deleteClient (clientId: string): Promise<boolean> {
    return await this.db.run(sql`DELETE FROM oauth_clients WHERE client_id = ${clientId}`) > 0
  }

  async createUser (user: Omit<User, 'id' | 'created_at' | 'generation'>): Promise<User> {
    return await this.db.row<User>(sql`INSERT INTO users (username, password_hash, scope, external_issuer, external_subject, claims,
      created_at) VALUES (${user.username}, ${user.password_hash}, ${user.scope}, ${user.external_issuer}, ${user.external_subject},
      ${user.claims}, ${new Date().toISOString()}) RETURNING ${USER}`) as User
  }

  async changeUserClaims (username: string, claims: string): Promise<boolean> {
    return this.db.transaction(claiming(this.db.caseless('username', username), claims))
  }

  async user (username: string): Promise<User | undefined> {
    return this.db.row<User>(sql`SELECT ${USER} FROM users WHERE ${this.db.caseless('username', username)}`)
  }

  async userById (id: number): Promise<User | undefined> {
    return this.db.row<User>(sql`SELECT ${USER} FROM users WHERE id = ${id}`)
  }

  async externalUser (issuer: string, subject: string): Promise<User | undefined> {
    return this.db.row<User>(sql`SELECT ${USER} FROM users WHERE external_issuer = ${issuer} AND external_subject = ${subject}`)
  }

  async users (): Promise<User[]> {
    return this.db.rows<User>(sql`SELECT ${USER} FROM users ORDER BY id`)
  }

  async deleteUser (username: string): Promise<boolean> {
    return await this.db.run(sql`DELETE FROM users WHERE ${this.db.caseless('username', username)}`) > 0
  }

  async saveRefreshToken (token: NewRefreshToken): Promise<void> {
    await this.db.run(insertRefreshToken(token))
  }

  async refreshToken (tokenHash: string): Promise<RefreshToken | undefined> {
    return this.db.row<RefreshToken>(sql`SELECT ${REFRESH_TOKEN} FROM refresh_tokens WHERE token_hash = ${tokenHash}`)
  }

  async rotate (used: string, next: NewRefreshToken): Promise<boolean> {
    return this.db.transaction(rotating(used, next))
  }

  async revokeFamily (familyId: string): Promise<void> {
    await this.db.run(sql`UPDATE refresh_tokens SET revoked_at = ${new Date().toISOString()}
      WHERE family_id = ${familyId} AND revoked_at IS NULL`)
  }

  async revokeAccessToken (jti: string, expiresAt: Date): Promise<void> {
    await this.db.run(sql`INSERT INTO revoked_access_tokens (jti, expires_at) VALUES (${jti}, ${expiresAt.toISOString()})
      ON CONFLICT (jti) DO NOTHING`)
  }

  async forgetExpired (): Promise<void> {
    const now = new Date().toISOString()
    await this.db.run(sql`DELETE FROM revoked_access_tokens WHERE expires_at <= ${now}`)
    await this.db.run(sql`DELETE FROM refresh_tokens WHERE expires_at <= ${now}`)
  }
}

/** A new generation, which an access token names: one of an earlier generation is refused. */
const newGeneration = (): string => randomBytes(12).toString('base64url')

/**
 * A new secret, scope or claims (null: unchanged) and a new generation; the client's refresh
 * tokens go. A public client gets no secret.
 */
function * changing (clientId: string, secretHash: string | null, scope: string | null, claims: string | null): Work<boolean> {
  const changed = yield * changesOf(sql`UPDATE oauth_clients SET secret_hash = coalesce(${secretHash}, secret_hash),
    scope = coalesce(${scope}, scope), claims = coalesce(${claims}, claims), generation = ${newGeneration()}
    WHERE client_id = ${clientId} AND (CAST(${secretHash} AS text) IS NULL OR secret_hash IS NOT NULL)`)
  if (changed > 0) yield * changesOf(sql`DELETE FROM refresh_tokens WHERE client_id = ${clientId}`)
  return changed > 0
}

/** New claims and a new generation for the user `named` finds; its refresh tokens go. */
function * claiming (named: Sql, claims: string): Work<boolean> {
  const ids = yield * rowsOf<{ id: number }>(
    sql`UPDATE users SET claims = ${claims}, generation = ${newGeneration()} WHERE ${named} RETURNING id`)
  for (const { id } of ids) yield * changesOf(sql`DELETE FROM refresh_tokens WHERE user_id = ${id}`)
  return ids.length > 0
}

/** Marks `used` rotated and stores `next`, unless `used` was rotated or revoked meanwhile: then nothing. */
function * rotating (used: string, next: NewRefreshToken): Work<boolean> {
  // Where transactions run side by side (PostgreSQL), the row lock of the UPDATE makes a
  // concurrent one wait, then find rotated_at set: no row.
  const claimed = (yield * changesOf(sql`UPDATE refresh_tokens SET rotated_at = ${new Date().toISOString()}
    WHERE token_hash = ${used} AND rotated_at IS NULL AND revoked_at IS NULL`)) === 1
  if (claimed) yield * changesOf(insertRefreshToken(next))
  return claimed
}

function insertRefreshToken (token: NewRefreshToken): Sql {
  return sql`INSERT INTO refresh_tokens (token_hash, family_id, client_id, user_id, scope, expires_at, created_at)
    VALUES (${token.token_hash}, ${token.family_id}, ${token.client_id}, ${token.user_id}, ${token.scope}, ${token.expires_at},
    ${new Date().toISOString()})`
}
