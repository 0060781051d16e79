import { Type } from '@sinclair/typebox'
import { DateSchema, IdSchema, Nullable } from '../model/values.ts'
import { defineResource } from '../model/resource.ts'

export const EmployeeFieldsSchema = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  role: Type.String({ minLength: 1, maxLength: 100 }),
  email: Type.String({ format: 'email', maxLength: 254, description: 'Unique among employees, case-insensitive' }),
  zoo_id: Type.Optional(Nullable(IdSchema)),
  hired_on: Type.Optional(Nullable(DateSchema))
}

export const Employees = defineResource({
  name: 'employees',
  singular: 'employee',
  fields: EmployeeFieldsSchema,
  references: { zoo_id: 'zoos' },
  unique: ['email']
})
