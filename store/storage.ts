import type { Resource } from '../model/resource.ts'
import type { CollectionStores, Owner } from './contract.ts'
import type { Sql } from './sql.ts'
import type { SqlWebhookStore } from './webhooks.ts'

/**
 * The collections a storage keeps: their resources, and where the migrations that make their
 * tables are (undefined: those this version ships; a folder: a test's, store/migrations.ts).
 */
export interface StoredCollections {
  resources: Resource[]
  migrations?: string
}

/**
 * Everything the service keeps, behind one interface per concern, free of SQL: each database
 * engine (store/sqlite/, store/postgres/) provides all of them, the collections its own way, the
 * others written once over its database port (store/database.ts), and nothing above them knows
 * which one runs. Every method answers a promise: PostgreSQL answers over the network.
 */
export interface Storage {
  readonly engine: 'sqlite' | 'postgres'
  /**
   * Whether other processes (other instances of the service) use the same database: then what
   * one process remembers may be outdated by another's write, and the database must be asked.
   */
  readonly shared: boolean
  readonly collections: CollectionStores
  readonly accounts: AccountStore
  readonly idempotency: IdempotencyStore
  readonly jobs: JobStore
  /** Webhooks' subscriptions and deliveries (store/webhooks.ts). */
  readonly webhooks: SqlWebhookStore
  readonly signingKeys: SigningKeyStore
  /** The migrations this version ships that the database has not applied; throws when the database does not answer. */
  pendingMigrations (): Promise<string[]>
  /** Runs `work` while no other instance runs its own: the start-up steps that must happen once. */
  exclusively<T> (work: () => Promise<T>): Promise<T>
  /**
   * SQLite only: copies the database, while it serves, into `file` (store/sqlite/backup.ts). A
   * PostgreSQL database is backed up by PostgreSQL's own tools.
   */
  readonly backUp?: (file: string) => Promise<TakenBackup>
  /** PostgreSQL only: how the pool's connections are used now. */
  readonly connections?: () => ConnectionUse
  /** Ends every connection, after what is being written is written. */
  close (): Promise<void>
}

/** A pool's connections: in use, idle, the requests waiting for one, and how many it may open. */
export interface ConnectionUse {
  used: number
  idle: number
  pending: number
  max: number
}

/** What a backup wrote. */
export interface TakenBackup {
  file: string
  bytes: number
  /** The newest migration the copy holds: the program version it needs at least. */
  migration: string | null
}

export interface Client {
  client_id: string
  /** null for a public client. */
  secret_hash: string | null
  name: string
  /** Space-separated scopes the client may be granted. */
  scope: string
  /** Changes with the secret, the scope or the claims: a token of an earlier generation is refused. */
  generation: string
  /** The claims its own tokens carry, as a JSON object (auth/claims.ts). */
  claims: string
  created_at: string
}

export interface User {
  id: number
  username: string
  password_hash: string | null
  scope: string
  external_issuer: string | null
  external_subject: string | null
  /** The claims its tokens carry, as a JSON object (auth/claims.ts). */
  claims: string
  /** Changes with the claims: a token of an earlier generation is refused. */
  generation: string
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

export type NewRefreshToken = Omit<RefreshToken, 'rotated_at' | 'revoked_at'>

/** What names an access token's standing: its id, its client, and its user if it speaks for one. */
export interface TokenKey { jti: string, clientId: string, userId: number | null }

/** What an access token's signature cannot tell: whether it was revoked, and whether its client and user still stand. */
export interface TokenStanding {
  revoked: boolean
  /** undefined when the client was deleted. */
  client: Pick<Client, 'generation' | 'created_at'> | undefined
  /** false when the token speaks for a user who was deleted. */
  userExists: boolean
  /** The generation of the user the token speaks for; '' when it speaks for none, or for one deleted. */
  userGeneration: string
}

/** What the authorization server keeps: clients, users, refresh tokens, revoked access tokens. */
export interface AccountStore {
  createClient (client: Omit<Client, 'created_at' | 'generation'>): Promise<Client>
  client (clientId: string): Promise<Client | undefined>
  clients (): Promise<Client[]>
  /**
   * A new secret or scope, and a new generation: every token issued before, access or refresh,
   * stops working. False when there is no such client.
   */
  changeClient (clientId: string, change: { secret_hash?: string, scope?: string, claims?: string }): Promise<boolean>
  /** Deletes the client; its refresh tokens go with it, and its access tokens are refused from then on. */
  deleteClient (clientId: string): Promise<boolean>
  createUser (user: Omit<User, 'id' | 'created_at' | 'generation'>): Promise<User>
  /**
   * New claims for a user, and a new generation: its tokens issued before, access or refresh,
   * stop working. False when there is no such user.
   */
  changeUserClaims (username: string, claims: string): Promise<boolean>
  user (username: string): Promise<User | undefined>
  userById (id: number): Promise<User | undefined>
  externalUser (issuer: string, subject: string): Promise<User | undefined>
  users (): Promise<User[]>
  deleteUser (username: string): Promise<boolean>
  saveRefreshToken (token: NewRefreshToken): Promise<void>
  refreshToken (tokenHash: string): Promise<RefreshToken | undefined>
  /**
   * Marks a token used and stores its successor, both or neither: false, and nothing stored, when
   * the token was used or revoked meanwhile (another request with it got there first).
   */
  rotate (used: string, next: NewRefreshToken): Promise<boolean>
  revokeFamily (familyId: string): Promise<void>
  revokeAccessToken (jti: string, expiresAt: Date): Promise<void>
  /**
   * Asked for every request: an engine that can answer without waiting (SQLite, in the process)
   * answers at once, so that the request does not wait for a promise.
   */
  tokenStanding (token: TokenKey): TokenStanding | Promise<TokenStanding>
  /**
   * The question of tokenStanding as a select list over one row, to ask it in a statement the
   * request makes anyway (on PostgreSQL, its round trip; on SQLite, its locks), and the standing
   * its values say.
   */
  standingColumns (token: TokenKey): StandingColumns
  /** Forgets revoked access tokens and refresh tokens that have expired. */
  forgetExpired (): Promise<void>
}

/** A token's standing as a select list over one row (a fragment of the `sql` template), and what its values say. */
export interface StandingColumns { columns: Sql, standing: (values: unknown[]) => TokenStanding }

export interface StoredAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** What a keyed request finds: the key is now its own, or taken by a request in flight, by another request, or answered. */
export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'in_flight' }
  | { outcome: 'mismatch' }
  | { outcome: 'replay', answer: StoredAnswer }

/** Keys live this long. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000
/** A key in flight for longer belongs to a request that never finished (a crash): it is free again. */
export const ABANDONED_KEY_MS = 5 * 60 * 1000

/** Idempotency keys: the first request with a key claims it, and its answer is kept for the retries. */
export interface IdempotencyStore {
  claim (owner: string, key: string, fingerprint: string): Promise<Claim>
  complete (owner: string, key: string, answer: StoredAnswer): Promise<void>
  /** A request that failed on the server's side leaves its key free for the retry. */
  release (owner: string, key: string): Promise<void>
}

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed'

/** Who queued a job; nobody else may see it. */
export type JobOwner = Owner

/** A write request kept to be replayed later, as the client sent it. */
export interface StoredRequest {
  method: string
  /** Path and query as received, API_PREFIX included. */
  url: string
  headers: Record<string, string>
  /** JSON text; null when the request had no body. */
  body: string | null
}

/** The answer a job's request got: its status and JSON body (null when it had none). */
export interface JobResult {
  status: number
  body: unknown
}

/** A job as its owner sees it. */
export interface JobView {
  id: string
  status: JobStatus
  created_at: string
  finished_at: string | null
  result: JobResult | null
}

/** A job the worker has taken: everything it needs to replay the request. */
export interface ClaimedJob {
  id: string
  owner: JobOwner
  /** The scopes of the token that queued it, space-separated. */
  scope: string
  /** The claims of the token that queued it beyond its own members, as a JSON object (auth/claims.ts). */
  claims: string
  request: StoredRequest
}

/** The background jobs. */
export interface JobStore {
  enqueue (owner: JobOwner, scope: string, claims: string, request: StoredRequest): Promise<JobView>
  /** The job if `owner` queued it: another's is as absent as one that never was. */
  find (id: string, owner: JobOwner): Promise<JobView | undefined>
  /** Takes the oldest queued job (marks it running) and returns it; undefined when none is queued. */
  claimNext (): Promise<ClaimedJob | undefined>
  /**
   * Records the answer of a running job: succeeded for a 2xx, failed for anything else. Its
   * request body, no longer needed, is dropped.
   */
  finish (id: string, result: JobResult): Promise<void>
  /** A running job whose request was not sent after all goes back to the queue, in its place. */
  requeue (id: string): Promise<void>
  /** Jobs whose worker is gone (a process that died while running them) are queued again. Returns how many. */
  requeueAbandoned (): Promise<number>
  /** How many of `owner`'s jobs are queued or running. */
  waiting (owner: JobOwner): Promise<number>
  /** How many jobs of every owner wait in the queue. */
  queued (): Promise<number>
  /** Deletes the jobs that succeeded before `succeeded` or failed before `failed`. Returns how many. */
  prune (succeeded: Date, failed: Date): Promise<number>
}

/** A key that signs access tokens, as kept: its private JWK. */
export interface StoredSigningKey {
  kid: string
  /** The private key as a JWK (JSON text). */
  jwk: string
  created_at: string
}

/** The keys that sign access tokens, shared by every instance of the service. */
export interface SigningKeyStore {
  /** Every key, newest first. */
  all (): Promise<StoredSigningKey[]>
  /** Adds a key unless one with its kid is there. */
  add (key: StoredSigningKey): Promise<void>
  /** Deletes the keys that a newer key replaced before `before`. Returns how many. */
  retire (before: Date): Promise<number>
}
