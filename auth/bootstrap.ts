import type { Config } from '../config/index.ts'
import type { AccountStore } from '../store/storage.ts'
import { createClient } from './accounts.ts'

/**
 * Bare when a shell takes it unchanged, as it does every generated id and secret (base64url);
 * quoted otherwise: a configured id may start with `~`, which a shell would expand.
 */
const shellWord = (value: string): string => /^[\w.-][\w.~-]*$/.test(value) ? value : `'${value}'`

/**
 * A fresh data directory gets one client with every scope (`scopes`: those of the collections
 * served), so the API can be used at once. Its
 * id and secret come from BOOTSTRAP_CLIENT_ID / BOOTSTRAP_CLIENT_SECRET; a generated secret is
 * told once through `announce`, never logged.
 */
export async function ensureBootstrapClient (
  store: AccountStore, config: Config, scopes: readonly string[], announce: (message: string) => void
): Promise<void> {
  if ((await store.clients()).length > 0) return
  const created = await createClient(store, scopes, {
    clientId: config.bootstrapClientId,
    secret: config.bootstrapClientSecret,
    name: 'bootstrap',
    scope: scopes.join(' ')
  })
  if (config.bootstrapClientSecret === undefined) {
    announce([
      'Bootstrap client (every scope) created; its secret is shown only now; paste this line:',
      `export CLIENT_ID=${shellWord(created.client_id)} CLIENT_SECRET=${shellWord(created.client_secret)}`
    ].join('\n'))
  }
}
