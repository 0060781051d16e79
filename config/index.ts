// The service's configuration: one typed, validated object made of environment variables and
// command-line flags. settings.ts is the catalogue, its groups in server-, data-, access- and
// operations-settings.ts, setting.ts what one setting is; parsers.ts reads one value; load.ts reads
// them all and checks those that go together; usage.ts is `--help`; private-directory.ts checks the
// directories that must be this user's alone at every start, and keeps the files in them so.
export { ConfigError, redacted, type AllowedDirectory } from './parsers.ts'
export { SETTING_GROUPS, SETTINGS, unpackDirOf, type Config } from './settings.ts'
export { flagOf, type AnySetting } from './setting.ts'
export { loadConfig } from './load.ts'
export { privateDirectory, privateFiles } from './private-directory.ts'
export { usage } from './usage.ts'
