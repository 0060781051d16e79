import { Type } from '@sinclair/typebox'
import t from 'tap'
import { bindAccess } from '../../model/access.ts'
import { defineResource, type ResourceSpec } from '../../model/resource.ts'
import { DateSchema, IdSchema, Nullable } from '../../model/values.ts'

// A collection's access rules are read when its schema file loads: what is wrong in them stops
// the start with one line naming it; bound to a token's claims, they are filters, and a claim the
// token lacks, or that fits no value of the field, never widens what they match.

const FIELDS = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  zoo_id: Type.Optional(Nullable(IdSchema)),
  born_on: Type.Optional(Nullable(DateSchema)),
  rank: Type.Integer({ minimum: 0 }),
  secret: Type.Optional(Nullable(Type.String())),
  kept: Type.String()
}

const define = (access: ResourceSpec['access']) => defineResource({ name: 'items', singular: 'item', fields: FIELDS, access })

t.test('rules that cannot hold are refused when the schema file loads, naming what is wrong', async t => {
  const refused: [ResourceSpec['access'], RegExp][] = [
    [{ read: 'colour=red' }, /"colour=red" is not a filter/],
    [{ read: 'name_gt' }, /"name_gt" is not a filter/],
    [{ read: '' }, /an access rule is empty/],
    [{ read: 'rank=many' }, /rank: "many" is not a value of the field/],
    [{ read: 'born_on_gt=yesterday' }, /born_on/],
    [{ hidden: ['kept'] }, /the hidden field kept must be optional and nullable/],
    [{ hidden: ['id'] }, /hidden names id, which is no writable field/],
    [{ set: { created_at: '@sub' } }, /set names created_at, which is no writable field/],
    [{ set: { name: 'fixed' } }, /"fixed" is not a claim @name/],
    [{ set: { secret: '@sub' }, hidden: ['secret'] }, /cannot be both set and hidden/],
    [{ read: 'secret=x', hidden: ['secret'] }, /compares the hidden field secret/]
  ]
  for (const [access, message] of refused) t.throws(() => define(access), message, JSON.stringify(access))
  t.ok(define({ read: ['zoo_id=@zoo_id&rank_gte=2', 'name=null'], write: 'zoo_id_in=@zoos' }).access, 'well-formed rules load')
  t.equal(defineResource({ name: 'free', singular: 'free', fields: FIELDS }).access, undefined, 'no access: no rules')
})

t.test('bound to claims, rules are filters; a missing or ill-fitting claim matches nothing; the unrestricted scope frees', async t => {
  const { access } = define({
    unrestricted: 'items:all',
    read: ['zoo_id=@zoo_id&rank_gte=2', 'zoo_id_in=@zoos'],
    write: 'zoo_id=@zoo_id',
    set: { name: '@nick', rank: '@level' },
    hidden: ['secret']
  })
  const none = new Set<string>()
  t.equal(bindAccess(access, new Set(['items:all']), {}), undefined, 'the unrestricted scope')
  const bound = bindAccess(access, none, { zoo_id: 3, zoos: [1, '2'], nick: 'ann', level: '7' })
  t.same(bound?.read, [{
    field: '',
    op: 'any',
    value: [
      [{ field: 'zoo_id', op: 'eq', value: 3 }, { field: 'rank', op: 'gte', value: 2 }],
      [{ field: 'zoo_id', op: 'in', value: [1, 2] }]
    ]
  }], 'any of the rules; an id sent as text fits an integer field')
  t.same(bound?.write, [...bound?.read ?? [], { field: 'zoo_id', op: 'eq', value: 3 }],
    'what it writes it must see: the read rules, then the write rule, one rule its filters themselves')
  t.same([...(bound?.set ?? [])], [['name', 'ann'], ['rank', 7]])
  t.same([...(bound?.hidden ?? [])], ['secret'])

  const lacking = bindAccess(access, none, { zoos: [] })
  t.same(lacking?.read, [{ field: '', op: 'any', value: [] }], 'no claim, an empty list: no rule matches')
  t.same([...(lacking?.set ?? [])], [['name', undefined], ['rank', undefined]])
  const misfit = bindAccess(access, none, { zoo_id: 'three', zoos: [1, 'x'], level: 1.5 })
  t.same(misfit?.read, [{ field: '', op: 'any', value: [] }], 'values that fit no id match nothing')
  t.same(misfit?.set.get('rank'), undefined)
  t.same(bindAccess(access, none, { zoo_id: [3] })?.write.at(-1), { field: '', op: 'any', value: [] }, 'an array for =')
  t.same(bindAccess(define({ hidden: ['secret'] }).access, none, {})?.read, [], 'no read rule: every record')
})
