import { SqlAccountStore, type StandingAlone } from './accounts.ts'
import type { DatabasePort } from './database.ts'
import { SqlIdempotencyStore } from './idempotency.ts'
import { SqlJobStore, type Lease } from './jobs.ts'
import { SqlSigningKeyStore } from './keys.ts'
import { pending, type Migration } from './migrations.ts'
import type { Storage } from './storage.ts'
import { SqlWebhookStore } from './webhooks.ts'

/** What an engine gives the stores beside its collections. */
export interface ServiceStoresOf {
  port: DatabasePort
  migrations: Migration[]
  /** How a token's standing is asked in a statement of its own (store/accounts.ts). */
  standingAlone: StandingAlone
  /** How a worker holds a job it took (store/jobs.ts): none where one process serves the database. */
  lease?: Lease
}

/**
 * The stores of the service beside its collections (accounts, idempotency keys, jobs, signing
 * keys, webhooks, the migrations pending), the same SQL on either engine through its database port.
 */
export function serviceStores ({ port, migrations, standingAlone, lease }: ServiceStoresOf):
Pick<Storage, 'accounts' | 'idempotency' | 'jobs' | 'signingKeys' | 'webhooks' | 'pendingMigrations'> {
  return {
    accounts: new SqlAccountStore(port, standingAlone),
    idempotency: new SqlIdempotencyStore(port),
    jobs: new SqlJobStore(port, lease),
    webhooks: new SqlWebhookStore(port, lease?.skip),
    signingKeys: new SqlSigningKeyStore(port),
    pendingMigrations: async () => (await port.transaction(pending(migrations))).map(m => m.name)
  }
}
