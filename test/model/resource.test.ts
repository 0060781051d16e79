import { Type } from '@sinclair/typebox'
import t from 'tap'
import { Nullable } from '../../model/values.ts'
import { defineResource, resourcesOf } from '../../model/resource.ts'

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

t.test('the resources of a folder of schema files: each once, those referenced first, then by name', async t => {
  const define = (name: string, references: Record<string, string> = {}) => defineResource({
    name,
    singular: name.slice(0, -1),
    fields: Object.fromEntries(Object.keys(references).map(field => [field, Type.Integer()])),
    references
  })
  const sites = define('sites')
  const badges = define('badges', { site_id: 'sites', guard_id: 'guards' })
  const guards = define('guards', { site_id: 'sites' })
  const modules = [{ badges, NOT_A_RESOURCE: { name: 'x' }, LIMIT: 3 }, { guards, sites }, { sites }]
  t.same(resourcesOf(modules).map(r => r.name), ['sites', 'guards', 'badges'])
  t.same(resourcesOf([{ a: define('zebras') }, { b: define('apes') }]).map(r => r.name), ['apes', 'zebras'])
  t.same(resourcesOf([{ text: Type.String() }]), [], 'a file of other schemas adds none')
  t.throws(() => resourcesOf([{ sites }, { again: define('sites') }]), { message: 'two resources are named sites' })
  t.throws(() => resourcesOf([{ guards }]), { message: 'guards.site_id references sites, which is no collection' })
  const loop = [define('eggs', { hen_id: 'hens' }), define('hens', { egg_id: 'eggs' })]
  t.throws(() => resourcesOf([loop]), { message: 'the references of eggs -> hens -> eggs go round' })
})
