import { Type } from '@sinclair/typebox'
import t from 'tap'
import { Nullable } from '../../schemas/common.ts'
import { defineResource } from '../../collections/resource.ts'

t.test('a resource description the generic code cannot serve is refused when it is defined', async t => {
  const define = (fields: Record<string, ReturnType<typeof Type.String>>) =>
    () => defineResource({ name: 'things', singular: 'thing', fields })
  t.throws(define({ tags: Type.Array(Type.String()) as never }), { message: 'field tags: unsupported schema kind Array' })
  t.throws(
    define({ either: Type.Union([Type.String(), Type.Integer()]) as never }),
    { message: 'field either: only "T | null" unions (and unions of string literals) are supported' }
  )
  t.throws(define({ note: Type.Optional(Type.String()) as never }), { message: 'field note: an optional field must also be nullable' })
})

t.test('the record has every field, optional ones required but nullable', async t => {
  const things = defineResource({
    name: 'things',
    singular: 'thing',
    fields: { name: Type.String(), note: Type.Optional(Nullable(Type.String())) }
  })
  t.same(things.schemas.record.required, ['id', 'name', 'note', 'created_at', 'updated_at'])
  t.same(things.schemas.create.required, ['name'])
  t.same(things.writable, ['name', 'note'])
  t.same(things.columns.map(c => `${c.name}:${c.kind}${c.nullable ? '?' : ''}${c.readOnly ? ' ro' : ''}`),
    ['id:integer ro', 'name:string', 'note:string?', 'created_at:timestamp ro', 'updated_at:timestamp ro'])
})
