import { Type } from '@sinclair/typebox'
import { DateSchema, IdSchema, Nullable } from '../model/values.ts'
import { defineResource } from '../model/resource.ts'

export const AnimalFieldsSchema = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  species: Type.String({ minLength: 1, maxLength: 200 }),
  // Past 2^53 - 1 an integer is no longer exact in JSON, and SQLite's INTEGER and PostgreSQL's bigint refuse it.
  animal_type_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  zoo_id: Type.Optional(Nullable(IdSchema)),
  born_on: Type.Optional(Nullable(DateSchema))
}

export const Animals = defineResource({
  name: 'animals',
  singular: 'animal',
  fields: AnimalFieldsSchema,
  references: { zoo_id: 'zoos' }
})
