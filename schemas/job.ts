import { Type } from '@sinclair/typebox'
import { Nullable, SafeInteger, TimestampSchema } from '../model/values.ts'

export const JobIdSchema = Type.String({
  format: 'uuid',
  description: 'Job identifier, the last segment of the Location of the 202 ' +
    'answer'
})

/** The answer to a write sent with `Prefer: respond-async`: the job is queued. */
export const JobAcceptedSchema = Type.Object({
  id: JobIdSchema,
  status: Type.String({ enum: ['queued'] })
}, { additionalProperties: false, description: 'Queued: follow Location to learn how it went' })

/** A background job as its client sees it. */
export const JobSchema = Type.Object({
  id: JobIdSchema,
  status: Type.String({
    enum: ['queued', 'running', 'succeeded', 'failed'],
    description: 'succeeded when the request was answered with ' +
      'a 2xx, failed otherwise'
  }),
  created_at: TimestampSchema,
  finished_at: Nullable(TimestampSchema),
  result: Nullable(Type.Object({
    status: SafeInteger({ minimum: 100, maximum: 599, description: 'The status the request was answered with' }),
    body: Type.Unknown({ description: 'The JSON body it was answered with: a record, an array, an error; null when it had none' })
  }, { additionalProperties: false, description: 'The answer the request got; null until the job has finished' }))
}, { additionalProperties: false })
