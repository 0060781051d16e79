// What the measures of their own (write-power.js, hold.js) send with: a client of the target on
// keep-alive connections, as a program that writes would have.
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

/** A client of the target on `sockets` keep-alive connections: `send` answers the status and the body as text. */
export function client (target, sockets = 1) {
  const agent = target.https
    ? new HttpsAgent({ keepAlive: true, maxSockets: sockets, ca: target.ca })
    : new HttpAgent({ keepAlive: true, maxSockets: sockets })
  const request = target.https ? httpsRequest : httpRequest
  const send = (method, path, body) => new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = request({
      host: '127.0.0.1',
      port: target.port,
      method,
      path,
      agent,
      headers: { ...target.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }
    }, res => {
      const chunks = []
      res.on('data', chunk => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(payload)
  })
  return { send, close: () => agent.destroy() }
}

/** The answer, when it has the status expected; else what it was, as an error. */
export function expect (answer, status, what) {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.body.slice(0, 300)}`)
  return answer
}
