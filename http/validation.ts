import { Ajv, type Options, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify'
import type { FieldError } from '../model/values.ts'

const common: Options = {
  // The contract refuses unknown members and parameters: nothing is silently dropped.
  removeAdditional: false,
  // Every error at once, so a 422 lists every bad field. Bodies are size-limited and arrays capped.
  allErrors: true,
  useDefaults: true,
  strict: false
}

function ajv (options: Options): Ajv {
  const instance = new Ajv({ ...common, ...options })
  addFormats.default(instance)
  return instance
}

// JSON bodies are typed already and are taken as sent: "5" is not an integer. Query strings and
// path parameters are text, so their values are converted to the declared type.
// verbose: errors carry the schema, whose description says what a field or parameter accepts.
const bodies = ajv({ coerceTypes: false, verbose: true })
const parameters = ajv({ coerceTypes: true, verbose: true })

/**
 * Compiled validators by the text of their schema, for each of the two instances above. A
 * validator is a function of its schema and its instance's options alone (no schema validated
 * here names another by `$ref`: these instances hold none to resolve), so the same text always
 * compiles to the same validator, which every route and every instance of the process can share,
 * as the serializers are shared (http/serialization.ts). Ajv's own cache is keyed by the schema
 * object, and every instance of the API makes its route schemas anew: a process that builds many
 * (the test suite) compiled each again, a third of the cost of building one. The routes are
 * finite, and so are these maps.
 */
function sharedBy (instance: Ajv): (schema: object) => ValidateFunction {
  const compiled = new Map<string, ValidateFunction>()
  return schema => {
    const key = JSON.stringify(schema)
    let validator = compiled.get(key)
    if (validator === undefined) compiled.set(key, validator = instance.compile(schema))
    return validator
  }
}
const compileBody = sharedBy(bodies)
const compileParameters = sharedBy(parameters)

/**
 * A headers schema with its names lowercased, as Node.js gives a request's header names. Fastify
 * does that only for its own compiler: with this one, `Idempotency-Key` would name no header.
 */
function lowerCased (schema: { properties?: Record<string, unknown>, required?: string[] }): object {
  return {
    ...schema,
    ...(schema.properties === undefined
      ? {}
      : { properties: Object.fromEntries(Object.entries(schema.properties).map(([name, value]) => [name.toLowerCase(), value])) }),
    ...(schema.required === undefined ? {} : { required: schema.required.map(name => name.toLowerCase()) })
  }
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => httpPart === 'body'
  ? compileBody(schema as object)
  : compileParameters(httpPart === 'headers' ? lowerCased(schema as object) : schema as object)

/** An error of the compilers above: `verbose` adds the schema that failed. */
type AjvError = FastifySchemaValidationError & { parentSchema?: { description?: string } }

/** How each format is written, for a message that says what to send. */
const FORMATS: Record<string, string> = {
  date: 'a date written YYYY-MM-DD',
  'date-time': 'an RFC 3339 timestamp such as 2024-05-01T12:00:00Z',
  email: 'an email address',
  uri: 'an absolute URI'
}

const TYPES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null'
}

/** Ajv's `type` param: one type or a comma-separated list of them. */
const typesOf = (e: AjvError): string[] => String(e.params.type).split(',')

function lengthRule (keyword: string, limit: number): string {
  const unit = keyword.endsWith('Items') ? 'item' : 'character'
  if (keyword.startsWith('min')) return limit === 1 ? 'must not be empty' : `must have at least ${limit} ${unit}s`
  return `must have at most ${limit} ${unit}${limit === 1 ? '' : 's'}`
}

/** `/0/name` -> `0.name` */
const dotted = (instancePath: string): string => instancePath.split('/').slice(1).join('.')
const join = (path: string, member: string): string => path === '' ? member : `${path}.${member}`

/** What the members of each part of a request are called in a message; a body's are its fields. */
const NOUNS: Record<string, string> = { querystring: 'query parameter', headers: 'header' }

function toFieldError (e: AjvError, noun: string | undefined): FieldError {
  const path = dotted(e.instancePath)
  const { params } = e
  // Said by the schema of the value, or of the object for a member it does not know.
  const hint = e.parentSchema?.description
  const named = (field: string): string => noun === undefined ? field : `${noun} ${field}`
  const subject = path === '' ? 'value' : named(path)
  switch (e.keyword) {
    case 'required': {
      const field = join(path, String(params.missingProperty))
      return { field, code: 'required', message: `${named(field)} is required` }
    }
    case 'additionalProperties': {
      const field = join(path, String(params.additionalProperty))
      const unknown = noun === undefined ? `${field} is not a known field` : `unknown ${named(field)}`
      return { field, code: 'unknown', message: hint === undefined ? unknown : `${unknown}; ${hint}` }
    }
    case 'type': {
      const types = typesOf(e)
      const message = path === '' && noun === undefined
        ? `Request body must be a JSON ${types.join(' or ')}`
        : `${subject} must be ${types.map(type => TYPES[type] ?? type).join(' or ')}`
      return { field: path, code: 'type', message }
    }
    case 'format': {
      const format = String(params.format)
      return { field: path, code: 'format', message: `${subject} must be ${FORMATS[format] ?? `a valid ${format}`}` }
    }
    case 'minLength': case 'maxLength': case 'minItems': case 'maxItems':
      return { field: path, code: 'length', message: `${subject} ${lengthRule(e.keyword, Number(params.limit))}` }
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
      return { field: path, code: 'range', message: `${subject} ${e.message ?? 'is out of range'}` }
    case 'enum': case 'const': {
      // A field with many allowed values says in its description what they are.
      const values = (e.keyword === 'enum' ? params.allowedValues as unknown[] : [params.allowedValue]).map(v => JSON.stringify(v))
      return { field: path, code: 'enum', message: `${subject} must be ${hint ?? `one of ${values.join(', ')}`}` }
    }
    case 'pattern':
      return { field: path, code: 'pattern', message: `${subject}: ${hint ?? e.message ?? 'bad value'}` }
    default: return { field: path, code: e.keyword, message: `${subject} ${e.message ?? 'is invalid'}` }
  }
}

/**
 * Ajv reports every branch of an `anyOf` (a nullable field, or a POST body that is an object or
 * an array). Of a union, keep the errors of the branches whose type the value has; when it has
 * none of their types, one error names them all ("must be an integer or null").
 */
function simplify (errors: AjvError[]): AjvError[] {
  const unions = errors.filter(e => e.keyword === 'anyOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length)
  let rest = errors.filter(e => e.keyword !== 'anyOf')
  for (const union of unions) {
    const inBranch = (e: AjvError): boolean => e.schemaPath.startsWith(`${union.schemaPath}/`)
    const branchOf = (e: AjvError): string => e.schemaPath.slice(union.schemaPath.length + 1).split('/')[0] ?? ''
    const branch = rest.filter(inBranch)
    // Empty when the union sits inside a branch an outer union already set aside.
    if (branch.length === 0) continue
    rest = rest.filter(e => !inBranch(e))
    const wrongType = branch.filter(e => e.keyword === 'type' && e.instancePath === union.instancePath)
    const mismatched = new Set(wrongType.map(branchOf))
    const matched = branch.filter(e => !mismatched.has(branchOf(e)))
    if (matched.length > 0) rest.push(...matched)
    else rest.push({ ...union, keyword: 'type', params: { type: wrongType.flatMap(typesOf).join(',') } })
  }
  return rest
}

/**
 * The one wording of validation errors, for the API (its `errors` list) and the local tool server
 * (one message joining them): each says what to send instead. A rule its type does not tell (a
 * code list, a pattern) comes from the description of the schema that failed.
 * `part` is the part of the request that failed: body, querystring, params or headers.
 */
export function fieldErrors (errors: FastifySchemaValidationError[], part: string | undefined): FieldError[] {
  const noun = part === undefined ? undefined : NOUNS[part]
  return simplify(withoutFormatsOfWrongTypes(errors)).map(e => toFieldError(e, noun))
}

/**
 * A value of the wrong type has no format to be judged by: 1.5 is not an integer, let alone an
 * int64. The type and the format of one schema (one branch of a union) only.
 */
function withoutFormatsOfWrongTypes (errors: AjvError[]): AjvError[] {
  const schemaOf = (e: AjvError): string => `${e.instancePath} ${e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/'))}`
  const wrongType = new Set(errors.filter(e => e.keyword === 'type').map(schemaOf))
  return errors.filter(e => e.keyword !== 'format' || !wrongType.has(schemaOf(e)))
}
