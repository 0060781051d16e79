// Baseline B: json-server 0.17 over the bench's db.json, through its module API (create, router,
// defaults), with `_id` as the foreign-key suffix so that /zoos/1/animals lists zoo 1's animals.
// Environment: PORT, DB_FILE, TLS_CERT and TLS_KEY (HTTPS when both are set). Listens on 127.0.0.1.
//
// json-server keeps the whole database in memory and rewrites the whole file on every write
// (lowdb's FileSync): that is its nature and the bench measures it as it is. Two adaptations,
// both invisible to a client that waits for its answer:
// - lowdb reads the file into one string, which V8 caps at MAX_STRING_LENGTH (512 MiB), too small
//   for the db.json of a million records per collection. A file that large is read line by line
//   (the bench writes one record per line); everything else, writes included, is lowdb's own.
// - requests whose client has hung up are dropped (below).
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { constants } from 'node:buffer'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// json-server's own modules, resolved as json-server itself does.
const fromJsonServer = createRequire(require.resolve('json-server'))
const low = fromJsonServer('lowdb')
const FileSync = fromJsonServer('lowdb/adapters/FileSync')

const { PORT, DB_FILE, TLS_CERT, TLS_KEY } = process.env

/** The bench's db.json, one record per line, parsed without holding the file in one string. */
function readLines (file) {
  const data = {}
  let records
  const fd = openSync(file, 'r')
  const chunk = Buffer.alloc(64 << 20)
  let rest = Buffer.alloc(0)
  const line = text => {
    if (text.endsWith('[')) data[/"([^"]+)":\[$/.exec(text)[1]] = records = []
    else if (text.startsWith('{')) records.push(JSON.parse(text.endsWith(',') ? text.slice(0, -1) : text))
  }
  for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;) {
    const bytes = Buffer.concat([rest, chunk.subarray(0, n)])
    let start = 0
    for (let end; (end = bytes.indexOf(10, start)) !== -1; start = end + 1) line(bytes.toString('utf8', start, end))
    rest = Buffer.from(bytes.subarray(start))
  }
  if (rest.length > 0) line(rest.toString('utf8'))
  closeSync(fd)
  return data
}

class LargeFileSync extends FileSync {
  read () {
    return statSync(this.source).size < constants.MAX_STRING_LENGTH ? super.read() : readLines(this.source)
  }
}

// Dropping requests nobody waits for. json-server's router pauses each request (1 ms, its
// router/delay.js, twice on most routes), then answers it synchronously. When a case ends, the
// load generator hangs up with a request queued on each connection; answering those to nobody
// would eat into the next case: minutes at a million rows, where one list takes seconds and one
// write several. So each request leaves its pauses through a gate that lets one request at a time
// run until its next pause or its answer, the next one only after a turn of the event loop (which
// reads the sockets, so that a hang-up is seen), and drops a request whose client has hung up.
// The pauses overlap as without the gate, and the work between them was one at a time anyway.
// The gate goes in by replacing the exports of json-server's delay module before its router
// loads it.
const waiting = []
let holder = null
let scheduled = false
const watched = new WeakSet()
function schedule () {
  if (holder === null && !scheduled && waiting.length > 0) {
    scheduled = true
    setImmediate(admit)
  }
}
function release (request) {
  if (holder !== request) return
  holder = null
  schedule()
}
function admit () {
  scheduled = false
  for (let entry; (entry = waiting.shift()) !== undefined;) {
    const { request, response, next } = entry
    // The client's side of the connection ended or was reset: nobody waits for this answer.
    if (request.socket.destroyed || request.socket.readableEnded) continue
    holder = request
    if (!watched.has(request)) {
      watched.add(request)
      response.once('close', () => release(request))
    }
    next()
    return
  }
}
const delayModule = fromJsonServer.resolve('./router/delay')
const pause = fromJsonServer(delayModule)
require.cache[delayModule].exports = (request, response, next) => {
  release(request)
  pause(request, response, err => {
    if (err) return next(err)
    waiting.push({ request, response, next })
    schedule()
  })
}
const jsonServer = require('json-server')

const app = jsonServer.create()
app.use(jsonServer.defaults({ logger: false }))
app.use(jsonServer.router(low(new LargeFileSync(DB_FILE)), { foreignKeySuffix: '_id' }))

const server = TLS_CERT
  ? createHttpsServer({ cert: readFileSync(TLS_CERT), key: readFileSync(TLS_KEY) }, app)
  : createHttpServer(app)
server.listen(Number(PORT), '127.0.0.1')
