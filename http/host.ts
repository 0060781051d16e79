import { isIPv4 } from 'node:net'

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
const AUTHORITY = new RegExp(`^(?<name>\\[[0-9a-f:.]+\\]|${LABEL}(?:\\.${LABEL})*\\.?)(?::\\d{1,5})?$`, 'i')

/**
 * The host name of a Host header or of an origin's authority, without its port: a DNS name or an
 * IP address (IPv6 in brackets), in one spelling per address (lower case; `0x7f.1` is
 * `127.0.0.1`, `[0::1]` is `[::1]`). Undefined for anything else.
 */
export function hostNameOf (authority: string | undefined): string | undefined {
  const name = AUTHORITY.exec(authority ?? '')?.groups?.name
  if (name === undefined || name.length > 255 || !URL.canParse(`http://${name}`)) return undefined
  return new URL(`http://${name}`).hostname
}

/**
 * Whether a host name or address (IPv6 with or without brackets) always means this machine:
 * `localhost`, 127.0.0.0/8, `::1`. Other names are not trusted: DNS can point them anywhere.
 */
export function isLoopback (host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return name === 'localhost' || name === '::1' || (isIPv4(name) && name.startsWith('127.'))
}
