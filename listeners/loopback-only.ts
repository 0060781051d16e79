import fp from 'fastify-plugin'
import { HttpError } from '../http/errors.ts'
import { hostNameOf, isLoopback } from '../http/host.ts'

export interface LoopbackOnlyOptions {
  /** The address the server listens on: clients may use it as Host when it is not a wildcard. */
  listenHost: string
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]'])

function originHostName (origin: string): string | undefined {
  if (!URL.canParse(origin)) return undefined
  const url = new URL(origin)
  return url.host === '' ? undefined : hostNameOf(url.host)
}

/**
 * The DNS-rebinding guard of the listeners on loopback (the local tool server, the metrics): a web
 * page whose host name an attacker points at 127.0.0.1 can reach them from the browser, but its
 * requests carry the attacker's name in Host and its own origin in Origin. Only loopback names
 * (and the address listened on) are served.
 */
export default fp<LoopbackOnlyOptions>(async function loopbackOnly (fastify, { listenHost }) {
  const listenName = WILDCARDS.has(listenHost) ? undefined : hostNameOf(listenHost.includes(':') ? `[${listenHost}]` : listenHost)
  const trusted = (name: string | undefined): boolean => name !== undefined && (isLoopback(name) || name === listenName)
  fastify.addHook('onRequest', async (request) => {
    if (!trusted(hostNameOf(request.headers.host))) {
      throw new HttpError(
        403,
        'Access denied - this server answers only requests addressed to a loopback name such as localhost or 127.0.0.1'
      )
    }
    const origin = request.headers.origin
    if (origin !== undefined && !trusted(originHostName(origin))) {
      throw new HttpError(403, 'Access denied - requests from web pages are refused unless they are served from a loopback address')
    }
  })
}, { name: 'loopback-only' })
