import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import t, { type Test } from 'tap'
import type { Resource } from '../../collections/resource.ts'
import { RESOURCES } from '../../schemas/index.ts'
import { planMigration, writeMigration } from '../../store/migration-plan.ts'
import { buildApi } from '../../app.ts'
import { checkContract } from '../contract.ts'
import { build, buildServing, call, cli, create, testConfig, tokenRequest, BOOTSTRAP } from '../helper.ts'
import { WALKTHROUGH_FILES, WALKTHROUGH_MIGRATIONS, WALKTHROUGH_PAGE } from './walkthrough.ts'

/*
 * docs/adding-a-collection.md, followed as a user would: its schema file and route files taken
 * from the page as they are written there, the migration npm run migrations writes for them, the
 * collection served and used; then what the page tells an existing deployment to do.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGE = readFileSync(join(ROOT, WALKTHROUGH_PAGE), 'utf8')
const written = new Set(WALKTHROUGH_FILES.map(file => file.path))

/**
 * The page's files, written into a folder at their paths. Their relative imports of files the
 * page shows stay as they are; those of the repository's files name them where they are. The
 * folder lies inside the repository (under .tap/), so the packages resolve as from the source;
 * not the test's own folder, which is the data directory of the apps it builds.
 */
function writeWalkthrough (t: Test): string {
  mkdirSync(join(ROOT, '.tap'), { recursive: true })
  const folder = mkdtempSync(join(ROOT, '.tap', 'walkthrough-'))
  t.teardown(() => rmSync(folder, { recursive: true, force: true }))
  for (const { path, code } of WALKTHROUGH_FILES) {
    const source = code.replace(/from '(\.\.?\/[^']+)'/g, (statement, specifier: string) => {
      const target = posix.join(posix.dirname(path), specifier)
      return written.has(target) ? statement : `from '${pathToFileURL(join(ROOT, target)).href}'`
    })
    mkdirSync(join(folder, dirname(path)), { recursive: true })
    writeFileSync(join(folder, path), source)
  }
  // Served beside routes/, the page's /v1 routes take the hooks of routes/v1, as the fixture of test/collections does.
  const hooks = pathToFileURL(join(ROOT, 'routes/v1/autohooks.ts')).href
  writeFileSync(join(folder, 'routes/v1/autohooks.ts'), `export { default } from '${hooks}'\n`)
  return folder
}

/**
 * The page followed: its files written, its collection read from its schema file, and the
 * migration npm run migrations writes for it, in a copy of the shipped ones.
 */
interface Followed { resources: Resource[], migrations: string, routes: string, written: string[] }

async function followPage (t: Test): Promise<Followed> {
  const folder = writeWalkthrough(t)
  const schemaFile = WALKTHROUGH_FILES.find(file => file.path.startsWith('schemas/'))?.path as string
  const exported = await import(pathToFileURL(join(folder, schemaFile)).href) as Record<string, Resource>
  const resources = [...RESOURCES, ...Object.values(exported)]
  const migrations = mkdtempSync(join(tmpdir(), 'zoo-walkthrough-'))
  t.teardown(() => rmSync(migrations, { recursive: true, force: true }))
  cpSync(join(ROOT, 'migrations'), migrations, { recursive: true })
  const planned = planMigration(resources, migrations)
  if (planned === undefined) throw new Error('npm run migrations found nothing to write for the page\'s collection')
  writeMigration(migrations, planned)
  const written = ['sqlite', 'postgres'].map(engine => `migrations/${engine}/${planned.name}`)
  return { resources, migrations, routes: join(folder, 'routes'), written }
}

t.test('the collection of the page is served from its files and the migration npm run migrations writes for them', async t => {
  t.ok(WALKTHROUGH_FILES.length >= 2, 'the page shows its files, each named in its first line')
  const { resources, migrations, routes, written } = await followPage(t)
  t.same(resources.map(r => r.name), [...RESOURCES.map(r => r.name), 'keepers'], 'its schema file defines one collection')
  t.same(written, WALKTHROUGH_MIGRATIONS, 'npm run migrations writes the files the page names')

  const app = await buildServing(t, { resources, migrations, routes })
  const zoo = await create(app, 'zoos', { name: 'Berlin Zoo', city: 'Berlin' })
  const nested = await call(app, 'POST', `/v1/zoos/${zoo.id}/keepers`, { name: 'Ada', certified: true, started_on: '2024-03-01' })
  t.equal(nested.statusCode, 201, nested.body)
  t.match(nested.json(), { name: 'Ada', zoo_id: zoo.id, certified: true, started_on: '2024-03-01' })
  t.equal((await call(app, 'POST', '/v1/keepers', { name: 'Bo', certified: false })).statusCode, 201)
  const refused = await call(app, 'POST', '/v1/keepers', { name: 'Cy', certified: 'yes' })
  t.equal(refused.statusCode, 422, 'a boolean field takes a boolean')

  const certified = await call(app, 'GET', '/v1/keepers?certified=true')
  t.same(certified.json().map((k: { name: string }) => k.name), ['Ada'])
  t.equal(certified.headers['x-total-count'], '1')
  t.same((await call(app, 'GET', `/v1/zoos/${zoo.id}/keepers`)).json().map((k: { name: string }) => k.name), ['Ada'])
  const deleteZoo = await call(app, 'DELETE', `/v1/zoos/${zoo.id}`)
  t.equal(deleteZoo.statusCode, 409, 'a zoo that keepers name is not deleted')
  const links = (await call(app, 'GET', '/v1')).json().links as { href: string }[]
  t.ok(links.some(link => link.href.endsWith('/v1/keepers')), '/v1 links the collection')
  const document = (await app.inject({ method: 'GET', url: '/documentation/json' })).json()
  t.ok(document.paths['/v1/zoos/{zoo_id}/keepers'], 'the OpenAPI document has the nested route')
})

t.test('an existing deployment: the bootstrap client gets the new scopes with the command of the page', async t => {
  const before = await build(t)
  await before.close()
  const { resources, migrations, routes } = await followPage(t)
  // The same data directory, started again with the new collection.
  const app = checkContract(t, buildApi(testConfig(before.config.dataDir), { collections: { resources, migrations, routes } }))
  t.teardown(() => app.close())

  const ask = async () => tokenRequest(app, { grant_type: 'client_credentials', scope: 'keepers:read' })
  t.equal((await ask()).statusCode, 400, 'the bootstrap client made before the collection lacks its scopes')
  const command = /npm run cli -- (client scope <client_id> --scope "([^"]+)")/.exec(PAGE)
  t.ok(command, 'the page shows the command')
  const scope = command?.[2] as string
  t.same(scope.split(' ').sort(), resources.flatMap(r => [`${r.name}:read`, `${r.name}:write`]).sort(),
    'the command lists every scope of the collections served')
  const run = await cli(app, ['client', 'scope', BOOTSTRAP.id, '--scope', scope])
  t.equal(run.code, 0, run.err)
  const granted = await ask()
  t.equal(granted.statusCode, 200, granted.body)
  t.equal(granted.json().scope, 'keepers:read')
})
