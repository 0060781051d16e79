import { delimiter, join, relative } from 'node:path'
import t from 'tap'
import { loadConfig } from '../../config/index.ts'
import { makeTree } from './helper.ts'

const KEY = 'k3y-0f-the-l0cal-t00l-server'

t.test('the local settings have embedded defaults: loopback, port 8000, no key, no directory', async t => {
  t.match(loadConfig({}, []), { localHost: '127.0.0.1', localPort: 8000, localApiKey: undefined, allowedDirs: [] })
})

t.test('ALLOWED_DIRS and --allow', async t => {
  const root = makeTree(t, { a: {}, b: {}, 'c:d': {}, target: {}, link: { link: 'target' } })
  const dirs = loadConfig({ ALLOWED_DIRS: [`${root}/a`, `${root}/b/`, `${root}//a`].join(delimiter) }, []).allowedDirs
  t.same(
    dirs,
    [
      { path: `${root}/a`, realPath: `${root}/a` },
      { path: `${root}/b`, realPath: `${root}/b` }
    ],
    'normalized, each once, in ' + 'order'
  )
  t.same(
    loadConfig({ ALLOWED_DIRS: `${root}/link` }, []).allowedDirs,
    [{ path: `${root}/link`, realPath: `${root}/target` }],
    'a ' + 'symbolic link keeps its name; its target is its real path'
  )
  t.same(
    loadConfig({ ALLOWED_DIRS: relative(process.cwd(), `${root}/a`) }, []).allowedDirs,
    [{ path: `${root}/a`, realPath: `${root}/a` }],
    'relative to the working directory'
  )
  t.same(
    loadConfig({ ALLOWED_DIRS: `${root}/a` }, ['--allow', `${root}/b`, `--allow=${root}/c:d`]).allowedDirs.map(d => d.path),
    [`${root}/b`, `${root}/c:d`],
    'repeated flags replace the variable, and may hold the delimiter'
  )
  t.same(loadConfig({ ALLOWED_DIRS: '' }, []).allowedDirs, [], 'empty is none')
})

t.test('a bad local setting stops start-up with one line naming it', async t => {
  const root = makeTree(t, { file: 'x', loop: { link: 'loop' }, dangling: { link: 'missing' } })
  const cases: [Record<string, string>, string[], RegExp][] = [
    [{ ALLOWED_DIRS: '/nope' }, [], /^ALLOWED_DIRS: \/nope does not exist$/],
    [{ ALLOWED_DIRS: `${root}/file` }, [], new RegExp(`^ALLOWED_DIRS: ${root}/file is not a directory$`)],
    [{ ALLOWED_DIRS: `${root}/file/sub` }, [], new RegExp(`^ALLOWED_DIRS: ${root}/file/sub does not exist$`)],
    [{ ALLOWED_DIRS: `${root}/dangling` }, [], new RegExp(`^ALLOWED_DIRS: ${root}/dangling does not exist$`)],
    [{ ALLOWED_DIRS: `${root}/loop` }, [], new RegExp(`^ALLOWED_DIRS: ${root}/loop cannot be resolved \\(symbolic link loop\\)$`)],
    [{ ALLOWED_DIRS: `/${'n'.repeat(300)}` }, [], /^ALLOWED_DIRS: \/n+ cannot be used \(ENAMETOOLONG/],
    [
      { ALLOWED_DIRS: [root, '', root].join(delimiter) },
      [],
      new RegExp(`^ALLOWED_DIRS: empty entry; separate directories with "${delimiter}"$`)
    ],
    [{ ALLOWED_DIRS: `${root}${delimiter}` }, [], /^ALLOWED_DIRS: empty entry/],
    [{ ALLOWED_DIRS: root }, ['--allow', '/nope'], /^--allow: \/nope does not exist$/],
    [{}, ['--allow='], /^--allow: empty entry/],
    [{}, ['--allow'], /argument missing/],
    [{}, ['--allowed-dirs', root], /Unknown option '--allowed-dirs'/],
    [{ LOCAL_PORT: '80000' }, [], /^LOCAL_PORT must be a port number from 0 to 65535, got "80000"$/],
    [{}, ['--local-port', 'http'], /^--local-port must be a port number/],
    [{ LOCAL_HOST: ' ' }, [], /^LOCAL_HOST must be a host name or IP address/],
    // The whole line: a refused key is not echoed.
    [{ LOCAL_API_KEY: 'short' }, [], /^LOCAL_API_KEY must be at least 16 characters of letters, digits and - \. _ ~ \+ \/$/],
    [{ LOCAL_API_KEY: 'a key with spaces in it' }, [], /^LOCAL_API_KEY must be/],
    [
      { LOCAL_HOST: '0.0.0.0' },
      [],
      /^LOCAL_HOST: 0\.0\.0\.0 is not a loopback address; the local tool server would be open to the network without LOCAL_API_KEY$/
    ],
    [{}, ['--local-host', '192.168.1.10'], /^--local-host: 192\.168\.1\.10 is not a loopback address/],
    [{ LOCAL_HOST: 'myhost.example' }, [], /^LOCAL_HOST: myhost\.example is not a loopback address/]
  ]
  for (const [env, argv, message] of cases) {
    t.throws(() => loadConfig(env, argv), { name: 'ConfigError', message }, JSON.stringify([env, argv]))
  }
})

t.test('a loopback LOCAL_HOST needs no key; any other needs one', async t => {
  for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1']) t.equal(loadConfig({ LOCAL_HOST: host }, []).localHost, host)
  t.match(loadConfig({ LOCAL_HOST: '0.0.0.0', LOCAL_API_KEY: KEY }, ['--local-port=9000']), {
    localHost: '0.0.0.0',
    localPort: 9000,
    localApiKey: KEY
  })
  t.equal(loadConfig({}, [`--local-api-key=${KEY}==`]).localApiKey, `${KEY}==`)
  t.equal(loadConfig({ ALLOWED_DIRS: join('/', '.') }, []).allowedDirs[0]?.path, '/')
})
