import t from 'tap'
import { buildLocal } from './helper.ts'

t.test('GET / says what the local tool server is and where its OpenAPI document and its MCP endpoint are', async t => {
  const app = await buildLocal(t, { LOCAL_API_KEY: 'a-key-of-sixteen-chars' })
  const res = await app.inject({ method: 'GET', url: '/', headers: { host: 'localhost:8000' } })
  t.equal(res.statusCode, 200, 'no API key needed: it reveals nothing')
  t.match(res.json(), {
    name: /local tool server/,
    openapi: '/openapi.json',
    mcp: '/mcp',
    operations: [{ method: 'POST', path: '/list_allowed_directories' }, { method: 'POST', path: '/list_directory' }]
  })
  const foreign = await app.inject({ method: 'GET', url: '/', headers: { host: 'evil.example' } })
  t.equal(foreign.statusCode, 403, 'still behind the loopback guard')
  const post = await app.inject({ method: 'POST', url: '/', headers: { host: 'localhost' } })
  t.equal(post.statusCode, 405)
})
