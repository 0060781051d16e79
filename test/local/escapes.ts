import type { Tree } from './helper.ts'

/**
 * Requests an attacker (or a confused tool client) would send to list_directory, through either
 * face of the local tool server, each with the status and the whole body it must get. The tree
 * holds the prefix siblings of CVE-2025-53110 and the links of CVE-2025-53109 beside the allowed
 * directories.
 */

/** Spelled with escapes: an editor must not get to choose the normalization form. */
const CAFE_NFC = 'caf\u00e9'
const NAIVE_NFC = 'na\u00efve'

export const layout = (root: string): Tree => ({
  data: {
    allowed: {
      'file.txt': 'hello',
      sub: { deep: { 'leaf.txt': 'leaf' } },
      '%2e%2e': {},
      [CAFE_NFC]: {},
      'link-out-dir': { link: '../outside' },
      'link-out-file': { link: `${root}/data/outside/secret.txt` },
      'link-in-dir': { link: 'sub' },
      'link-in-file': { link: 'file.txt' },
      chain1: { link: 'chain2' },
      chain2: { link: 'chain3' },
      chain3: { link: '../outside' },
      'chain-in1': { link: 'chain-in2' },
      'chain-in2': { link: 'sub/deep' },
      'link-to-other': { link: '../other' },
      'link-to-allowed-link': { link: '../allowed-link' },
      'dangling-out': { link: '../outside/missing' },
      'dangling-in': { link: 'missing' },
      loop1: { link: 'loop2' },
      loop2: { link: 'loop1' },
      'link-parent': { link: '..' },
      'link-root': { link: '/' }
    },
    allowed_evil: { 'secret.txt': 'evil' },
    'allowed-old': { 'secret.txt': 'old' },
    allowed2: { 'secret.txt': '2' },
    'allowed.bak': { 'secret.txt': 'bak' },
    outside: { 'secret.txt': 'secret' },
    other: { 'o.txt': 'o' },
    target: { 't.txt': 't' },
    'allowed-link': { link: 'target' },
    [NAIVE_NFC]: { 'n.txt': 'n' }
  }
})

const ALLOWED_NAMES = [
  '%2e%2e',
  'caf\u00e9',
  'chain-in1',
  'chain-in2',
  'chain1',
  'chain2',
  'chain3',
  'dangling-in',
  'dangling-out',
  'file.txt',
  'link-in-dir',
  'link-in-file',
  'link-out-dir',
  'link-out-file',
  'link-parent',
  'link-root',
  'link-to-allowed-link',
  'link-to-other',
  'loop1',
  'loop2',
  'sub'
]

const OUTSIDE = 'Access denied - the path is outside the allowed directories'
const UNRESOLVABLE = 'Access denied - a symbolic link on the path cannot be resolved'
const NOT_FOUND = 'No such directory'
const NOT_DIRECTORY = 'path is not a directory'
const RELATIVE = 'path must be absolute'
const NULL_BYTE = 'path must not contain a null byte'
const BAD_JSON = "Body is not valid JSON but content-type is set to 'application/json'"
/** The 415 of the API's JSON routes too: one message for both servers. */
const NOT_JSON = 'Content-Type must be application/json'
/** What the cursor's schema says it is. */
const CURSOR_RULE = 'next_cursor of the previous page, to get the page after it'

export interface Case {
  name: string
  /** `path` of the JSON body, `$` standing for the tree's root; or the whole body with `body`. */
  path?: unknown | ((root: string) => string)
  body?: unknown
  /** A raw request instead of a JSON one. */
  raw?: { payload?: string; headers: Record<string, string> }
  status: number
  /** The error message, or for a 200 the names listed and the normalized path answered. */
  error?: string
  names?: string[]
  answeredPath?: string
}

export const cases: Case[] = [
  // The allowed directories themselves, and what lies legitimately under them.
  { name: 'an allowed directory', path: '$/data/allowed', status: 200, names: ALLOWED_NAMES },
  {
    name: 'an allowed directory with a trailing separator',
    path: '$/data/allowed/',
    status: 200,
    names: ALLOWED_NAMES,
    answeredPath: '$/data/allowed'
  },
  { name: 'repeated separators fold', path: '$//data///allowed//sub', status: 200, names: ['deep'], answeredPath: '$/data/allowed/sub' },
  { name: 'a dot segment', path: '$/data/allowed/./sub/.', status: 200, names: ['deep'], answeredPath: '$/data/allowed/sub' },
  { name: '.. that stays inside', path: '$/data/allowed/sub/deep/..', status: 200, names: ['deep'], answeredPath: '$/data/allowed/sub' },
  { name: '.. out and back in', path: '$/data/allowed/../allowed/sub', status: 200, names: ['deep'], answeredPath: '$/data/allowed/sub' },
  { name: 'a second allowed directory', path: '$/data/other', status: 200, names: ['o.txt'] },
  { name: 'an allowed directory that is itself a symbolic link', path: '$/data/allowed-link', status: 200, names: ['t.txt'] },
  { name: 'an allowed directory with a non-ASCII name, as configured (NFC)', path: '$/data/na\u00efve', status: 200, names: ['n.txt'] },
  { name: 'a symbolic link to a directory inside', path: '$/data/allowed/link-in-dir', status: 200, names: ['deep'] },
  { name: 'a chain of symbolic links that stays inside', path: '$/data/allowed/chain-in1', status: 200, names: ['leaf.txt'] },
  { name: 'a symbolic link to another allowed directory', path: '$/data/allowed/link-to-other', status: 200, names: ['o.txt'] },
  { name: 'a symbolic link to an allowed symbolic link', path: '$/data/allowed/link-to-allowed-link', status: 200, names: ['t.txt'] },
  { name: 'a percent-encoded name is a literal name', path: '$/data/allowed/%2e%2e', status: 200, names: [] },
  { name: 'a non-ASCII name as stored (NFC)', path: '$/data/allowed/caf\u00e9', status: 200, names: [] },

  // CVE-2025-53110: a sibling whose name starts with the allowed one.
  { name: 'prefix sibling _evil', path: '$/data/allowed_evil', status: 403, error: OUTSIDE },
  { name: 'prefix sibling -old', path: '$/data/allowed-old', status: 403, error: OUTSIDE },
  { name: 'prefix sibling 2', path: '$/data/allowed2', status: 403, error: OUTSIDE },
  { name: 'prefix sibling .bak', path: '$/data/allowed.bak', status: 403, error: OUTSIDE },
  { name: 'prefix sibling with a trailing separator', path: '$/data/allowed_evil/', status: 403, error: OUTSIDE },
  { name: 'the parent of an allowed directory', path: '$/data', status: 403, error: OUTSIDE },
  { name: 'the file system root', path: '/', status: 403, error: OUTSIDE },
  { name: 'the real target of an allowed symbolic link, named directly', path: '$/data/target', status: 403, error: OUTSIDE },

  // .. escapes.
  { name: '.. one level up', path: '$/data/allowed/..', status: 403, error: OUTSIDE },
  { name: '.. to a sibling', path: '$/data/allowed/../outside', status: 403, error: OUTSIDE },
  { name: '.. to a prefix sibling', path: '$/data/allowed/../allowed_evil', status: 403, error: OUTSIDE },
  { name: '.. two levels from a subdirectory', path: '$/data/allowed/sub/../../outside', status: 403, error: OUTSIDE },
  { name: '.. far past the root', path: '$/data/allowed/sub/deep/../../../../../../../../etc', status: 403, error: OUTSIDE },
  { name: '.. with a trailing separator', path: '$/data/allowed/../', status: 403, error: OUTSIDE },
  { name: '.. mixed with dots and doubled separators', path: '$/data/allowed/.//sub/..//../.', status: 403, error: OUTSIDE },
  { name: 'backslashes are name characters on POSIX (a sibling name)', path: '$/data/allowed\\..\\outside', status: 403, error: OUTSIDE },
  {
    name: 'backslashes are name characters on POSIX (a missing name inside)',
    path: '$/data/allowed/..\\outside',
    status: 404,
    error: NOT_FOUND
  },
  { name: 'percent-encoded .. is not decoded', path: '$/data/allowed/%2e%2e/outside', status: 404, error: NOT_FOUND },
  { name: 'percent-encoded separator is not decoded', path: '$/data/allowed%2f..%2foutside', status: 403, error: OUTSIDE },
  { name: 'a two-dot leader is not ..', path: '$/data/allowed/\u2025/outside', status: 404, error: NOT_FOUND },
  { name: 'fullwidth full stops are not ..', path: '$/data/allowed/\uff0e\uff0e/outside', status: 404, error: NOT_FOUND },
  { name: 'a division slash is not a separator', path: '$/data/allowed\u2215..\u2215outside', status: 403, error: OUTSIDE },

  // Letter case: compared as given.
  { name: 'the whole path upper case', path: (root: string) => `${root}/data/allowed`.toUpperCase(), status: 403, error: OUTSIDE },
  { name: 'the last segment in another case', path: '$/data/Allowed', status: 403, error: OUTSIDE },
  { name: 'a parent segment in another case', path: '$/Data/allowed', status: 403, error: OUTSIDE },
  { name: 'another case with a subdirectory', path: '$/data/ALLOWED/sub', status: 403, error: OUTSIDE },
  { name: 'a name inside in another case is simply missing', path: '$/data/allowed/SUB', status: 404, error: NOT_FOUND },
  { name: 'a symbolic link inside spelled in another case', path: '$/data/allowed/LINK-IN-DIR', status: 404, error: NOT_FOUND },
  { name: 'a link pointing out, spelled in another case', path: '$/data/allowed/Link-Out-Dir', status: 404, error: NOT_FOUND },

  // Whitespace is part of a name: nothing strips it, neither the check nor the listing.
  { name: 'a trailing space after an allowed directory', path: '$/data/allowed ', status: 403, error: OUTSIDE },
  { name: 'a trailing tab after an allowed directory', path: '$/data/allowed\t', status: 403, error: OUTSIDE },
  { name: 'a leading space', path: ' $/data/allowed', status: 400, error: RELATIVE },
  { name: 'a trailing space after a name inside', path: '$/data/allowed/sub ', status: 404, error: NOT_FOUND },
  { name: 'a trailing newline after a link pointing out', path: '$/data/allowed/link-out-dir\n', status: 404, error: NOT_FOUND },

  // Unicode normalization look-alikes: compared as given.
  { name: 'an allowed directory spelled NFD where NFC is configured', path: '$/data/nai\u0308ve', status: 403, error: OUTSIDE },
  { name: 'a name inside spelled NFD where NFC is stored', path: '$/data/allowed/cafe\u0301', status: 404, error: NOT_FOUND },

  // CVE-2025-53109: symbolic links pointing out.
  { name: 'a symbolic link to an outside directory', path: '$/data/allowed/link-out-dir', status: 403, error: OUTSIDE },
  { name: 'a path through a symbolic link to an outside directory', path: '$/data/allowed/link-out-dir/.', status: 403, error: OUTSIDE },
  {
    name: 'a missing path behind a link to an outside directory',
    path: '$/data/allowed/link-out-dir/missing',
    status: 403,
    error: OUTSIDE
  },
  { name: 'a file behind a link to an outside directory', path: '$/data/allowed/link-out-dir/secret.txt', status: 403, error: OUTSIDE },
  { name: 'a symbolic link to an outside file', path: '$/data/allowed/link-out-file', status: 403, error: OUTSIDE },
  { name: 'a chain of symbolic links leading out', path: '$/data/allowed/chain1', status: 403, error: OUTSIDE },
  { name: 'the middle of a chain leading out', path: '$/data/allowed/chain2', status: 403, error: OUTSIDE },
  { name: 'a symbolic link to the parent', path: '$/data/allowed/link-parent', status: 403, error: OUTSIDE },
  {
    name: 'through a link to the parent into a prefix sibling',
    path: '$/data/allowed/link-parent/allowed_evil',
    status: 403,
    error: OUTSIDE
  },
  { name: 'a symbolic link to the root', path: '$/data/allowed/link-root', status: 403, error: OUTSIDE },
  { name: 'a dangling link pointing out', path: '$/data/allowed/dangling-out', status: 403, error: UNRESOLVABLE },
  { name: 'a dangling link pointing inside', path: '$/data/allowed/dangling-in', status: 403, error: UNRESOLVABLE },
  { name: 'a loop of symbolic links', path: '$/data/allowed/loop1', status: 403, error: UNRESOLVABLE },
  { name: 'a path under a loop of symbolic links', path: '$/data/allowed/loop1/x', status: 403, error: UNRESOLVABLE },

  // What is not a directory.
  { name: 'a file', path: '$/data/allowed/file.txt', status: 400, error: NOT_DIRECTORY },
  { name: 'a symbolic link to a file inside', path: '$/data/allowed/link-in-file', status: 400, error: NOT_DIRECTORY },
  { name: 'a missing directory', path: '$/data/allowed/missing', status: 404, error: NOT_FOUND },
  { name: 'a missing directory two levels down', path: '$/data/allowed/missing/deeper', status: 404, error: NOT_FOUND },
  { name: 'a path under a file', path: '$/data/allowed/file.txt/x', status: 404, error: NOT_FOUND },

  // Malformed paths.
  { name: 'a null byte inside', path: '$/data/allowed/sub\u0000', status: 400, error: NULL_BYTE },
  { name: 'a null byte cutting off an escape', path: '$/data/allowed\u0000/../outside', status: 400, error: NULL_BYTE },
  { name: 'a relative path', path: 'data/allowed', status: 400, error: RELATIVE },
  { name: 'a ./ relative path', path: './allowed', status: 400, error: RELATIVE },
  { name: 'a ../ relative path', path: '../outside', status: 400, error: RELATIVE },
  { name: 'a home-relative path', path: '~/allowed', status: 400, error: RELATIVE },
  { name: 'a Windows drive path on POSIX', path: 'C:\\data\\allowed', status: 400, error: RELATIVE },
  { name: 'a file: URL', path: 'file:///etc', status: 400, error: RELATIVE },
  { name: 'an empty path', path: '', status: 400, error: 'path must not be empty' },
  { name: 'a number', path: 42, status: 400, error: 'path must be a string' },
  { name: 'null', path: null, status: 400, error: 'path must be a string' },
  { name: 'a boolean', path: true, status: 400, error: 'path must be a string' },
  { name: 'an array of paths', path: ['$/data/allowed'], status: 400, error: 'path must be a string' },
  { name: 'an object', path: { path: '$/data/allowed' }, status: 400, error: 'path must be a string' },

  // Malformed bodies.
  { name: 'no path member', body: {}, status: 400, error: 'path is required' },
  {
    name: 'another member instead of path',
    body: { dir: '$/data/allowed' },
    status: 400,
    error: 'path is required; dir is not a known field'
  },
  {
    name: 'an extra member',
    body: { path: '$/data/allowed', recursive: true },
    status: 400,
    error: 'recursive is not a known field'
  },
  {
    name: 'a prototype-polluting member',
    raw: { payload: '{"path":"/","__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } },
    status: 400,
    error: BAD_JSON
  },
  { name: 'a body that is an array', body: ['$/data/allowed'], status: 400, error: 'Request body must be a JSON object' },
  { name: 'a body that is a string', body: '$/data/allowed', status: 400, error: 'Request body must be a JSON object' },
  { name: 'a body that is null', body: null, status: 400, error: 'Request body must be a JSON object' },
  {
    name: 'an empty JSON body',
    raw: { payload: '', headers: { 'content-type': 'application/json' } },
    status: 400,
    error: 'Request body must be a JSON object'
  },
  {
    name: 'unparseable JSON',
    raw: { payload: '{"path": ', headers: { 'content-type': 'application/json' } },
    status: 400,
    error: BAD_JSON
  },
  { name: 'a limit of 0', body: { path: '$/data/allowed', limit: 0 }, status: 400, error: 'limit must be >= 1' },
  { name: 'a limit above 10000', body: { path: '$/data/allowed', limit: 10001 }, status: 400, error: 'limit must be <= 10000' },
  { name: 'a limit as a string', body: { path: '$/data/allowed', limit: '5' }, status: 400, error: 'limit must be an integer' },
  { name: 'a fractional limit', body: { path: '$/data/allowed', limit: 2.5 }, status: 400, error: 'limit must be an integer' },
  {
    name: 'a cursor that is not base64url',
    body: { path: '$/data/allowed', cursor: '../..' },
    status: 400,
    error: `cursor: ${CURSOR_RULE}`
  },
  {
    name: 'a cursor of an odd number of bytes',
    body: { path: '$/data/allowed', cursor: 'YQ' },
    status: 400,
    error: 'cursor is not a ' + 'next_cursor issued by this server'
  },
  {
    name: 'an empty cursor',
    body: { path: '$/data/allowed', cursor: '' },
    status: 400,
    error: `cursor must not be empty; cursor: ${CURSOR_RULE}`
  },

  // Content types.
  {
    name: 'text/plain',
    raw: { payload: '{"path":"/"}', headers: { 'content-type': 'text/plain' } },
    status: 415,
    error: `${NOT_JSON}; got text/plain`
  },
  {
    name: 'a form',
    raw: { payload: 'path=%2F', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    status: 415,
    error: `${NOT_JSON}; got application/x-www-form-urlencoded`
  },
  {
    name: 'XML',
    raw: { payload: '<path>/</path>', headers: { 'content-type': 'application/xml' } },
    status: 415,
    error: `${NOT_JSON}; got application/xml`
  },
  {
    name: 'a body without Content-Type',
    raw: { payload: '{"path":"/"}', headers: {} },
    status: 415,
    error: `${NOT_JSON}; the request had none`
  },
  { name: 'no body and no Content-Type', raw: { headers: {} }, status: 415, error: `${NOT_JSON}; the request had none` }
]

/** The allowed directories of `layout`. */
export const allowedOf = (root: string): string[] => ['allowed', 'other', 'allowed-link', 'na\u00efve'].map(name => `${root}/data/${name}`)

/** A case's path or body with `$` replaced by the tree's root, as sent. */
export const expand = (root: string, value: unknown): unknown =>
  typeof value === 'function' ? value(root) : JSON.parse(JSON.stringify(value ?? null).replaceAll('$', root))

/** The JSON body a case sends, unless it sends a raw request. */
export const bodyOf = (root: string, c: Case): unknown => c.body !== undefined ? expand(root, c.body) : { path: expand(root, c.path) }
