import { Type } from '@sinclair/typebox'

/** What /ready checks, each `ok` or what is wrong with it. */
export const ReadinessChecksSchema = Type.Object({
  database: Type.String({ description: '`ok` when the database answers a query' }),
  migrations: Type.String({ description: '`ok` when every migration this version ships is applied' }),
  jobs: Type.String({ description: '`ok` when the background-job worker is running' })
}, { additionalProperties: false })

export const HealthSchema = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false })

export const ReadySchema = Type.Object({
  status: Type.Literal('ready'),
  checks: ReadinessChecksSchema
}, { additionalProperties: false })

export const NotReadySchema = Type.Object({
  error: Type.String({ description: 'What is not ready' }),
  checks: Type.Optional({ ...ReadinessChecksSchema, description: 'Absent when the server is overloaded: then no check runs' })
}, { additionalProperties: false })
