// The collection with access rules that the bench serves beside the shipped ones. bench/service.js
// adds this file, its route file and the migration `npm run migrations` would write to a copy of
// dist/, as docs/adding-a-collection.md adds a collection. A token bound by its `zoo_id` claim sees
// and changes the keepers of that zoo only. Its twin is the same list read with the same filter by
// a token holding `keepers:all`, which no rule binds. No field is hidden, so both answers are the
// same records, byte for byte.
import { Type } from '@sinclair/typebox'
import { defineResource } from '../model/resource.js'
import { IdSchema, Nullable } from '../model/values.js'

export const Keepers = defineResource({
  name: 'keepers',
  singular: 'keeper',
  fields: {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    zoo_id: Type.Optional(Nullable(IdSchema)),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 40 })))
  },
  references: { zoo_id: 'zoos' },
  access: {
    unrestricted: 'keepers:all',
    read: 'zoo_id=@zoo_id',
    write: 'zoo_id=@zoo_id'
  }
})
