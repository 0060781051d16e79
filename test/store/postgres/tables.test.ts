import t from 'tap'
import { RESOURCES } from '../../../schemas/index.ts'
import { openPool } from '../../../store/postgres/database.ts'
import { tableFacts, wantedFacts } from '../../../store/postgres/schema.ts'
import { openStorage } from '../../../store/open.ts'
import { loadConfig } from '../../../config/index.ts'
import { freshSchema, POSTGRES_PASS } from '../../helper.ts'

t.test('the shipped PostgreSQL migrations make exactly the tables the resources describe', POSTGRES_PASS, async t => {
  const url = freshSchema(t, 'tables')
  await (await openStorage(loadConfig({ DATABASE_URL: url, DATA_DIR: t.testdir() }, []), { resources: RESOURCES })).close()
  const pool = await openPool({ url, poolSize: 1, statementTimeout: 10_000 })
  t.teardown(() => pool.end())
  for (const resource of RESOURCES) t.same((await tableFacts(pool, resource.name)).sort(), wantedFacts(resource).sort(), resource.name)
})
