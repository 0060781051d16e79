import { workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { Recent } from '../recent.ts'
import { serveReads } from '../reader-threads.ts'
import type { Statement } from '../sql.ts'

/*
 * A reader thread of SQLite (store/reader-threads.ts): a read-only connection of its own to the
 * database file, which WAL lets read beside the service's writes. Each message is statements to
 * read in one transaction, so that all of them read one state of the file; each is answered with
 * their rows, arrays of values in the order of the select list.
 */

/** What the thread is started with: the database file, and in the single binary the addon it unpacked. */
export interface ReaderData { file: string, addon: string | undefined }

const { file, addon } = workerData as ReaderData
const db = new Database(file, { readonly: true, fileMustExist: true, ...(addon === undefined ? {} : { nativeBinding: addon }) })
db.pragma('busy_timeout = 5000')
// As the service's connection (store/sqlite/database.ts): a read that walks an index fetches rows all over the table.
db.pragma('cache_size = -32768')
/** Compiled statements kept: an aggregate's text varies with its query. */
const compiled = new Recent<string, Database.Statement>(128)

serveReads(db.transaction((statements: Statement[]) =>
  statements.map(({ sql, params }) => compiled.get(sql, () => db.prepare(sql).raw()).all(...params))))
