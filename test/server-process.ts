import { once } from 'node:events'
import type { Test } from 'tap'
import { BOOTSTRAP } from './helper.ts'
import { lineOf, spawnTs } from './local/helper.ts'

/* The service as a real process, for the tests that kill it (test/store/crash.test.ts, test/webhooks/crash.test.ts). */

export interface Server { child: ReturnType<typeof spawnTs>, port: number, exit: Promise<[number | null, string | null]> }

/**
 * `npm start` behind a (pretend) TLS-terminating proxy on `dataDir`, with `settings` beside (a
 * database's URL), killed at teardown; resolves once the API listens.
 */
export async function start (t: Test, dataDir: string, settings: Record<string, string>): Promise<Server> {
  const child = spawnTs('server.ts', {
    TLS: 'proxy',
    HOST: '127.0.0.1',
    PORT: '0',
    LOCAL_HOST: '127.0.0.1',
    LOCAL_PORT: '0',
    ALLOWED_DIRS: '',
    RATE_LIMIT: '0',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    BOOTSTRAP_CLIENT_ID: BOOTSTRAP.id,
    BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.secret,
    ...settings
  })
  t.teardown(() => { child.kill('SIGKILL') })
  const exit = once(child, 'exit') as Promise<[number | null, string | null]>
  let stderr = ''
  child.stderr.on('data', chunk => { stderr = (stderr + String(chunk)).slice(-4000) })
  const line = await lineOf(child.stdout, l => {
    try {
      const log = JSON.parse(l) as { name?: string, msg?: string }
      return log.name === undefined && (log.msg?.startsWith('Server listening at ') ?? false)
    } catch {
      return false
    }
  }).catch((err: Error) => { throw new Error(`${err.message}; stderr: ${stderr}`) })
  // Every request is logged: the log is read and dropped, or the pipe would fill and block the server.
  child.stdout.resume()
  const port = Number(new URL((JSON.parse(line) as { msg: string }).msg.slice('Server listening at '.length)).port)
  return { child, port, exit }
}
