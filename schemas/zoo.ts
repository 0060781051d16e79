import { Type } from '@sinclair/typebox'
import { DateSchema, Nullable } from '../model/values.ts'
import { COUNTRY_CODES } from './country-codes.ts'
import { defineResource } from '../model/resource.ts'

export const ZooFieldsSchema = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  country: Type.Optional(Nullable(Type.String({
    enum: [...COUNTRY_CODES],
    // Read by the validation messages (http/validation.ts): "country must be <description>".
    description: 'an upper-case ISO 3166-1 alpha-2 code such as DE'
  }))),
  opened_on: Type.Optional(Nullable(DateSchema))
}

export const Zoos = defineResource({ name: 'zoos', singular: 'zoo', fields: ZooFieldsSchema })
