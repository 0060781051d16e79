import type { Config } from '../config.js'
import type { OAuthStore } from '../store/oauth.js'
import { createClient } from './accounts.js'
import { SCOPES } from './scopes.js'

/**
 * A fresh data directory gets one client with every scope, so the API can be used at once. Its
 * id and secret come from BOOTSTRAP_CLIENT_ID / BOOTSTRAP_CLIENT_SECRET; a generated secret is
 * told once through `announce`, never logged.
 */
export async function ensureBootstrapClient (store: OAuthStore, config: Config, announce: (message: string) => void): Promise<void> {
  if (store.clients().length > 0) return
  const created = await createClient(store, {
    clientId: config.bootstrapClientId,
    secret: config.bootstrapClientSecret,
    name: 'bootstrap',
    scope: SCOPES.join(' ')
  })
  if (config.bootstrapClientSecret === undefined) {
    announce([
      'A bootstrap client with every scope was created. Its secret is shown only now; paste this line into your shell:',
      `  export CLIENT_ID='${created.client_id}' CLIENT_SECRET='${created.client_secret}'`
    ].join('\n'))
  }
}
