import t from 'tap'
import { listeningLocal, makeTree, runTool } from './helper.ts'

/*
 * The MCP face as a user meets it in the MCP Inspector (@modelcontextprotocol/inspector, pinned),
 * in its command-line mode, against /mcp on a real socket: it lists the tools, lists an allowed
 * directory, and is refused one spelled in another letter case, exiting with its tool-error status.
 */

/** The Inspector's exit status for a tool result with isError. */
const TOOL_ERROR = 5

t.test('the MCP Inspector lists the tools, lists a directory, and is refused another letter case', async t => {
  const root = makeTree(t, { Allowed: { 'a.txt': 'a', sub: {} } })
  const { port } = await listeningLocal(t, { ALLOWED_DIRS: `${root}/Allowed` })
  const url = `http://127.0.0.1:${port}/mcp`
  const inspector = async (...args: string[]) => runTool('mcp-inspector', ['--cli', url, '--format', 'json', ...args], t.testdir())

  for (const era of ['legacy', 'modern']) {
    const listed = await inspector('--protocol-era', era, '--method', 'tools/list')
    t.equal(listed.code, 0, `${era}: ${listed.stderr}`)
    const tools = (JSON.parse(listed.stdout) as { result: { tools: { name: string }[] } }).result.tools
    t.same(tools.map(tool => tool.name).sort(), ['list_allowed_directories', 'list_directory'], `${era}: the tools`)

    const call = (path: string) =>
      inspector('--protocol-era', era, '--method', 'tools/call', '--tool-name', 'list_directory', '--tool-arg', `path=${path}`)
    const allowed = await call(`${root}/Allowed`)
    t.equal(allowed.code, 0, `${era}: ${allowed.stderr}`)
    const page = (JSON.parse(allowed.stdout) as { result: { structuredContent: { entries: { name: string, type: string }[] } } }).result
    t.same(page.structuredContent.entries.map(e => [e.name, e.type]), [['a.txt', 'file'], ['sub', 'directory']], `${era}: the entries`)

    const otherCase = await call(`${root}/allowed`)
    t.equal(otherCase.code, TOOL_ERROR, `${era}: the tool-error status`)
    t.match(otherCase.stdout, /Access denied - the path is outside the allowed directories/, `${era}: the access-denied message`)
  }
})
