// `npm run openapi:types` (and the first step of `npm run typecheck`): the TypeScript types
// openapi-typescript makes of the API's OpenAPI document, written to test/generated/openapi.ts,
// which test/openapi-client.test.ts compiles a typed client against. The file is not committed:
// it is made from the collections of the tree being checked, so a new collection's routes are in
// it before the compiler reads it. The document comes from the app itself, built on a data
// directory of its own that is removed afterwards. Run from the source folder, on the pinned Node.js.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript'
import { buildApi } from '../app.ts'
import { loadConfig } from '../config/index.ts'
import { DOCUMENTATION_PREFIX } from '../http/links.ts'

const target = fileURLToPath(new URL('../test/generated/openapi.ts', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'zoo-openapi-'))
// A chosen bootstrap secret, so that none is generated and printed.
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', BOOTSTRAP_CLIENT_SECRET: 'openapi-types-only-0123456789' }, [])
const app = buildApi(config, { runJobs: false })
try {
  const document = (await app.inject({ method: 'GET', url: `${DOCUMENTATION_PREFIX}/json` })).json<OpenAPI3>()
  mkdirSync(join(target, '..'), { recursive: true })
  writeFileSync(target, astToString(await openapiTS(document)))
  console.log(`openapi:types: wrote ${target}`)
} catch (err) {
  console.error(`openapi:types: ${(err as Error).message}`)
  process.exitCode = 1
} finally {
  await app.close()
  rmSync(dataDir, { recursive: true, force: true })
}
