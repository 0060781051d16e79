// The service the bench measures: the build in dist/ (`npm run build`, which the bench script runs
// first), copied to bench/.service/ with one collection added the way docs/adding-a-collection.md
// adds one: the schema and route files of bench/access/ (keepers, with access rules) and the
// migration `npm run migrations` writes for them. The shipped collections are served exactly as
// `npm start` serves them; keepers is there for the bound-token cases (cases.js).
import { cpSync, existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** Where the service's files are: what the service target runs (`server.js`) and what the seed migrates with. */
export const SERVICE = join(ROOT, 'bench/.service')

/** A module of the service's build, by its path within the build. */
export const serviceModule = path => import(pathToFileURL(join(SERVICE, path)).href)

/** Makes bench/.service/ anew from dist/ and bench/access/. */
export async function prepareService () {
  if (!existsSync(join(ROOT, 'dist/server.js'))) throw new Error('no dist/server.js: `npm run bench` builds it first')
  rmSync(SERVICE, { recursive: true, force: true })
  cpSync(join(ROOT, 'dist'), SERVICE, { recursive: true })
  cpSync(join(ROOT, 'bench/access'), SERVICE, { recursive: true })
  const { RESOURCES } = await serviceModule('schemas/index.js')
  const { planMigration, writeMigration } = await serviceModule('store/migration-plan.js')
  const migrations = join(SERVICE, 'migrations')
  const planned = planMigration(RESOURCES, migrations)
  if (planned === undefined) throw new Error('bench/access: no migration to write: is keepers already shipped?')
  writeMigration(migrations, planned)
}
