// What running the service unattended needs: scheduled backups, metrics and traces, webhooks. Groups of the
// settings catalogue (config/settings.ts).
import { apiKey, collectorUrl, directory, host, integer, optional, port, seconds, webhookHosts, webhookRetries } from './parsers.ts'
import type { AnySetting } from './setting.ts'

/** Backups: copies of the SQLite database taken while the service serves (docs/operations.md). */
export const BACKUPS = {
  backupDir: {
    env: 'BACKUP_DIR',
    description: 'when set, the service copies its SQLite database into this directory at start-up and every ' +
      'BACKUP_INTERVAL seconds while it serves (`zoo-<UTC time>.db`, names that sort by time), keeping the newest ' +
      'BACKUP_KEEP; checked as DATA_DIR is. SQLite only: on DATABASE_URL use `pg_dump`',
    default: '',
    parse: optional(directory)
  },
  backupInterval: {
    env: 'BACKUP_INTERVAL',
    description: 'seconds between two scheduled backups, counted from the end of the one before',
    default: '86400',
    parse: integer(1, 31536000, 'seconds')
  },
  backupKeep: {
    env: 'BACKUP_KEEP',
    description: 'scheduled backups kept in BACKUP_DIR: once a backup is taken, the oldest beyond this count are deleted',
    default: '7',
    parse: integer(1, 100000, 'backups')
  }
} satisfies Record<string, AnySetting>

/** Metrics and traces: numbers to alert on, and where a slow request spent its time. */
export const OBSERVABILITY = {
  metricsPort: {
    env: 'METRICS_PORT',
    description: 'when set, a plain-HTTP listener on this port answers `GET /metrics` in the Prometheus text format ' +
      '(and nothing else); off by default',
    default: '',
    parse: optional(port)
  },
  metricsHost: {
    env: 'METRICS_HOST',
    description: 'address the metrics listener listens on. On loopback it answers only requests addressed to a loopback ' +
      'name; any other address (`0.0.0.0`, a network address) needs METRICS_TOKEN, else start-up stops',
    default: '127.0.0.1',
    parse: host
  },
  metricsToken: {
    env: 'METRICS_TOKEN',
    description: 'when set, `GET /metrics` needs `Authorization: Bearer <token>` (Prometheus: `authorization: { credentials: ... }` ' +
      'in the scrape configuration); at least 16 characters among letters, digits and `- . _ ~ + /` (`=` padding allowed)',
    default: '',
    parse: apiKey
  },
  otelExporterOtlpEndpoint: {
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    description: 'when set (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), traces are exported to this OpenTelemetry collector ' +
      '(`http://127.0.0.1:4318`; `/v1/traces` is added); the other standard `OTEL_*` variables apply ' +
      '([operations](operations.md#traces)). Off by default',
    default: '',
    parse: optional(collectorUrl(true))
  },
  otelExporterOtlpTracesEndpoint: {
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    description: 'the collector\'s URL for traces, used as given (`http://127.0.0.1:4318/v1/traces`); wins over ' +
      'OTEL_EXPORTER_OTLP_ENDPOINT',
    default: '',
    parse: optional(collectorUrl(false))
  }
} satisfies Record<string, AnySetting>

/** Webhooks: each change delivered to the receivers subscribed to it (docs/webhooks.md). */
export const WEBHOOKS = {
  webhookTimeout: {
    env: 'WEBHOOK_TIMEOUT',
    description: 'seconds a webhook receiver has to answer a delivery (connecting included) before the attempt counts as failed',
    default: '10',
    parse: seconds(0.1, 300)
  },
  webhookRetries: {
    env: 'WEBHOOK_RETRIES',
    description: 'the waits before each retry of a failed delivery, in seconds, comma-separated; after the last the delivery is ' +
      'marked failed. Each wait is drawn between 80% and 120% of its value (jitter). The default is the Standard Webhooks ' +
      'schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h',
    default: '5,300,1800,7200,18000,36000,36000',
    parse: webhookRetries
  },
  webhookAllowHosts: {
    env: 'WEBHOOK_ALLOW_HOSTS',
    description: 'host names and address ranges (CIDR: `10.0.0.0/8`, `127.0.0.1/32`) that webhooks may be sent to although they ' +
      'are not public, comma-separated; on them `http` is allowed too. Empty by default: only `https` URLs whose every address ' +
      'is public',
    default: '',
    parse: webhookHosts
  }
} satisfies Record<string, AnySetting>
