import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/*
 * Where a webhook may be sent (SSRF): an `https` URL whose every address is public, unless an
 * operator allows its host by name or its address by range (WEBHOOK_ALLOW_HOSTS), which allows
 * `http` too. The address is checked where it is connected to, after DNS, at every attempt: a
 * name that resolved to a public address when the subscription was made may not resolve so later.
 */

/** What WEBHOOK_ALLOW_HOSTS allows: host names, and address ranges. */
export interface AllowedHosts { names: readonly string[], ranges: readonly [string, number][] }

/** Ranges that are not the public internet: this host, private networks, link-local, shared, documentation, multicast, reserved. */
const NOT_PUBLIC = new BlockList()
for (const [address, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]
] as const) NOT_PUBLIC.addSubnet(address, bits, 'ipv4')
for (const [address, bits] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]
] as const) NOT_PUBLIC.addSubnet(address, bits, 'ipv6')

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`): the IPv4 address it stands for. */
const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i

export class Destinations {
  readonly #names: ReadonlySet<string>
  readonly #ranges = new BlockList()

  constructor (allowed: AllowedHosts) {
    this.#names = new Set(allowed.names)
    for (const [address, bits] of allowed.ranges) this.#ranges.addSubnet(address, bits, isIP(address) === 6 ? 'ipv6' : 'ipv4')
  }

  /** Why `address` may not be connected to for a URL of `host`; undefined when it may. */
  refusalOfAddress (host: string, address: string): string | undefined {
    const mapped = MAPPED.exec(address)?.[1]
    const [plain, family] = mapped === undefined ? [address, isIP(address) === 6 ? 'ipv6' : 'ipv4'] as const : [mapped, 'ipv4'] as const
    if (this.#names.has(host) || this.#ranges.check(plain, family)) return undefined
    if (NOT_PUBLIC.check(plain, family)) {
      return `${host === plain ? `its address ${address} is` : `${host} resolves to ${address}, which is`} not a public address ` +
        '(loopback, private, link-local or reserved); an operator may allow it with WEBHOOK_ALLOW_HOSTS'
    }
    return undefined
  }

  /** Why `url` cannot be a webhook's, from its text alone (its scheme, an address written in it); undefined when it can. */
  refusalOfUrl (url: string): string | undefined {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return 'it is not an absolute URL'
    }
    if (parsed.username !== '' || parsed.password !== '') return 'it holds a user name or password, which a delivery would send on'
    const host = hostOf(parsed)
    if (parsed.protocol === 'http:') {
      if (!this.#allowsHost(host)) return 'it is not https: plain http is allowed only to the hosts WEBHOOK_ALLOW_HOSTS names'
    } else if (parsed.protocol !== 'https:') {
      return `its scheme is ${parsed.protocol.slice(0, -1)}, not https`
    }
    return isIP(host) === 0 ? undefined : this.refusalOfAddress(host, host)
  }

  /** Why `url` cannot be a webhook's now: refusalOfUrl, then the addresses its host resolves to, every one of which must be allowed. */
  async refusalOf (url: string): Promise<string | undefined> {
    const refused = this.refusalOfUrl(url)
    if (refused !== undefined) return refused
    const host = hostOf(new URL(url))
    if (isIP(host) !== 0) return undefined
    let addresses: LookupAddress[]
    try {
      addresses = await new Promise((resolve, reject) =>
        dnsLookup(host, { all: true }, (err, found) => { err === null ? resolve(found) : reject(err) }))
    } catch (err) {
      return `its host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'no address'})`
    }
    for (const { address } of addresses) {
      const refusal = this.refusalOfAddress(host, address)
      if (refusal !== undefined) return refusal
    }
    return undefined
  }

  /** A DNS lookup for the connection of a delivery that refuses an address it may not connect to. */
  readonly lookup: LookupFunction = (host, options, callback) => {
    dnsLookup(host, { ...options, all: true }, (err, addresses) => {
      if (err !== null) return callback(err, '', 0)
      const found = addresses as LookupAddress[]
      const refusal = found.map(({ address }) => this.refusalOfAddress(host, address)).find(reason => reason !== undefined)
      if (refusal !== undefined || found.length === 0) {
        return callback(Object.assign(new Error(refusal ?? `${host} has no address`), { code: 'EREFUSED_ADDRESS' }), '', 0)
      }
      const [first] = found as [LookupAddress]
      if (options.all === true) (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, found)
      else callback(null, first.address, first.family)
    })
  }

  #allowsHost (host: string): boolean {
    if (this.#names.has(host)) return true
    const family = isIP(host)
    return family !== 0 && this.#ranges.check(host, family === 6 ? 'ipv6' : 'ipv4')
  }
}

/** A URL's host as an address or a name, without the brackets of an IPv6 address, in lower case. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase()
