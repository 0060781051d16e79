import { Ajv, type Options } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

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

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodies : parameters).compile(schema as object)
