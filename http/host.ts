import { isIPv4 } from 'node:net'

/**
 * Whether a host name or address (IPv6 with or without brackets) always means this machine:
 * `localhost`, 127.0.0.0/8, `::1`. Other names are not trusted: DNS can point them anywhere.
 */
export function isLoopback (host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return name === 'localhost' || name === '::1' || (isIPv4(name) && name.startsWith('127.'))
}
