import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/*
 * docs/adding-a-collection.md walks through adding a collection: the files it shows are to be
 * written, not in the repository. test/docs/adding-a-collection.test.ts writes and serves them;
 * test/docs/links.test.ts lets the page name them.
 */

export const WALKTHROUGH_PAGE = 'docs/adding-a-collection.md'
const text = readFileSync(fileURLToPath(new URL(`../../${WALKTHROUGH_PAGE}`, import.meta.url)), 'utf8')

/** The TypeScript files the page shows, each a fenced block whose first line is a comment naming its path. */
export const WALKTHROUGH_FILES = [...text.matchAll(/^```ts\n\/\/ ([\w/.-]+\.ts)\b[^\n]*\n([\s\S]*?)^```$/gm)]
  .map(([, path, code]) => ({ path: path as string, code: code as string }))

/** The migration files the page says `npm run migrations` writes. */
export const WALKTHROUGH_MIGRATIONS = [...new Set([...text.matchAll(/`(migrations\/(?:sqlite|postgres)\/\d+_\w+\.sql)`/g)]
  .map(match => match[1] as string))]

export const WALKTHROUGH_PATHS = new Set([...WALKTHROUGH_FILES.map(file => file.path), ...WALKTHROUGH_MIGRATIONS])
