import type { FastifyInstance } from 'fastify'
import { buildApi } from './app.js'
import { ConfigError, loadConfig } from './config.js'
import { buildLocalServer } from './local/app.js'

/**
 * `npm start`: configuration, then the API and the local tool server (SPEC §1) listening, then a
 * clean stop of both on a signal.
 */
async function main (): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`zoo-api: ${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
  const api = buildApi(config)
  const local = buildLocalServer(config)
  stopOnSignal([api, local])
  try {
    await api.listen({ host: config.host, port: config.port })
    await local.listen({ host: config.localHost, port: config.localPort })
  } catch (err) {
    // A port in use, say: neither instance stays up alone.
    api.log.fatal({ err }, 'start-up failed')
    await Promise.all([api.close(), local.close()])
    process.exit(1)
  }
  if (config.allowedDirs.length === 0) {
    local.log.warn('no allowed directories (ALLOWED_DIRS or --allow): list_directory refuses every path')
  }
}

function stopOnSignal (instances: FastifyInstance[]): void {
  const stop = async (signal: string) => {
    instances[0]?.log.info({ signal }, 'shutting down')
    await Promise.all(instances.map(i => i.close()))
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

await main()
