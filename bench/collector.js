// `npm run bench -- --observed`: what receives the service's traces, as an OpenTelemetry collector
// would, in a process of its own so that the load's process does not pay for it. It reads each
// export whole and answers 200, and keeps only a count: the spans' cost to the service is what is
// measured, not a collector's. Prints its port once listening; on SIGTERM, what it received.
import { createServer } from 'node:http'

let exports = 0
let bytes = 0
const server = createServer((request, response) => {
  request.on('data', chunk => { bytes += chunk.length })
  request.on('end', () => {
    exports++
    response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/x-protobuf' }).end()
  })
})
server.listen(0, '127.0.0.1', () => { process.stdout.write(`${server.address().port}\n`) })
process.on('SIGTERM', () => {
  process.stdout.write(`${JSON.stringify({ exports, bytes })}\n`)
  process.exit(0)
})
