import { readFileSync, writeFileSync } from 'node:fs'
import { STATUS_CODES } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { flagOf, SETTING_GROUPS, type AnySetting } from '../config/index.ts'
import { ERRORS } from '../schemas/responses.ts'

/**
 * `npm run docs`: the tables of docs/ that the code already states, written from the code so
 * that they cannot drift from it. Each table lives between two markers in its page:
 *
 *     <!-- generated: settings (npm run docs) -->
 *     ...
 *     <!-- end generated -->
 *
 * test/docs/generated.test.ts fails when a page's table differs from what these functions write.
 */

/** Which table goes into which page, by the name its marker carries. */
export const GENERATED = [
  { page: 'docs/configuration.md', name: 'settings', render: renderSettingsTable },
  { page: 'docs/resources.md', name: 'statuses', render: renderStatusTable }
] as const

const END = '<!-- end generated -->'
const begin = (name: string): string => `<!-- generated: ${name} (npm run docs) -->`

/**
 * Markdown of a table cell: `|` escaped everywhere (GitHub splits cells on it even inside code),
 * `<` outside code spans escaped so that `<name>` is shown rather than taken for an HTML tag.
 */
function cell (text: string): string {
  return text
    .split('`')
    .map((part, i) => i % 2 === 1 ? part : part.replaceAll('<', '&lt;'))
    .join('`')
    .replaceAll('|', '\\|')
}

const code = (text: string): string => `\`${text}\``

function table (head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n')
}

/**
 * The flag of a setting (config/settings.ts), or for a list setting its flag given once per value
 * (`--allow DIR`, DIR being the variable's last word in the singular).
 */
function flagCell (setting: AnySetting): string {
  const flag = `--${flagOf(setting)}`
  if (!('flag' in setting)) return code(flag)
  const value = (setting.env.split('_').at(-1) ?? setting.env).replace(/S$/, '')
  return `${code(`${flag} ${value}`)} (repeat it)`
}

/** Every setting of config/settings.ts, one table per group: variable, flag, default and meaning. */
export function renderSettingsTable (): string {
  return SETTING_GROUPS.map(({ title, settings }) => {
    const rows = Object.values(settings).map(setting => [
      code(setting.env),
      flagCell(setting),
      setting.default === '' ? 'not set' : code(setting.default),
      cell(setting.description)
    ])
    return `### ${title}\n\n${table(['variable', 'flag', 'default', 'meaning'], rows)}`
  }).join('\n\n')
}

/** Every error status the API's routes declare, with the meaning and headers their schemas give it. */
export function renderStatusTable (): string {
  const rows = Object.entries(ERRORS)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, { description, headers }]) => [
      `${status} ${STATUS_CODES[status] ?? ''}`.trim(),
      cell(description),
      (headers ?? []).map(code).join(', ')
    ])
  return table(['status', 'when', 'headers'], rows)
}

/** `text` with the table between the markers of `name` replaced by `generated`. */
export function updateGenerated (text: string, name: string, generated: string): string {
  const start = text.indexOf(begin(name))
  if (start === -1) throw new Error(`no "${begin(name)}" marker`)
  const from = start + begin(name).length
  const end = text.indexOf(END, from)
  if (end === -1) throw new Error(`no "${END}" after the "${begin(name)}" marker`)
  return `${text.slice(0, from)}\n${generated}\n${text.slice(end)}`
}

/** The table between the markers of `name` in `text`, as updateGenerated writes it. */
export function readGenerated (text: string, name: string): string {
  const start = text.indexOf(begin(name))
  const end = text.indexOf(END, start)
  if (start === -1 || end === -1) throw new Error(`no "${begin(name)}" ... "${END}" markers`)
  return text.slice(start + begin(name).length, end).trim()
}

/** Rewrites every generated table under `root`; returns the pages that changed. */
export function writeDocs (root: string): string[] {
  const changed: string[] = []
  for (const { page, name, render } of GENERATED) {
    const path = join(root, page)
    const before = readFileSync(path, 'utf8')
    const after = updateGenerated(before, name, render())
    if (after !== before) {
      writeFileSync(path, after)
      changed.push(page)
    }
  }
  return changed
}

/** `npm run docs`: rewrites the generated tables under `root` and says what it did. */
export function run (root: string): string {
  const changed = writeDocs(root)
  return changed.length === 0 ? 'docs: the generated tables are up to date' : `docs: rewrote ${changed.join(', ')}`
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // npm runs scripts in the package's folder.
  process.stdout.write(`${run(process.cwd())}\n`)
}
