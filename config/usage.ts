// `--help`: how to run the program and every setting, group by group.
import { flagOf } from './setting.ts'
import { SETTING_GROUPS } from './settings.ts'

/** `text` in lines of at most `width` characters after `indent`, broken between words. */
function wrap (text: string, width: number, indent: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(indent + line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  return [...lines, indent + line]
}

/** `--help`: how to run the program, and every setting with its variable, flag and default. */
export function usage (): string {
  const lines = SETTING_GROUPS.flatMap(({ title, settings }) => ['', `${title}:`, ...Object.values(settings).flatMap(setting => {
    const flag = 'flag' in setting ? `--${setting.flag} DIR (repeatable)` : `--${flagOf(setting)}`
    const fallback = setting.default === '' ? 'not set' : setting.default
    // Descriptions are written for the Markdown table of docs/configuration.md: backquotes go.
    return [`  ${setting.env}, ${flag}  (default: ${fallback})`, ...wrap(setting.description.replaceAll('`', ''), 94, '      ')]
  })])
  return [
    'usage: zoo-api [--setting value ...]   serve the API (HTTPS) and the local tool server',
    '       zoo-api client|user|key ...     manage the clients, users and signing keys of the authorization server (zoo-api client --help)',
    '       zoo-api backup --to FILE        copy the SQLite database, even while the service runs (zoo-api backup --help)',
    '       zoo-api restore --from FILE     make a backup the database of DATA_DIR, where no service runs',
    '       zoo-api --help | --version',
    '',
    'Every setting is an environment variable or the flag after it; a flag wins.',
    ...lines,
    ''
  ].join('\n')
}
