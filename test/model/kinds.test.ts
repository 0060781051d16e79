import { Type, type TSchema } from '@sinclair/typebox'
import t from 'tap'
import { validatorCompiler } from '../../http/validation.ts'
import { KINDS, type KindName } from '../../model/kinds.ts'
import { DateSchema, TimestampSchema } from '../../model/values.ts'

// Each kind's samples are what the collection tests make records of: they must be valid under the
// schema they are made for, and differ from one n to the next, so that a unique field takes them.

const SCHEMAS: Record<Exclude<KindName, 'reference'>, TSchema[]> = {
  integer: [Type.Integer(), Type.Integer({ minimum: 10, maximum: 12 })],
  number: [Type.Number(), Type.Number({ minimum: -1 })],
  boolean: [Type.Boolean()],
  date: [DateSchema],
  timestamp: [TimestampSchema],
  enum: [Type.Union([Type.Literal('a'), Type.Literal('b'), Type.Literal('c')])],
  string: [
    Type.String(), Type.String({ minLength: 30, maxLength: 40 }), Type.String({ maxLength: 3 }),
    Type.String({ format: 'email' }), Type.String({ enum: ['x', 'y'] })
  ]
}

for (const [kind, schemas] of Object.entries(SCHEMAS) as [Exclude<KindName, 'reference'>, TSchema[]][]) {
  t.test(`${kind}: its samples are valid, its declared kind, and differ while the schema allows`, async t => {
    for (const schema of schemas) {
      t.ok(KINDS[kind].declared(schema), `${JSON.stringify(schema)} is declared ${kind}`)
      const validate = validatorCompiler({ schema, method: 'POST', url: '', httpPart: 'body' })
      const samples = [0, 1, 2, 3].map(n => KINDS[kind].sample(schema, n, 'name'))
      for (const sample of samples) t.equal(validate(sample), true, `${JSON.stringify(sample)} fits ${JSON.stringify(schema)}`)
      const room = schema.maximum !== undefined || schema.maxLength === 3 ? 2 : kind === 'boolean' ? 2 : schema.enum !== undefined ? 2 : 3
      t.ok(new Set(samples.map(String)).size >= room, `${kind} samples differ: ${samples.join(', ')}`)
    }
  })
}
