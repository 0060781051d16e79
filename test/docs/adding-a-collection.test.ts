import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, posix, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import t, { type Test } from 'tap'
import type { Resource } from '../../model/resource.ts'
import { RESOURCES } from '../../schemas/index.ts'
import { planMigration, writeMigration } from '../../store/migration-plan.ts'
import { buildApi } from '../../app.ts'
import { checkContract } from '../contract.ts'
import { buildServing, call, cli, create, routeTree, testConfig, tokenRequest, BOOTSTRAP, ROUTES } from '../helper.ts'
import { WALKTHROUGH_FILES, WALKTHROUGH_MIGRATIONS, WALKTHROUGH_PAGE } from './walkthrough.ts'

/*
 * docs/adding-a-collection.md, followed as a user would: its schema file and route files taken
 * from the page as they are written there, the migration npm run migrations writes for them, the
 * collection served and used; then what the page tells an existing deployment to do. The page
 * is followed from the repository as it was before (a repository that already has its
 * collection, because a user followed it, keeps these tests passing).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGE = readFileSync(join(ROOT, WALKTHROUGH_PAGE), 'utf8')
const written = new Set(WALKTHROUGH_FILES.map(file => file.path))

/** A repository's collections: the resources, and the migrations and the URL tree that serve them. */
interface Repository { resources: Resource[], migrations: string, routes: string }

const SHIPPED: Repository = { resources: RESOURCES, migrations: join(ROOT, 'migrations'), routes: ROUTES }

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
  return folder
}

/** A copy of the migrations of `from`, but for the files `leaveOut` names (repository paths), in a folder of the test's. */
function migrationsCopy (t: Test, from: string, leaveOut: string[] = []): string {
  const folder = mkdtempSync(join(tmpdir(), 'zoo-walkthrough-'))
  t.teardown(() => rmSync(folder, { recursive: true, force: true }))
  const left = new Set(leaveOut.map(path => path.slice('migrations/'.length)))
  cpSync(from, folder, { recursive: true, filter: source => !left.has(relative(from, source)) })
  return folder
}

/**
 * The page followed in `repository`: its files written, its collection read from its schema
 * file, and the migration npm run migrations writes for it. `before` is the repository as it was
 * before the page was followed: when the repository already has the page's collection (a user
 * followed the page), it is left out there, with the migrations and route files the page names.
 */
interface Followed { before: Repository, after: Repository, written: string[] }

async function followPage (t: Test, repository: Repository): Promise<Followed> {
  const folder = writeWalkthrough(t)
  const schemaFile = WALKTHROUGH_FILES.find(file => file.path.startsWith('schemas/'))?.path as string
  const exported = await import(pathToFileURL(join(folder, schemaFile)).href) as Record<string, Resource>
  const added = Object.values(exported)
  const pageRoutes = WALKTHROUGH_FILES.filter(file => file.path.startsWith('routes/')).map(file => file.path.slice('routes/'.length))

  const before: Repository = {
    resources: repository.resources.filter(resource => !added.some(page => page.name === resource.name)),
    migrations: migrationsCopy(t, repository.migrations, WALKTHROUGH_MIGRATIONS),
    routes: routeTree(t, {}, pageRoutes, repository.routes)
  }
  const resources = [...before.resources, ...added]
  const migrations = migrationsCopy(t, before.migrations)
  const planned = planMigration(resources, migrations)
  if (planned === undefined) throw new Error('npm run migrations found nothing to write for the page\'s collection')
  writeMigration(migrations, planned)
  const routes = routeTree(t, Object.fromEntries(pageRoutes.map(path => [path, join(folder, 'routes', path)])), [], before.routes)
  return {
    before,
    after: { resources, migrations, routes },
    written: ['sqlite', 'postgres'].map(engine => `migrations/${engine}/${planned.name}`)
  }
}

t.test('the collection of the page is served from its files and the migration npm run migrations writes for them', async t => {
  t.ok(WALKTHROUGH_FILES.length >= 2, 'the page shows its files, each named in its first line')
  const { after, written } = await followPage(t, SHIPPED)
  t.same(after.resources.map(r => r.name), [...RESOURCES.filter(r => r.name !== 'keepers').map(r => r.name), 'keepers'],
    'its schema file defines one collection')
  t.same(written, WALKTHROUGH_MIGRATIONS, 'npm run migrations writes the files the page names')

  const app = await buildServing(t, after)
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

t.test('followed in the repository it left, the page makes the same collection and the same migration', async t => {
  const first = await followPage(t, SHIPPED)
  const again = await followPage(t, first.after)
  t.same(again.before.resources.map(r => r.name), first.before.resources.map(r => r.name), 'the page\'s collection left out before')
  t.same(again.after.resources.map(r => r.name), first.after.resources.map(r => r.name))
  t.same(again.written, first.written)
  const app = await buildServing(t, again.after)
  t.equal((await call(app, 'POST', '/v1/keepers', { name: 'Ada', certified: true })).statusCode, 201)
})

t.test('an existing deployment: the bootstrap client gets the new scopes with the command of the page', async t => {
  const { before, after } = await followPage(t, SHIPPED)
  const earlier = await buildServing(t, before)
  await earlier.close()
  // The same data directory, started again with the new collection.
  const app = checkContract(t, buildApi(testConfig(earlier.config.dataDir), { collections: after }))
  t.teardown(() => app.close())

  const ask = async () => tokenRequest(app, { grant_type: 'client_credentials', scope: 'keepers:read' })
  t.equal((await ask()).statusCode, 400, 'the bootstrap client made before the collection lacks its scopes')
  const command = /npm run cli -- (client scope <client_id> --scope "([^"]+)")/.exec(PAGE)
  t.ok(command, 'the page shows the command')
  const scope = command?.[2] as string
  t.same(scope.split(' ').sort(), after.resources.flatMap(r => [`${r.name}:read`, `${r.name}:write`]).sort(),
    'the command lists every scope of the collections served')
  const run = await cli(app, ['client', 'scope', BOOTSTRAP.id, '--scope', scope])
  t.equal(run.code, 0, run.err)
  const granted = await ask()
  t.equal(granted.statusCode, 200, granted.body)
  t.equal(granted.json().scope, 'keepers:read')
})
