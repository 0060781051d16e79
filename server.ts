import type { FastifyInstance } from 'fastify'
import { buildApi } from './app.js'
import { ConfigError, loadConfig } from './config.js'

/** `npm start`: configuration, then the API instance listening, then a clean stop on a signal. */
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
  await api.listen({ host: config.host, port: config.port })
  stopOnSignal([api])
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
