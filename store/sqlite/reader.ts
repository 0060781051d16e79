import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import type { ThreadAnswer } from '../reader-threads.ts'
import type { Statement } from '../sql.ts'

/*
 * A reader thread of SQLite (store/reader-threads.ts): a read-only connection of its own to the
 * database file, which WAL lets read beside the service's writes. Each message is statements to
 * read in one transaction, so that all of them read one state of the file; each is answered with
 * their rows, arrays of values in the order of the select list.
 */

/** What the thread is started with: the database file, and in the single binary the addon it unpacked. */
export interface ReaderData { file: string, addon: string | undefined }

/** Compiled statements kept: an aggregate's text varies with its query. */
const KEPT = 128

const { file, addon } = workerData as ReaderData
const db = new Database(file, { readonly: true, fileMustExist: true, ...(addon === undefined ? {} : { nativeBinding: addon }) })
db.pragma('busy_timeout = 5000')
// As the service's connection (store/sqlite/database.ts): a read that walks an index fetches rows all over the table.
db.pragma('cache_size = -32768')
const compiled = new Map<string, Database.Statement>()

function prepared (text: string): Database.Statement {
  let statement = compiled.get(text)
  if (statement === undefined) {
    if (compiled.size >= KEPT) compiled.delete(compiled.keys().next().value as string)
    compiled.set(text, statement = db.prepare(text).raw())
  }
  return statement
}

const read = db.transaction((statements: Statement[]) => statements.map(({ sql, params }) => prepared(sql).all(...params)))

parentPort?.on('message', (statements: Statement[]) => {
  let answer: ThreadAnswer<unknown[][]>
  try {
    answer = { value: read(statements) }
  } catch (err) {
    const { message, code } = err as { message: string, code?: string }
    answer = { error: { message, ...(code === undefined ? {} : { code }) } }
  }
  parentPort?.postMessage(answer)
})
