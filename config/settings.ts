// The settings catalogue, grouped by concern. Each group is an object of settings; SETTINGS is all
// of them, which config/load.ts reads, usage (`--help`) lists and `npm run docs` writes into
// docs/configuration.md, group by group.
import { join } from 'node:path'
import { LOCAL, SIGN_IN, TOKENS } from './access-settings.ts'
import { STORAGE, WRITES } from './data-settings.ts'
import { BACKUPS, OBSERVABILITY, WEBHOOKS } from './operations-settings.ts'
import { LISTENING, PROCESS, REQUESTS } from './server-settings.ts'
import type { AnySetting } from './setting.ts'

/** The groups in the order `--help` and docs/configuration.md show them. */
export const SETTING_GROUPS: readonly { title: string, settings: Record<string, AnySetting> }[] = [
  { title: 'Listening and TLS', settings: LISTENING },
  { title: 'Storage', settings: STORAGE },
  { title: 'Requests and their limits', settings: REQUESTS },
  { title: 'Batches and the change feed', settings: WRITES },
  { title: 'Tokens and clients', settings: TOKENS },
  { title: 'Sign-in through a provider', settings: SIGN_IN },
  { title: 'The local tool server', settings: LOCAL },
  { title: 'Logs and stopping', settings: PROCESS },
  { title: 'Backups', settings: BACKUPS },
  { title: 'Metrics and traces', settings: OBSERVABILITY },
  { title: 'Webhooks', settings: WEBHOOKS }
]

/** Every setting of the service, with its default. */
export const SETTINGS = {
  ...LISTENING, ...STORAGE, ...REQUESTS, ...WRITES, ...TOKENS, ...SIGN_IN, ...LOCAL, ...PROCESS, ...BACKUPS, ...OBSERVABILITY, ...WEBHOOKS
}

type Settings = typeof SETTINGS
type Parsed = { readonly [K in keyof Settings]: ReturnType<Settings[K]['parse']> }
/** The settings as the service uses them; `publicUrl` and `unpackDir` always have a value once loaded. */
export type Config = Omit<Parsed, 'publicUrl' | 'unpackDir'> & { readonly publicUrl: string, readonly unpackDir: string }

/** UNPACK_DIR as given (`raw`), else its default under the data directory. */
export const unpackDirOf = (dataDir: string, raw: string | undefined): string =>
  SETTINGS.unpackDir.parse(raw ?? '', 'UNPACK_DIR') ?? join(dataDir, 'unpacked')
