import { quote } from './text.ts'

/*
 * SQL assembled as tagged templates: `sql`SELECT ... WHERE id = ${id}`` is a fragment that keeps
 * each value apart from the text around it, and a fragment put in the place of a value becomes
 * part of the one around it. No placeholder is written until a statement is rendered for its
 * engine (`Sql.render`), which numbers them itself in the order they stand in the text: however
 * and in whatever order the parts were made, none can be miscounted.
 */

/** A statement as an engine runs it: its text, and the values of its placeholders in order. */
export interface Statement {
  sql: string
  params: unknown[]
}

/** What `Sql.rendered` made of a fragment, and for which placeholders: a fragment is rendered for one engine. */
const renderings = new WeakMap<object, { placeholder: (n: number) => string, statement: Statement }>()

/** SQL made elsewhere that numbers its own placeholders from the number it is given (`numbered`). */
class Numbered {
  readonly make: (first: number) => Statement

  constructor (make: (first: number) => Statement) {
    this.make = make
  }
}

/** A fragment of SQL: its texts, with a value between each two of them. */
export class Sql {
  /** One more than the values: the text before the first value, between each two, after the last. */
  readonly texts: readonly string[]
  readonly values: readonly unknown[]

  constructor (texts: readonly string[], values: readonly unknown[]) {
    if (texts.length !== values.length + 1) throw new Error('a fragment has one text more than it has values')
    this.texts = texts
    this.values = values
  }

  /**
   * `render`, made once for this fragment and `placeholder` and kept: a fragment never changes, so
   * one rendered for every request that carries it (the token's standing, a select list per token)
   * is rendered once, its text the same string each time, whose hash a lookup by it finds kept.
   */
  rendered (placeholder: (n: number) => string): Statement {
    let kept = renderings.get(this)
    if (kept?.placeholder !== placeholder) renderings.set(this, kept = { placeholder, statement: this.render(placeholder) })
    return kept.statement
  }

  /** The statement, each value's placeholder written by `placeholder(n)`, n counting from 1 in the order of the text. */
  render (placeholder: (n: number) => string): Statement {
    let text = this.texts[0] as string
    const params: unknown[] = []
    for (let i = 0; i < this.values.length; i++) {
      const value = this.values[i]
      if (value instanceof Numbered) {
        const made = value.make(params.length + 1)
        text += made.sql
        params.push(...made.params)
      } else {
        params.push(value)
        text += placeholder(params.length)
      }
      text += this.texts[i + 1] as string
    }
    return { sql: text, params }
  }
}

/** `texts` with `parts` between them: a fragment is taken in, anything else is a value. */
function assembled (texts: readonly string[], parts: readonly unknown[]): Sql {
  const joined = [texts[0] as string]
  const values: unknown[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]
    if (part instanceof Sql) {
      joined[joined.length - 1] += part.texts[0] as string
      for (let j = 0; j < part.values.length; j++) {
        values.push(part.values[j])
        joined.push(part.texts[j + 1] as string)
      }
    } else {
      values.push(part)
      joined.push('')
    }
    joined[joined.length - 1] += texts[i + 1] as string
  }
  return new Sql(joined, values)
}

/** The fragment of a template: each `${}` a value, or a fragment taken in as it is. */
export const sql = (texts: TemplateStringsArray, ...parts: unknown[]): Sql => assembled(texts, parts)

/** Text that holds no value, as it is: a keyword or expression of the code's own, never a value that came with a request. */
export const raw = (text: string): Sql => new Sql([text], [])

/**
 * A count the code has worked out (a LIMIT), written into the text rather than bound: SQLite marks
 * a LIMIT's placeholder as one whose value may change the plan, and better-sqlite3 clears a
 * statement's values after each run, which makes a statement so marked compile again at its next
 * run, every run (a list page, the feed page: 10 µs of 15 in a read of a few rows). Anything but a
 * whole number from 0 up is refused.
 */
export function counted (n: number): Sql {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`a count is a whole number from 0 up, not ${n}`)
  return raw(String(n))
}

/** An identifier, quoted. */
export const identifier = (name: string): Sql => raw(quote(name))

/** The fragments one after the other, `separator` between each two. */
export const join = (fragments: readonly Sql[], separator: string): Sql =>
  fragments.length === 0 ? raw('') : assembled(['', ...fragments.slice(1).map(() => separator), ''], fragments)

/** Each value a placeholder of its own, separated by commas. */
export const list = (values: readonly unknown[]): Sql => join(values.map(value => sql`${value}`), ', ')

/**
 * SQL that another module writes with its own placeholders, given the number of its first (the
 * feed's part of a statement): rendered where it stands, numbered from there. PostgreSQL's are numbered
 * (`$n`); SQLite's (`?`) are counted by their place, which is where they stand.
 */
export const numbered = (make: (first: number) => Statement): Sql => new Sql(['', ''], [new Numbered(make)])
