import path from 'node:path'
import t from 'tap'
import { HttpError } from '../../http/errors.ts'
import {
  allowedRootOf,
  isWithin,
  normalizeRequestedPath,
  PathGuard,
  type PathApi,
  type ResolvingFileSystem
} from '../../local/path-guard.ts'

const OUTSIDE = 'Access denied - the path is outside the allowed directories'

/** What the lexical step makes of a requested path: the normalized path, or the refusal. */
type Outcome = { path: string } | { status: number; error: string }

function lexical (p: PathApi, allowed: string[]) {
  return (requested: unknown): Outcome => {
    try {
      const normalized = normalizeRequestedPath(requested, p)
      allowedRootOf(normalized, allowed, p)
      return { path: normalized }
    } catch (err) {
      if (!(err instanceof HttpError)) throw err
      return { status: err.statusCode, error: err.message }
    }
  }
}

t.test('Windows rules, with path.win32: drive letters, backslashes, UNC shares, case', async t => {
  const check = lexical(path.win32, ['C:\\Data\\Allowed', '\\\\server\\share\\docs', 'D:\\'])
  const cases: [string, Outcome][] = [
    ['C:\\Data\\Allowed', { path: 'C:\\Data\\Allowed' }],
    ['C:/Data/Allowed/sub/', { path: 'C:\\Data\\Allowed\\sub' }],
    ['C:\\Data\\\\Allowed\\.\\sub\\\\', { path: 'C:\\Data\\Allowed\\sub' }],
    ['C:\\Data\\Allowed\\..\\Allowed\\x', { path: 'C:\\Data\\Allowed\\x' }],
    ['\\\\server\\share\\docs\\report', { path: '\\\\server\\share\\docs\\report' }],
    ['//server/share/docs/report', { path: '\\\\server\\share\\docs\\report' }],
    ['D:\\anything\\at\\all', { path: 'D:\\anything\\at\\all' }],
    ['D:/', { path: 'D:\\' }],
    // The seed's own example: a lower-case drive letter where upper case is configured.
    ['c:\\Data\\Allowed', { status: 403, error: OUTSIDE }],
    ['d:\\anything', { status: 403, error: OUTSIDE }],
    ['C:\\data\\allowed', { status: 403, error: OUTSIDE }],
    ['C:\\DATA\\ALLOWED\\SUB', { status: 403, error: OUTSIDE }],
    ['C:\\Data\\allowed\\sub', { status: 403, error: OUTSIDE }],
    ['\\\\SERVER\\share\\docs', { status: 403, error: OUTSIDE }],
    ['C:\\Data\\Allowed_evil', { status: 403, error: OUTSIDE }],
    ['C:\\Data\\Allowed-old\\x', { status: 403, error: OUTSIDE }],
    ['C:\\Data\\Allowed2', { status: 403, error: OUTSIDE }],
    ['C:\\Data\\Allowed.bak', { status: 403, error: OUTSIDE }],
    // Windows drops a trailing dot when opening: as given, it is a sibling.
    ['C:\\Data\\Allowed.', { status: 403, error: OUTSIDE }],
    ['C:\\Data\\Allowed\\..\\Other', { status: 403, error: OUTSIDE }],
    ['C:/Data/Allowed/sub/../../Allowed2', { status: 403, error: OUTSIDE }],
    ['C:\\Data\\Allowed\\..\\..\\..\\..\\Windows', { status: 403, error: OUTSIDE }],
    ['\\\\server\\share\\docs2', { status: 403, error: OUTSIDE }],
    ['\\\\server\\share\\docs\\..\\secret', { status: 403, error: OUTSIDE }],
    // `..` cannot climb out of a share's root; it stays in the share, not in docs.
    ['\\\\server\\share\\..\\share\\docs', { status: 403, error: OUTSIDE }],
    ['\\\\other\\share\\docs', { status: 403, error: OUTSIDE }],
    ['\\\\?\\C:\\Data\\Allowed', { status: 403, error: OUTSIDE }],
    ['\\\\.\\C:\\Data\\Allowed', { status: 403, error: OUTSIDE }],
    ['E:\\Data\\Allowed', { status: 403, error: OUTSIDE }],
    ['C:Data\\Allowed', { status: 400, error: 'path must be absolute' }],
    ['C:', { status: 400, error: 'path must be absolute' }],
    ['\\Data\\Allowed', { status: 400, error: 'path must be absolute' }],
    ['/Data/Allowed', { status: 400, error: 'path must be absolute' }],
    ['Data\\Allowed', { status: 400, error: 'path must be absolute' }],
    ['..\\Allowed', { status: 400, error: 'path must be absolute' }],
    ['C:\\Data\\Allowed\\sub\u0000.txt', { status: 400, error: 'path must not contain a null byte' }],
    ['', { status: 400, error: 'path must not be empty' }]
  ]
  for (const [requested, expected] of cases) t.same(check(requested), expected, JSON.stringify(requested))
})

t.test('POSIX rules, with path.posix', async t => {
  const check = lexical(path.posix, ['/data/allowed', '/srv/Mixed'])
  const cases: [unknown, Outcome][] = [
    ['/data/allowed', { path: '/data/allowed' }],
    ['//data//allowed//x//', { path: '/data/allowed/x' }],
    ['/../data/allowed', { path: '/data/allowed' }],
    ['/srv/Mixed/a', { path: '/srv/Mixed/a' }],
    ['/srv/mixed/a', { status: 403, error: OUTSIDE }],
    ['/SRV/Mixed', { status: 403, error: OUTSIDE }],
    ['/data/allowed_evil', { status: 403, error: OUTSIDE }],
    ['/data/allowed/../allowed2', { status: 403, error: OUTSIDE }],
    ['/data/allowed\\..\\x', { status: 403, error: OUTSIDE }],
    ['/data', { status: 403, error: OUTSIDE }],
    ['data/allowed', { status: 400, error: 'path must be absolute' }],
    ['\\data\\allowed', { status: 400, error: 'path must be absolute' }],
    [42, { status: 400, error: 'path must be a string' }],
    [undefined, { status: 400, error: 'path must be a string' }]
  ]
  for (const [requested, expected] of cases) t.same(check(requested), expected, JSON.stringify(requested))
})

t.test('isWithin needs a separator boundary and handles root directories', async t => {
  t.ok(isWithin('/a/b', '/a', path.posix))
  t.ok(isWithin('/a', '/a', path.posix))
  t.notOk(isWithin('/ab', '/a', path.posix))
  t.ok(isWithin('/anything', '/', path.posix))
  t.ok(isWithin('C:\\x', 'C:\\', path.win32))
  t.notOk(isWithin('C:\\x', 'C:\\x\\y', path.win32))
  t.notOk(isWithin('c:\\x', 'C:\\', path.win32))
})

/** A file system of a few paths: a string is the real path, an Error code makes the call fail. */
function fakeFileSystem (realpaths: Record<string, string>, lstats: Record<string, string | true> = {}): ResolvingFileSystem {
  const fail = (code: string, path: string): never => {
    throw Object.assign(new Error(`${code}: ${path}`), { code })
  }
  return {
    realpath: async path => {
      const real = realpaths[path] ?? 'ENOENT'
      return /^E[A-Z]+$/.test(real) ? fail(real, path) : real
    },
    lstat: async path => {
      const found = lstats[path] ?? 'ENOENT'
      return found === true ? {} : fail(found, path)
    }
  }
}

t.test('the real-path step, on Windows paths, with the failures a test disk cannot show', async t => {
  const dirs = [
    { path: 'C:\\Data\\Allowed', realPath: 'C:\\Data\\Allowed' },
    { path: 'C:\\Link', realPath: 'E:\\Target' }
  ]
  const guard = (realpaths: Record<string, string>, lstats?: Record<string, string | true>) =>
    new PathGuard(dirs, path.win32, fakeFileSystem(realpaths, lstats))

  t.same(await guard({ 'C:\\Link\\x': 'E:\\Target\\x' }).check('C:/Link/x'), { path: 'C:\\Link\\x', realPath: 'E:\\Target\\x' })
  t.same(
    await guard({ 'C:\\Data\\Allowed\\x': 'E:\\Target' }).check('C:\\Data\\Allowed\\x'),
    { path: 'C:\\Data\\Allowed\\x', realPath: 'E:\\Target' },
    'into another allowed directory'
  )
  await t.rejects(guard({ 'C:\\Data\\Allowed\\x': 'E:\\Other' }).check('C:\\Data\\Allowed\\x'), { statusCode: 403, message: OUTSIDE })
  await t.rejects(guard({ 'C:\\Data\\Allowed\\x': 'EACCES' }).check('C:\\Data\\Allowed\\x'), {
    statusCode: 403,
    message: 'Access denied ' + '- permission denied'
  })
  await t.rejects(guard({ 'C:\\Data\\Allowed\\x': 'EPERM' }).check('C:\\Data\\Allowed\\x'), {
    statusCode: 403,
    message: 'Access denied ' + '- permission denied'
  })
  await t.rejects(guard({ 'C:\\Data\\Allowed\\x': 'ENAMETOOLONG' }).check('C:\\Data\\Allowed\\x'), {
    statusCode: 400,
    message: 'path is ' + 'too long'
  })
  await t.rejects(guard({ 'C:\\Data\\Allowed\\x': 'EIO' }).check('C:\\Data\\Allowed\\x'), { code: 'EIO' }, 'a fault is not a refusal')

  // Walking up from a path that does not resolve.
  const missing = { 'C:\\Data\\Allowed': 'C:\\Data\\Allowed' }
  await t.rejects(guard(missing).check('C:\\Data\\Allowed\\a\\b\\c'), { statusCode: 404, message: 'No such directory' })
  await t.rejects(
    guard({ 'C:\\Data\\Allowed': 'C:\\Data\\Allowed', 'C:\\Data\\Allowed\\a': 'E:\\Elsewhere' }).check('C:\\Data\\Allowed\\a\\b'),
    { statusCode: 403, message: OUTSIDE }
  )
  await t.rejects(guard(missing, { 'C:\\Data\\Allowed\\a': true }).check('C:\\Data\\Allowed\\a\\b'), {
    statusCode: 403,
    message: 'Access ' + 'denied - a symbolic link on the path cannot be resolved'
  })
  await t.rejects(guard(missing, { 'C:\\Data\\Allowed\\a': 'EACCES' }).check('C:\\Data\\Allowed\\a\\b'), {
    statusCode: 403,
    message: 'Access denied - permission denied'
  })
  await t.rejects(guard(missing, { 'C:\\Data\\Allowed\\a': 'EIO' }).check('C:\\Data\\Allowed\\a\\b'), { code: 'EIO' })
  await t.rejects(guard({ 'C:\\Data\\Allowed': 'EACCES' }).check('C:\\Data\\Allowed\\a'), {
    statusCode: 403,
    message: 'Access denied - ' + 'permission denied'
  })
  await t.rejects(
    guard({}).check('C:\\Data\\Allowed\\a'),
    { statusCode: 404, message: 'No such directory' },
    'the configured directory ' + 'vanished'
  )
  await t.rejects(guard({}).check('C:\\Link'), { statusCode: 404, message: 'No such directory' }, 'the configured directory vanished')
  await t.rejects(guard({ 'C:\\Link': 'E:\\Target' }).check('c:\\Link'), { statusCode: 403, message: OUTSIDE })
})
