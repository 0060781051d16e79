// `npm run migrations`: the migration the resources (schemas/index.ts) need beyond those shipped
// in migrations/, written for both engines as migrations/sqlite/NNN_<collections>.sql and
// migrations/postgres/NNN_<collections>.sql (store/migration-plan.ts). Plain SQL, to be read
// and committed like code. Run from the source folder, on the pinned Node.js.
import { fileURLToPath } from 'node:url'
import { RESOURCES } from '../schemas/index.ts'
import { planMigration, writeMigration } from '../store/migration-plan.ts'

const folder = fileURLToPath(new URL('../migrations', import.meta.url))
try {
  const planned = planMigration(RESOURCES, folder)
  if (planned === undefined) {
    console.log('migrations: the shipped migrations make every table the resources need; nothing to write')
  } else {
    for (const path of writeMigration(folder, planned)) console.log(`migrations: wrote ${path}`)
  }
} catch (err) {
  console.error(`migrations: ${(err as Error).message}`)
  process.exitCode = 1
}
