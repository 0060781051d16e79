import { join } from 'node:path'
import type { Writable } from 'node:stream'
import autoload, { type AutoloadPluginOptions } from '@fastify/autoload'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import type { Config } from './config/index.ts'
import { errorHandler, notFoundHandler } from './http/errors.ts'
import { equipInstance, instanceOptions } from './listeners/instance-options.ts'
import { serializerCompilerFor } from './http/serialization.ts'
import { validatorCompiler } from './http/validation.ts'
import { programDir } from './packaging/shipped.ts'
import { RESOURCES } from './schemas/index.ts'
import { componentsOf } from './schemas/responses.ts'
import type { StoredCollections } from './store/storage.ts'
import { countRequests, Metrics } from './telemetry/metrics.ts'
import { startTracing, type Tracing } from './telemetry/tracing.ts'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    /** The collections the API serves, and where the migrations of their tables are (ApiOptions.collections). */
    collections: StoredCollections
    /** Tells the operator something once, outside the logs (a generated bootstrap secret). */
    announce: (message: string) => void
    /** Whether the background-job worker starts with the app (ApiOptions.runJobs). */
    runJobs: boolean
    /** The metrics, when METRICS_PORT is set (plugins/app/metrics.ts feeds them, listeners/metrics.ts serves them). */
    metrics: Metrics | undefined
    /** The traces, when an OTLP endpoint is set (telemetry/tracing.ts). */
    tracing: Tracing | undefined
  }
}

export interface ApiOptions {
  logStream?: Writable
  announce?: (message: string) => void
  /**
   * With TLS=on, the certificate the API serves HTTPS with (listeners/tls.ts). Without it the instance
   * is plain HTTP, which is what inject() tests want: server.ts always passes it.
   */
  tls?: { key: string, cert: string }
  /**
   * false: writes sent with `Prefer: respond-async` are queued but nothing runs them, so tests can
   * see a job wait for the next start (plugins/app/jobs.ts). Default true.
   */
  runJobs?: boolean
  /**
   * The collections served: by default those of schemas/index.ts, their tables made by the
   * migrations this version ships and their routes those of routes/. A test may serve others, with
   * the migrations that `npm run migrations` writes for them (`migrations`, a folder) and a URL
   * tree served instead of routes/ (`routes`; test/helper.ts's `routeTree` makes one of routes/
   * and the test's own route files).
   */
  collections?: StoredCollections & { routes?: string }
}

/**
 * The folders autoload registers, in this order: ecosystem plugins, ours, then the routes, whose
 * folders mirror the URL tree (`routes/v1/zoos/_zoo_id/animals` serves `/v1/zoos/:zoo_id/animals`).
 * The single binary carries a snapshot of the same folders (scripts/build-binary.ts).
 */
export const AUTOLOADED: readonly (Omit<AutoloadPluginOptions, 'dir'> & { folder: string })[] = [
  // `options` present, even empty, lets autoload call a plugin's function autoConfig with the instance.
  { folder: 'plugins/external', options: {} },
  { folder: 'plugins/app' },
  // A URL tree: `_zoo_id` is a path parameter, and a folder's autohooks.ts hooks the routes under it.
  { folder: 'routes', routeParams: true, autoHooks: true, cascadeHooks: true }
]

/** The API as one plugin. */
const app: FastifyPluginAsync<{ routes?: string }> = async function app (fastify, { routes }) {
  // Set before the routes are registered: a route keeps the handlers of its context at that time.
  fastify.setErrorHandler(errorHandler)
  fastify.setNotFoundHandler(notFoundHandler)
  // Bodies are JSON or nothing: any other Content-Type is answered 415.
  fastify.removeContentTypeParser(['text/plain'])
  // A request's span opens, and its count starts, before any other hook runs: a refusal is traced
  // and counted like an answer.
  if (fastify.tracing !== undefined) await fastify.register(fastify.tracing.plugin)
  if (fastify.metrics !== undefined) countRequests(fastify, fastify.metrics)
  for (const { folder, ...options } of AUTOLOADED) {
    const dir = folder === 'routes' && routes !== undefined ? routes : join(programDir, folder)
    // Every module here is ESM: said outright, autoload need not look for a package.json, which
    // the binary does not have.
    await fastify.register(autoload, { dir, forceESM: true, ...options })
  }
}

export default app

/**
 * A ready-to-listen (or inject) API instance for a configuration, mounted under API_PREFIX:
 * HTTP/2 over TLS with HTTP/1.1 offered through ALPN when given a certificate, else plain HTTP
 * (TLS=proxy, where plugins/app/https-only.ts refuses what the proxy did not receive over HTTPS).
 */
export function buildApi (config: Config, options: ApiOptions = {}): FastifyInstance {
  const tracing = startTracing(config)
  const common = {
    ...instanceOptions(config, undefined, options.logStream, tracing?.logMixin),
    bodyLimit: config.bodyLimit,
    // The proxy's X-Forwarded-Proto and -Host make request.protocol and request.host, and so the
    // hrefs, what the client used. Only the proxy should reach the API's port in that mode. The
    // client address (request.ip) is the X-Forwarded-For entry of the outermost trusted proxy,
    // never an earlier one: the client writes those.
    trustProxy: config.tls === 'proxy' ? trusted(config.trustProxy) : false
  }
  // The routes and plugins are typed for the default (HTTP/1) raw request and reply, and use only
  // Fastify's own request and reply, which behave alike over HTTP/2: one instance type for both.
  const fastify = options.tls === undefined
    ? Fastify(common)
    : Fastify({
      ...common,
      http2: true,
      https: {
        allowHTTP1: true,
        key: options.tls.key,
        cert: options.tls.cert,
        settings: { maxConcurrentStreams: config.http2MaxStreams, maxHeaderListSize: config.maxHeaderSize },
        // Refuses a header block larger than announced, as maxHeaderListSize alone only asks the client.
        maxSendHeaderBlockLength: config.maxHeaderSize
      }
    }) as unknown as FastifyInstance
  fastify.decorate('config', config)
  const { routes, ...collections } = options.collections ?? { resources: RESOURCES }
  fastify.decorate('collections', collections)
  fastify.decorate('announce', options.announce ?? ((message: string) => { process.stdout.write(`${message}\n`) }))
  fastify.decorate('runJobs', options.runJobs ?? true)
  fastify.decorate('metrics', config.metricsPort === undefined ? undefined : new Metrics())
  fastify.decorate('tracing', tracing)
  // The last thing the instance does, once every request has ended: the spans not sent yet are sent.
  if (tracing !== undefined) fastify.addHook('onClose', async () => { await tracing.shutdown() })
  fastify.setValidatorCompiler(validatorCompiler)
  fastify.setSerializerCompiler(serializerCompilerFor(componentsOf(collections.resources)))
  // Before anything else runs, so that every answer carries its request id, refusals and errors included.
  equipInstance(fastify, config)
  // Paths outside API_PREFIX answer like any other unknown path.
  if (config.apiPrefix !== '') fastify.setNotFoundHandler(notFoundHandler)
  fastify.register(app, { prefix: config.apiPrefix, ...(routes === undefined ? {} : { routes }) })
  return fastify
}

/** Fastify's trust rule for TRUST_PROXY: the first `hops` addresses from the socket, or those listed. */
function trusted (proxies: number | readonly string[]): string[] | ((address: string, hop: number) => boolean) {
  return typeof proxies === 'number' ? (_address, hop) => hop < proxies : [...proxies]
}
