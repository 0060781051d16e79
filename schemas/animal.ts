import { Type } from '@sinclair/typebox'
import { DateSchema, IdSchema, Nullable, SafeInteger } from '../model/values.ts'
import { defineResource } from '../model/resource.ts'

export const AnimalFieldsSchema = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  species: Type.String({ minLength: 1, maxLength: 200 }),
  animal_type_id: SafeInteger({ minimum: 1 }),
  zoo_id: Type.Optional(Nullable(IdSchema)),
  born_on: Type.Optional(Nullable(DateSchema))
}

export const Animals = defineResource({
  name: 'animals',
  singular: 'animal',
  fields: AnimalFieldsSchema,
  references: { zoo_id: 'zoos' },
  // A species' animals by birth date: their list (species=, sortby=born_on) and their aggregate (group_by=species, min=born_on).
  indexes: [['species', 'born_on']]
})
