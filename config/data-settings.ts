// Where the data lives, and how much one request may write or the change feed keep: groups of the
// settings catalogue (config/settings.ts).
import { databaseUrl, directory, integer, optional, redisUrl, seconds } from './parsers.ts'
import type { AnySetting } from './setting.ts'

/** Storage: where the data live: SQLite in the data directory, or PostgreSQL shared by several instances. */
export const STORAGE = {
  dataDir: {
    env: 'DATA_DIR',
    description: 'directory of the SQLite database `zoo.db`, the token signing key and the self-signed certificate (`tls/`); ' +
      'created 0700 if missing, made 0700 at every start; it must be this user\'s, and one others may write into stops start-up',
    default: './data',
    parse: directory
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    description: 'a PostgreSQL database (`postgres://user:password@host:5432/database`, libpq parameters such as `sslmode` and ' +
      '`options` allowed) to keep everything in instead of SQLite in DATA_DIR: several instances may then share it',
    default: '',
    parse: optional(databaseUrl)
  },
  databasePoolSize: {
    env: 'DATABASE_POOL_SIZE',
    description: 'connections each instance keeps open to DATABASE_URL at most',
    default: '10',
    parse: integer(1, 1000, 'connections')
  },
  databaseStatementTimeout: {
    env: 'DATABASE_STATEMENT_TIMEOUT',
    description: 'milliseconds a statement may run on DATABASE_URL before PostgreSQL cancels it (the request then answers 500)',
    default: '10000',
    parse: integer(100, 600000, 'milliseconds')
  },
  aggregateTimeout: {
    env: 'AGGREGATE_TIMEOUT',
    description: 'seconds an aggregate (`/v1/<collection>/aggregate`) may run before it is ended and answered 503 naming this ' +
      'setting, decimals allowed; on SQLite aggregates run on threads of their own, beside the requests',
    default: '5',
    parse: seconds(0.001, 600)
  },
  redisUrl: {
    env: 'REDIS_URL',
    description: 'a Redis server (`redis://host:6379`, `rediss://` for TLS) that keeps the rate-limit counters, so that every ' +
      'instance counts a client\'s requests to all of them; without it each instance counts its own',
    default: '',
    parse: optional(redisUrl)
  },
  unpackDir: {
    env: 'UNPACK_DIR',
    description: 'single binary only: the folder it unpacks what must be on disk into (the SQLite addon, the documentation ' +
      'UI); checked as DATA_DIR is, and not a symbolic link; on a file system that allows executing code. Default `DATA_DIR/unpacked`',
    default: '',
    parse: optional(directory)
  }
} satisfies Record<string, AnySetting>

/** Batches and the change feed: how much one batch may do, and how changes are kept and streamed. */
export const WRITES = {
  batchMaxOperations: {
    env: 'BATCH_MAX_OPERATIONS',
    description: 'operations one `POST /v1/batch` may hold; a larger batch is answered 422',
    default: '100',
    parse: integer(1, 1000, 'operations')
  },
  writeMaxRecords: {
    env: 'WRITE_MAX_RECORDS',
    description: 'records one request may create, change or delete: a POST of an array, a change of many records (`PATCH` or ' +
      '`DELETE` of a collection\'s path), or the operations of a batch together; more is answered 422 before anything is ' +
      'written, and a change reads no more than one record beyond it. On SQLite a write holds the database, and the ' +
      'requests of the process wait, for as long as it takes: at the default, under a second on two cores ' +
      '([operations](operations.md#what-one-request-may-write)). At most 999999, what the change feed ranks in one transaction',
    default: '5000',
    parse: integer(1, 999999, 'records')
  },
  changesRetention: {
    env: 'CHANGES_RETENTION',
    description: 'seconds a change stays in the change feed (`/v1/<collection>/changes`); resuming from a position older than ' +
      'that is answered 410',
    default: '604800',
    parse: integer(60, 315360000, 'seconds')
  },
  changesHeartbeat: {
    env: 'CHANGES_HEARTBEAT',
    description: 'seconds between the comments that keep an idle change stream open; the stream\'s access token is checked again ' +
      'at each, and a revoked one ends the stream',
    default: '15',
    parse: integer(1, 300, 'seconds')
  },
  changesPollInterval: {
    env: 'CHANGES_POLL_INTERVAL',
    description: 'milliseconds between two looks for changes written by another process (another instance on DATABASE_URL), ' +
      'while a change stream is open; the writes of this process are streamed as they commit',
    default: '50',
    parse: integer(5, 60000, 'milliseconds')
  },
  changesStreamsPerUser: {
    env: 'CHANGES_STREAMS_PER_USER',
    description: 'change streams one user may hold open through one client on one instance (a token\'s subject with its client: ' +
      'under client_credentials the client itself); one more is answered 429',
    default: '10',
    parse: integer(1, 10000, 'streams')
  },
  changesStreamsPerClient: {
    env: 'CHANGES_STREAMS_PER_CLIENT',
    description: 'change streams the users of one client may hold open together on one instance, so that one client cannot ' +
      'open streams for any number of users; one more is answered 429',
    default: '1000',
    parse: integer(1, 100000, 'streams')
  }
} satisfies Record<string, AnySetting>
