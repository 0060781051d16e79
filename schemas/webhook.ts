import { Type } from '@sinclair/typebox'
import { Nullable, SafeInteger, TimestampSchema } from '../model/values.ts'

/** The events a subscription may ask for, all by default. */
export const EVENTS = ['created', 'updated', 'deleted'] as const

const oneOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], description }))

/** A subscription's settings as its owner writes them, for the collections served (`names`). */
export function webhookSettings (names: readonly string[]) {
  return {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Where each change is POSTed: an https URL whose host resolves only to public addresses ' +
        '(WEBHOOK_ALLOW_HOSTS may allow others, and plain http to them)'
    }),
    collections: Type.Array(oneOf(names, 'A collection whose changes are delivered'), {
      minItems: 1, maxItems: names.length, uniqueItems: true
    }),
    events: Type.Array(oneOf(EVENTS, 'A kind of change'), {
      minItems: 1, maxItems: EVENTS.length, uniqueItems: true, description: 'Every kind when not given'
    }),
    filter: Type.String({
      maxLength: 2000,
      description: 'Filters in the list grammar (`country=DE&opened_on_gte=2000-01-01`), tested on the record as the change ' +
        'left it (as it was, for a delete); every field named must be a field of each collection. Empty: every change'
    }),
    enabled: Type.Boolean({ description: 'false: no change is delivered until it is true again (a 410 Gone from the receiver sets it)' })
  }
}

/** A subscription as its owner reads it: never its secret. */
export function webhookSchema (names: readonly string[]) {
  const { url, collections, events, filter, enabled } = webhookSettings(names)
  return Type.Object({
    id: SafeInteger({ minimum: 1 }),
    url,
    collections,
    events,
    filter,
    enabled,
    created_at: TimestampSchema,
    updated_at: TimestampSchema
  }, { additionalProperties: false })
}

export const SecretSchema = Type.String({
  pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
  description: 'The signing secret (Standard Webhooks): shown once, when made'
})

export const DeliverySchema = Type.Object({
  id: SafeInteger({ minimum: 1 }),
  change: Type.String({ pattern: '^[0-9]+$', description: 'The change\'s position in the feed: the delivery\'s webhook-id header' }),
  collection: Type.String(),
  record_id: SafeInteger({ minimum: 1 }),
  event: oneOf(EVENTS, 'The kind of change'),
  at: TimestampSchema,
  status: oneOf(['pending', 'succeeded', 'failed', 'skipped'], 'pending: to be sent (again); skipped: outside what the ' +
    'subscription\'s account could read when it was sent'),
  attempts: SafeInteger({ minimum: 0 }),
  last_status: Nullable(SafeInteger({ minimum: 100, maximum: 599, description: 'The receiver\'s status code at the last attempt' })),
  last_error: Nullable(Type.String({ description: 'Why the last attempt failed' })),
  next_attempt_at: Nullable(TimestampSchema)
}, { additionalProperties: false })
