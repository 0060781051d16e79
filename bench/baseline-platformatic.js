// Baseline P: Platformatic DB, the REST API it generates from the tables, on a copy of the same
// PostgreSQL database the service uses, with the composite index of the list-zoos page. It is
// not a dependency of the project: `npm run bench` installs the version below into
// bench/.platformatic/ the first time a run asks for it (platformatic.js), and this file loads it
// from there. Platformatic's own defaults otherwise: no auth, its own query syntax (cases.js).
// Environment: PORT, DATABASE_URL, TLS_CERT and TLS_KEY (HTTPS when both are set).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import pg from 'pg'
import { PLATFORMATIC_DIR } from './platformatic.js'

const { PORT, DATABASE_URL, TLS_CERT, TLS_KEY } = process.env

const db = new pg.Client({ connectionString: DATABASE_URL })
await db.connect()
await db.query('CREATE INDEX IF NOT EXISTS zoos_country_name_id ON zoos (country, name, id); ANALYZE')
await db.end()

const require = createRequire(`${PLATFORMATIC_DIR}/package.json`)
const { create } = await import(require.resolve('@platformatic/db'))
const app = await create(PLATFORMATIC_DIR, {
  server: {
    hostname: '127.0.0.1',
    port: Number(PORT),
    logger: { level: 'warn' },
    ...(TLS_CERT ? { https: { cert: readFileSync(TLS_CERT, 'utf8'), key: readFileSync(TLS_KEY, 'utf8') } } : {})
  },
  // The REST API only, as the service is: no GraphQL, no events, its pool of 10 as the service's.
  db: { connectionString: DATABASE_URL, poolSize: 10, openapi: true, graphql: false, events: false }
})
await app.init()
await app.start({ listen: true })
