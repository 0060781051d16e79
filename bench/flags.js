// What the bench and the soak share of their command lines.

/** How each TLS mode is named in the tables and summaries. */
export const MODES = { proxy: 'TLS=proxy: plain HTTP/1.1, the service behind a TLS-terminating proxy', on: 'TLS=on: HTTPS, HTTP/1.1' }

/** The number given as --`flag` (else `fallback`), refused unless at least `min` (and whole, if `integer`). */
export function numberFlag (values, flag, fallback, min, integer) {
  const value = Number(values[flag] ?? fallback)
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`--${flag} must be ${integer ? 'a whole number' : 'a number'} of at least ${min}, got ${values[flag]}`)
  }
  return value
}
