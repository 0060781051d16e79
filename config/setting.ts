// What a setting is: an environment variable (and its CLI flag) with a default and a parser.

export interface Setting<T> {
  /** Environment variable; the CLI flag is the same name in lower case with dashes (`--data-dir`). */
  env: string
  description: string
  default: string
  parse: (raw: string, env: string) => T
}

/**
 * A setting that holds several values: the environment variable separates them with the
 * platform's path delimiter (`:`, or `;` on Windows); the CLI flag is repeated, one value each
 * time, so a value may contain the delimiter. Flags given at all replace the variable.
 */
export interface ListSetting<T> {
  env: string
  flag: string
  description: string
  default: string
  parse: (items: string[], source: string) => T
}

export type AnySetting = Setting<unknown> | ListSetting<unknown>

/** A setting's command-line flag: its own (`--allow`), else the variable in lower case with dashes. */
export const flagOf = (setting: AnySetting): string =>
  'flag' in setting ? setting.flag : setting.env.toLowerCase().replaceAll('_', '-')
