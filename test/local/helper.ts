import { spawn, type ChildProcessByStdio } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Readable } from 'node:stream'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { loadConfig } from '../../config/index.ts'
import { buildLocalServer } from '../../local/app.ts'

/** A file tree: a string is a file's content, an object a directory, `{ link }` a symbolic link. */
export interface Tree {
  [name: string]: string | Tree | { link: string }
}

const isLink = (node: string | Tree | { link: string }): node is { link: string } =>
  typeof node === 'object' && typeof node.link === 'string'

/** Writes `tree` into the existing directory `dir`. */
export function writeTree (dir: string, tree: Tree): void {
  for (const [name, node] of Object.entries(tree)) {
    const path = join(dir, name)
    if (typeof node === 'string') writeFileSync(path, node)
    else if (isLink(node)) symlinkSync(node.link, path)
    else {
      mkdirSync(path)
      writeTree(path, node)
    }
  }
}

/** Memory when the system has it: creating 100,000 files on a busy disk can take a minute. */
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()

/**
 * A fresh temporary directory, by its real path, holding `tree` (which may depend on that path),
 * removed at teardown. Readable by every user.
 */
export function makeTree (t: Test, tree: Tree | ((root: string) => Tree)): string {
  const root = realpathSync(mkdtempSync(join(SCRATCH, 'zoo-local-')))
  chmodSync(root, 0o755)
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  writeTree(root, typeof tree === 'function' ? tree(root) : tree)
  return root
}

/** The local tool server in-process (no listener), closed at teardown. */
export async function buildLocal (t: Test, settings: Record<string, string>): Promise<FastifyInstance> {
  const app = buildLocalServer(loadConfig({ LOG_LEVEL: 'silent', ...settings }, []))
  t.teardown(() => app.close())
  await app.ready()
  return app
}

/** POST of a JSON body (any value, sent as given) to one of the operations. */
export async function post (
  app: FastifyInstance,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) })
  })
}

export interface SocketResponse {
  status: number
  headers: IncomingHttpHeaders
  text: string
  json: () => any
}

/** One HTTP/1.1 request over a real socket, every header (Host included) as given. */
export async function send (
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string }
): Promise<SocketResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path, headers: options.headers ?? {} },
      res => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', chunk => {
          text += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }))
      }
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

/** Writes `request` as is on a fresh connection; resolves with the status and body read back. */
export async function sendRaw (port: number, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request))
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', chunk => {
      text += chunk
    })
    socket.on('error', reject)
    socket.on('end', () => resolve({ status: Number(text.split(' ')[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }))
  })
}

/** The local tool server in-process, listening on a free loopback port, closed at teardown. */
export async function listeningLocal (t: Test, settings: Record<string, string>): Promise<{ app: FastifyInstance, port: number }> {
  const app = await buildLocal(t, settings)
  await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, port: portOf(app) }
}

/** The JSON-RPC messages of an answer of /mcp: its body, or the data of its server-sent events. */
export function mcpMessages (contentType: string | undefined, body: string): unknown[] {
  const parts = contentType?.startsWith('text/event-stream') === true
    ? body.split('\n').filter(line => line.startsWith('data: ')).map(line => line.slice(6))
    : [body]
  return parts.filter(part => part !== '').map(part => JSON.parse(part) as unknown).flat()
}

/** The port a listening instance got. */
export function portOf (app: FastifyInstance): number {
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port')
  return address.port
}

/** The environment of the tests without tap's bookkeeping (coverage, process info) in it. */
function withoutBookkeeping (): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(NODE_OPTIONS|NODE_V8_COVERAGE|_TAPJS_)/.test(name)))
}

export interface ToolRun { code: number | null, stdout: string, stderr: string }

/**
 * A command of node_modules/.bin (a tool of another project, such as an MCP client), run to its
 * end by the Node.js that runs the tests, with `home` as its HOME, without tap's bookkeeping.
 * One that hangs is killed after a minute, and its run ends with no exit code.
 */
export async function runTool (bin: string, args: string[], home: string): Promise<ToolRun> {
  const file = fileURLToPath(new URL(`../../node_modules/.bin/${bin}`, import.meta.url))
  return new Promise(resolve => {
    const env = { ...withoutBookkeeping(), HOME: home, NO_COLOR: '1' }
    const child = spawn(process.execPath, [file, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', chunk => { stdout += String(chunk) })
    child.stderr.on('data', chunk => { stderr += String(chunk) })
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

/**
 * Runs a TypeScript file of this repository in a child process, as tap runs the tests: Node.js
 * strips its types, with tap's hooks (coverage bookkeeping) of the test process. A child that
 * becomes another user runs without that bookkeeping, which writes where that user may not.
 */
export function spawnTs (
  file: string,
  env: Record<string, string>,
  args: string[] = [],
  { bookkeeping = true }: { bookkeeping?: boolean } = {}
): ChildProcessByStdio<null, Readable, Readable> {
  const inherited = bookkeeping ? process.env : withoutBookkeeping()
  const execArgv = bookkeeping ? process.execArgv : process.execArgv.filter(arg => !arg.includes('processinfo'))
  return spawn(process.execPath, [...execArgv, fileURLToPath(new URL(`../../${file}`, import.meta.url)), ...args], {
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
}

/**
 * `npm start` (server.ts) as a child process on `dataDir`: both listeners on loopback at free
 * ports, JSON log lines on stdout, no allowed directory unless `env` says; killed at teardown.
 */
export function startServer (t: Test, dataDir: string, env: Record<string, string> = {}): ChildProcessByStdio<null, Readable, Readable> {
  const child = spawnTs('server.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    LOCAL_HOST: '127.0.0.1',
    LOCAL_PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ALLOWED_DIRS: '',
    ...env
  })
  t.teardown(() => { child.kill('SIGKILL') })
  return child
}

/** Resolves with the first line of a stream that `accept` takes, or rejects when the stream ends. */
export async function lineOf (stream: Readable, accept: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = ''
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8')
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      const line = lines.find(accept)
      if (line !== undefined) {
        stream.off('data', onData)
        resolve(line)
      }
    }
    stream.on('data', onData)
    stream.once('end', () => reject(new Error(`stream ended without the line; last: ${buffered}`)))
  })
}
