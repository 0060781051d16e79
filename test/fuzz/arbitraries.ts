import fc from 'fast-check'

/**
 * What the fuzz tests of both servers share: how many runs and which seed, and the values an
 * attacker or a confused client sends in every part of a request.
 */

function integerFromEnv (name: string, fallback: number, minimum: number): number {
  const text = process.env[name]
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isSafeInteger(value) || value < minimum) throw new Error(`${name} must be an integer >= ${minimum}, got "${text}"`)
  return value
}

/** Fixed, so that npm test runs the same requests every time; FUZZ_SEED explores others. */
const SEED = integerFromEnv('FUZZ_SEED', 20250612, Number.MIN_SAFE_INTEGER)
/** Runs of each main property: few enough for npm test; `npm run fuzz` sets FUZZ_RUNS higher. */
const RUNS = integerFromEnv('FUZZ_RUNS', 500, 1)

/** The fc.assert parameters of a property that gets `share` of the runs. */
export const runs = (share = 1): { seed: number, numRuns: number } => ({ seed: SEED, numRuns: Math.max(1, Math.round(RUNS * share)) })

/** Request methods: the ones routes serve, lower case, and ones that no route serves. */
export const method: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
  { weight: 1, arbitrary: fc.constantFrom('get', 'post', 'TRACE', 'CONNECT', 'PROPFIND', 'SEARCH', 'LOCK', 'MKCOL', 'COPY', 'QUERY') }
)

/** Text that has broken parsers, SQL, number conversions, path checks or Unicode handling somewhere. */
const NASTY: readonly string[] = [
  '', ' ', '  x  ', "name'--", "' OR '1'='1", '1 OR 1=1', '1; DROP TABLE zoos; --', '"', '\\', '%', '%25', '%00', '\u0000', '..', '../..',
  '%2e%2e', '%2F', '/', '?', '#', '&', '=', ',', ',,', '*', '__proto__', 'constructor', 'prototype', 'null', 'undefined', 'true', 'NaN',
  'Infinity', '-Infinity', '-0', '0', '-1', '1.5', '1e3', '1e309', '-1e309', '0x1F', '+1', ' 1', '01', '99999999999999999999',
  '9007199254740991', '9007199254740993', '\u0661\u0662', '\uff11', 'caf\u00e9', 'cafe\u0301', '\u202e', '\ufeff', '\u2028',
  '\ud83e\udd81', '\ud800', '\udfff', 'x'.repeat(201), '\u00e9'.repeat(101)
]

/** One of NASTY, or random text: mostly short, sometimes any UTF-16 (lone surrogates included). */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) }
)

/**
 * A header value as it can arrive over HTTP/1.1: visible ASCII and obs-text (Latin-1), as Node's
 * parser lets them through; inject() would take more than a real connection carries.
 */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '""', '"', '*', ',', ';', 'null', '\u00e9', 'x'.repeat(300)),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map(code => String.fromCharCode(code === 0x7f ? 0x09 : code)), maxLength: 12 })
)

/** Accept values: JSON in disguise, JSON ruled out, and nonsense. */
export const accept = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('application/json', '*/*', 'application/*', 'application/json; charset=utf-8') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('text/html', 'application/xml', 'application/json;q=0', 'text/*, application/json;q=0', 'image/*;q=0.5',
      'application/problem+json', '*/*;q=0', ';;;', 'application/json;q=abc', '')
  },
  { weight: 1, arbitrary: headerText }
)

/** Content-Type values other than plain `application/json`. */
export const oddContentType = fc.oneof(
  fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;', 'application/json; charset=latin1',
    'application/json, text/plain', 'application/merge-patch+json',
    'application/merge-patch+json; charset=utf-8', 'application/problem+json', 'application/jsonx', 'json',
    'application/x-www-form-urlencoded', 'text/plain', 'text/json', 'multipart/form-data; boundary=x', 'application/octet-stream', '',
    ';', '*/*'),
  headerText
)

/** What a JSON request body is sent as: its text, or bytes that are not UTF-8. */
export type Payload = string | Buffer

/** What a property sends: a request as inject() takes it. */
export interface Fuzzed {
  method: string
  url: string
  headers: Record<string, string>
  payload?: Payload
  /** The client's address, when not 127.0.0.1. */
  remoteAddress?: string
}

/** Byte sequences that are no UTF-8: lone continuation bytes, overlong forms, surrogates, too-long forms. */
const INVALID_UTF8: readonly number[][] = [[0xff], [0xfe, 0xff], [0x80], [0xc3, 0x28], [0xc0, 0xaf], [0xe2, 0x28, 0xa1],
  [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80]]

/** Raw JSON number literals that JSON.stringify never writes: beyond a double, negative zero, exponents. */
export const rawNumber = fc.constantFrom('1e309', '-1e309', '1e400', '-0', '1.0', '1e2', '1E+2', '0.0000001',
  '123456789012345678901234567890')

/** `text` with `insert` put in at `at` (taken modulo its length plus one). */
const spliced = (text: string, at: number, insert: string): string => {
  const i = at % (text.length + 1)
  return text.slice(0, i) + insert + text.slice(i)
}

/** JSON text of an object with one more member, written as is: `name` may be `__proto__`, or repeat a member. */
const withMember = (text: string, name: string, value: string, first: boolean): string =>
  !text.startsWith('{')
    ? text
    : first
      ? `{${JSON.stringify(name)}:${value}${text === '{}' ? '' : ','}${text.slice(1)}`
      : `${text.slice(0, -1)}${text === '{}' ? '' : ','}${JSON.stringify(name)}:${value}}`

/**
 * `body` as JSON text, or broken the ways clients and attackers break it: members that touch
 * prototypes, a member given twice, a raw number no double holds, bytes that are not UTF-8, cut
 * short, nested deeper than any parser recurses, an array of mixed things, or any JSON at all.
 */
export function jsonPayload (body: fc.Arbitrary<unknown>): fc.Arbitrary<Payload> {
  const text = body.map(value => JSON.stringify(value) ?? '')
  const anyJson = fc.jsonValue({ maxDepth: 3 }).map(value => JSON.stringify(value))
  return fc.oneof(
    { weight: 12, arbitrary: text },
    {
      weight: 2,
      arbitrary: fc.tuple(text, fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.oneof(anyJson, fc.constant('{"polluted":1}')),
        fc.boolean()).map(([t, name, value, first]) => withMember(t, name, value, first))
    },
    {
      // The member repeated is the first one the text has, if any.
      weight: 2,
      arbitrary: fc.tuple(text, anyJson, fc.boolean()).map(([t, value, first]) => {
        const name = /^\{"((?:[^"\\]|\\.)*)":/.exec(t)?.[1]
        return name === undefined ? t : withMember(t, JSON.parse(`"${name}"`), value, first)
      })
    },
    { weight: 1, arbitrary: fc.tuple(text, fc.string({ maxLength: 12 }), rawNumber).map(([t, name, n]) => withMember(t, name, n, false)) },
    {
      weight: 2,
      arbitrary: fc.tuple(text, fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([t, at, bytes]) => {
        // Inside a string value where the text has one, so that the JSON stays well-formed around the bytes.
        const quote = t.indexOf('":"')
        const i = quote === -1 ? at % (t.length + 1) : quote + 3
        return Buffer.concat([Buffer.from(t.slice(0, i)), Buffer.from(bytes), Buffer.from(t.slice(i))])
      })
    },
    { weight: 1, arbitrary: fc.tuple(text, fc.nat()).map(([t, at]) => t.slice(0, at % (t.length + 1))) },
    {
      weight: 1,
      arbitrary: fc.tuple(text, fc.nat(), fc.constantFrom(',', '}', ']', '\u0000', '//', 'NaN')).map(([t, at, s]) => spliced(t, at, s))
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(10, 1000, 100_000), fc.constantFrom(['[', ']'], ['{"a":', '}'])).map(([depth, [open, close]]) =>
        `${open.repeat(depth)}1${close.repeat(depth)}`)
    },
    { weight: 1, arbitrary: fc.array(fc.oneof(body, fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 }).map(items => JSON.stringify(items)) },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '{}', '[]', '{"":""}', '"{}"', 'nul', '{"a":1}{"b":2}', '\ufeff{}') }
  )
}

/** A long payload as its start and its length. */
const shortened = (payload: Payload): Payload | string =>
  typeof payload === 'string' && payload.length > 300 ? `${payload.slice(0, 100)}... (${payload.length} characters)` : payload

/**
 * `request`, printed short in a counterexample: a long payload as its start and length, and each
 * of `secrets` (tokens, keys) as its name in angle brackets. The seed and path fast-check prints
 * reproduce the request whole.
 */
export function printable<T extends Fuzzed> (request: T, secrets: Record<string, string> = {}): T {
  Object.defineProperty(request, fc.toStringMethod, {
    value: (): string => {
      let text = fc.stringify(request.payload === undefined ? { ...request } : { ...request, payload: shortened(request.payload) })
      for (const [name, secret] of Object.entries(secrets)) text = text.replaceAll(secret, `<${name}>`)
      return text
    }
  })
  return request
}
