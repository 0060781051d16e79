import type { AddressInfo } from 'node:net'
import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import { buildApi } from './app.ts'
import { isCommand, readAll, runCli } from './cli/index.ts'
import { ConfigError, loadConfig, privateDirectory, usage, type Config } from './config/index.ts'
import { buildMetricsListener } from './listeners/metrics.ts'
import { buildRedirectListener } from './listeners/redirect.ts'
import { startupBlock } from './listeners/startup-block.ts'
import { loadTls, type TlsMaterial } from './listeners/tls.ts'
import { buildLocalServer } from './local/app.ts'
import { unpack, unsupportedRuntime, versionLine } from './packaging/shipped.ts'
import { DataDirInUse, holdDataDir } from './store/sqlite/serving-lock.ts'

/**
 * The program, as `npm start` (node dist/server.js) and the single binary run it:
 * `client ...`, `user ...` and `key ...` run the CLI, `backup` and `restore` copy the database,
 * `--help` and `--version` answer, and anything else serves the API, the local tool server, the
 * optional redirect and metrics listeners until a signal.
 */
async function main (argv: string[]): Promise<void> {
  const runtime = unsupportedRuntime()
  if (runtime !== undefined) refuse(new Error(runtime))
  const io = {
    env: process.env,
    stdin: () => readAll(process.stdin),
    stdout: (text: string) => process.stdout.write(text),
    stderr: (text: string) => process.stderr.write(text)
  }
  if (isCommand(argv)) {
    process.exitCode = await runCli(argv, io)
  } else if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage())
  } else if (argv.includes('--version')) {
    process.stdout.write(`${versionLine()}\n`)
  } else {
    await serve(argv)
  }
}

/** What stops start-up: one line on stderr, naming the setting when one is to blame. */
function refuse (err: unknown): never {
  process.stderr.write(`zoo-api: ${err instanceof ConfigError ? '' : 'start-up failed: '}${(err as Error).message}\n`)
  process.exit(err instanceof ConfigError ? 2 : 1)
}

/**
 * Start-up, then a graceful stop on SIGTERM or SIGINT (close-with-grace): the listeners stop
 * accepting, requests in flight are answered, the job in progress finishes or goes back to the
 * queue, SQLite is checkpointed and closed, and the process exits 0; if that takes longer than
 * SHUTDOWN_TIMEOUT it exits 1, and a second signal exits at once. A signal during start-up lets
 * the step in progress end, then stops without starting the rest.
 */
async function serve (argv: string[]): Promise<void> {
  let config: Config
  let dataDirLock: { release: () => void } | undefined
  try {
    config = loadConfig(process.env, argv)
    privateDirectory(config.dataDir, 'DATA_DIR')
    unpack(config.unpackDir, 'UNPACK_DIR')
    // One process serves a SQLite file, and none while a backup is restored into it.
    if (config.databaseUrl === undefined) dataDirLock = holdDataDir(config.dataDir, 'serving')
  } catch (err) {
    refuse(err instanceof DataDirInUse ? new ConfigError(`DATA_DIR: ${err.message}`) : err)
  }
  const instances: FastifyInstance[] = []
  let stopping = false
  let started = false
  let starting: Promise<unknown> = Promise.resolve()
  closeWithGrace({
    delay: config.shutdownTimeout * 1000,
    logger: false,
    onTimeout: () => instances[0]?.log.error(`not stopped after SHUTDOWN_TIMEOUT (${config.shutdownTimeout} s): exiting`),
    onSecondSignal: signal => instances[0]?.log.warn({ signal }, 'second signal: exiting at once')
  }, async ({ signal, err }) => {
    stopping = true
    if (err !== undefined) instances[0]?.log.fatal({ err }, 'uncaught error: shutting down')
    if (!started) instances[0]?.log.info({ signal }, 'stopping once the start-up step in progress ends')
    await starting.catch(() => {})
    instances[0]?.log.info({ signal }, 'shutting down')
    await Promise.all(instances.map(i => i.close()))
    dataDirLock?.release()
  })

  let tls: TlsMaterial | undefined
  let metricsListener: FastifyInstance | undefined
  const announcements: string[] = []
  starting = (async () => {
    tls = config.tls === 'on' ? await loadTls(config) : undefined
    // Said once the listeners are up, in the start-up block, never in the log.
    const api = buildApi(config, { ...(tls === undefined ? {} : { tls }), announce: message => announcements.push(message) })
    instances.push(api)
    if (tls !== undefined) api.log.info({ certificate: tls.certFile, sha256: tls.fingerprint, origin: tls.origin }, 'TLS certificate')
    const local = buildLocalServer(config)
    instances.push(local)
    await api.ready()
    if (stopping) return
    await listen(api, config.host, config.port, 'HOST', 'PORT')
    if (stopping) return
    await listen(local, config.localHost, config.localPort, 'LOCAL_HOST', 'LOCAL_PORT')
    if (stopping) return
    if (api.metrics !== undefined && config.metricsPort !== undefined) {
      metricsListener = buildMetricsListener(config, api.metrics)
      instances.push(metricsListener)
      await listen(metricsListener, config.metricsHost, config.metricsPort, 'METRICS_HOST', 'METRICS_PORT')
    }
    if (stopping || config.httpRedirectPort === undefined) return
    // Built once the API listens: with PORT=0 only then is the port to redirect to known.
    const redirect = buildRedirectListener({
      settings: config,
      httpsPort: (api.server.address() as AddressInfo).port,
      fallbackHost: new URL(config.publicUrl).hostname
    })
    instances.push(redirect)
    await listen(redirect, config.host, config.httpRedirectPort, 'HOST', 'HTTP_REDIRECT_PORT')
  })()
  try {
    await starting
    started = true
  } catch (err) {
    // No instance stays up alone.
    if (!(err instanceof ConfigError)) instances[0]?.log.fatal({ err }, 'start-up failed')
    await Promise.all(instances.map(i => i.close()))
    refuse(err)
  }
  if (stopping) return
  const [api, local] = instances as [FastifyInstance, FastifyInstance]
  if (config.allowedDirs.length === 0) local.log.info('no allowed directories (ALLOWED_DIRS or --allow): list_directory refuses every path')
  process.stdout.write(startupBlock(config, tls, api, local, announcements, metricsListener))
}

/** Listens, or says in one line which setting names an address that cannot be had. */
async function listen (instance: FastifyInstance, host: string, port: number, hostSetting: string, portSetting: string): Promise<void> {
  try {
    await instance.listen({ host, port })
  } catch (err) {
    switch ((err as NodeJS.ErrnoException).code) {
      case 'EADDRINUSE': throw new ConfigError(`${portSetting}: port ${port} on ${host} is in use by another process`)
      case 'EACCES': throw new ConfigError(`${portSetting}: port ${port} on ${host} needs privileges this process lacks`)
      case 'EADDRNOTAVAIL': case 'ENOTFOUND': case 'EAI_AGAIN':
        throw new ConfigError(`${hostSetting}: ${host} is not an address of this machine`)
      default: throw err
    }
  }
}

main(process.argv.slice(2)).catch(refuse)
