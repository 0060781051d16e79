import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify'
import { accountClaims, keptClaims } from '../auth/claims.ts'
import type { Principal } from '../auth/principal.ts'
import { HttpError } from '../http/errors.ts'
import { versionRoot } from '../http/links.ts'
import { allowOnly } from '../http/method-not-allowed.ts'
import { fieldErrors, validatorCompiler } from '../http/validation.ts'
import type { FieldError } from '../model/values.ts'
import { SafeInteger } from '../model/values.ts'
import { BEARER, errors, GUARDED, withHeaders } from '../schemas/responses.ts'
import { DeliverySchema, EVENTS, SecretSchema, webhookSchema, webhookSettings } from '../schemas/webhook.ts'
import type { Owner } from '../store/contract.ts'
import { invalid } from '../store/refusals.ts'
import { shownWebhook, type DeliveryStatus, type WebhookSettings } from '../store/webhooks.ts'
import { filtersOf } from './deliverer.ts'
import { newSecret } from './signing.ts'

/** How long the secret before a rotation still signs. */
const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000

const Id = SafeInteger({ minimum: 1, description: 'The subscription\'s id' })
const Paging = {
  limit: SafeInteger({ minimum: 1, maximum: 100, default: 20, description: 'How many at most' }),
  offset: SafeInteger({ minimum: 0, default: 0, description: 'How many to skip' })
}

const ownerOf = (request: FastifyRequest): Owner & { principal: Principal } => {
  // The bearer guard of /v1 ran first: every request here has a principal.
  const principal = request.principal as Principal
  return { issuer: principal.issuer, clientId: principal.clientId, subject: principal.subject, principal }
}

const notFound = (id: number): HttpError => new HttpError(404, `No webhook ${id}: a webhook is visible only to the client that made it`)

/**
 * Webhooks under /v1/webhooks (docs/webhooks.md): an account's subscriptions, each visible only to
 * it (another's answers 404, as one that never was), their secrets, and the log of their deliveries.
 * `webhooks:read` reads them, `webhooks:write` changes them (the route's `collection`).
 */
export const webhookRoutes: FastifyPluginAsyncTypebox = async function webhookRoutes (fastify) {
  const names = fastify.collections.resources.map(r => r.name)
  const settings = webhookSettings(names)
  const Webhook = webhookSchema(names)
  const config = { collection: 'webhooks' }
  const tags = ['webhooks']

  // A filter is checked as a list's query of each collection would be: each value of its field's type and format.
  const listChecks = new Map(fastify.collections.resources.map(resource => [resource, validatorCompiler({
    schema: resource.schemas.list, httpPart: 'querystring', method: 'GET', url: ''
  }) as ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null }]))

  /** The settings a request writes, checked beyond their schema: a URL that may be sent to, a filter each collection takes. */
  const checked = async (request: FastifyRequest, wanted: WebhookSettings): Promise<WebhookSettings> => {
    const problems: FieldError[] = []
    const refusal = await fastify.webhookDestinations.refusalOf(wanted.url)
    if (refusal !== undefined) problems.push({ field: 'url', code: 'refused', message: `url is refused: ${refusal}` })
    for (const name of wanted.collections) {
      const resource = fastify.collections.resources.find(r => r.name === name)
      if (resource === undefined) continue
      try {
        const validate = listChecks.get(resource) as NonNullable<ReturnType<typeof listChecks.get>>
        if (!validate(Object.fromEntries(new URLSearchParams(wanted.filter)))) {
          throw new Error(fieldErrors(validate.errors ?? [], 'querystring').map(e => e.message).join('; '))
        }
        const hidden = filtersOf(resource, wanted.filter).find(f => 'field' in f && request.records.collection(resource).hides(f.field))
        // A filter on a field the token may not see would tell its values by what is delivered.
        if (hidden !== undefined && 'field' in hidden) throw new Error(`${hidden.field} names no field of ${resource.name}`)
      } catch (err) {
        problems.push({ field: 'filter', code: 'invalid', message: `filter, for ${name}: ${(err as Error).message}` })
      }
    }
    if (problems.length > 0) throw invalid(problems)
    return wanted
  }

  allowOnly(fastify, '/', ['GET', 'POST'])
  fastify.get('/', {
    config,
    schema: {
      operationId: 'listWebhooks',
      summary: 'List your webhooks',
      description: 'The subscriptions the token\'s account made, oldest first; X-Total-Count says how many there are.',
      tags,
      security: BEARER,
      querystring: Type.Object(Paging, { additionalProperties: false }),
      response: { 200: withHeaders(Type.Array(Webhook), 'X-Total-Count'), ...errors(...GUARDED, 400) }
    }
  }, async (request, reply) => {
    const { items, total } = await fastify.storage.webhooks.list(ownerOf(request), request.query.limit, request.query.offset)
    reply.header('X-Total-Count', total)
    return items.map(shownWebhook)
  })

  fastify.post('/', {
    config,
    schema: {
      operationId: 'createWebhook',
      summary: 'Subscribe a URL to the changes of collections',
      description: 'Answers the subscription with its signing secret, which is never shown again. Deliveries start with ' +
        'the changes made after this answer.',
      tags,
      security: BEARER,
      body: Type.Object({
        url: settings.url,
        collections: settings.collections,
        events: Type.Optional(settings.events),
        filter: Type.Optional(settings.filter),
        enabled: Type.Optional(settings.enabled)
      }, { additionalProperties: false }),
      response: {
        201: withHeaders(Type.Object({ ...Webhook.properties, secret: SecretSchema }, { additionalProperties: false }), 'Location'),
        ...errors(...GUARDED, 400, 415, 422)
      }
    }
  }, async (request, reply) => {
    const { body } = request
    const wanted = await checked(request, {
      url: body.url,
      collections: body.collections,
      events: body.events ?? [...EVENTS],
      filter: body.filter ?? '',
      enabled: body.enabled ?? true
    })
    const owner = ownerOf(request)
    const secret = newSecret()
    const webhook = await fastify.storage.webhooks.create(owner, [...owner.principal.scopes].join(' '),
      keptClaims(accountClaims(owner.principal.claims)), wanted, secret, await fastify.storage.collections.feed.head())
    fastify.webhooks.wake()
    reply.code(201).header('Location', `${versionRoot(request)}/webhooks/${webhook.id}`)
    return { ...shownWebhook(webhook), secret }
  })

  allowOnly(fastify, '/:id', ['GET', 'PATCH', 'DELETE'])
  fastify.get('/:id', {
    config,
    schema: {
      operationId: 'getWebhook',
      summary: 'Read one of your webhooks',
      description: 'Its settings, never its secret. Another account\'s is 404, as one that never was.',
      tags,
      security: BEARER,
      params: Type.Object({ id: Id }),
      querystring: Type.Object({}, { additionalProperties: false }),
      response: { 200: Webhook, ...errors(...GUARDED, 400, 404) }
    }
  }, async request => {
    const webhook = await fastify.storage.webhooks.find(request.params.id, ownerOf(request))
    if (webhook === undefined) throw notFound(request.params.id)
    return shownWebhook(webhook)
  })

  fastify.patch('/:id', {
    config,
    schema: {
      operationId: 'updateWebhook',
      summary: 'Change one of your webhooks',
      description: 'The members given replace those of the subscription; the others keep their values.',
      tags,
      security: BEARER,
      params: Type.Object({ id: Id }),
      body: Type.Partial(Type.Object(settings), { additionalProperties: false, minProperties: 1 }),
      response: { 201: Webhook, ...errors(...GUARDED, 400, 404, 415, 422) }
    }
  }, async (request, reply) => {
    const owner = ownerOf(request)
    const current = await fastify.storage.webhooks.find(request.params.id, owner)
    if (current === undefined) throw notFound(request.params.id)
    const { url, collections, events, filter, enabled } = { ...current, ...request.body }
    const wanted = await checked(request, { url, collections, events, filter, enabled })
    const webhook = await fastify.storage.webhooks.update(request.params.id, owner, wanted)
    if (webhook === undefined) throw notFound(request.params.id)
    fastify.webhooks.wake()
    // 201 for a change, as every PATCH of the API answers (deliberate, the contract's §3).
    reply.code(201)
    return shownWebhook(webhook)
  })

  fastify.delete('/:id', {
    config,
    schema: {
      operationId: 'deleteWebhook',
      summary: 'Delete one of your webhooks and its deliveries',
      description: 'Nothing more is delivered to it; a delivery under way is finished.',
      tags,
      security: BEARER,
      params: Type.Object({ id: Id }),
      response: { 204: Type.Null({ description: 'Deleted' }), ...errors(...GUARDED, 400, 404) }
    }
  }, async (request, reply) => {
    if (!await fastify.storage.webhooks.remove(request.params.id, ownerOf(request))) throw notFound(request.params.id)
    reply.code(204)
  })

  allowOnly(fastify, '/:id/secret', ['POST'])
  fastify.post('/:id/secret', {
    config,
    schema: {
      operationId: 'rotateWebhookSecret',
      summary: 'Give one of your webhooks a new signing secret',
      description: 'Deliveries are signed with both the new secret and the one before for 24 hours, so that a receiver ' +
        'can change its secret meanwhile.',
      tags,
      security: BEARER,
      params: Type.Object({ id: Id }),
      response: { 201: Type.Object({ secret: SecretSchema }, { additionalProperties: false }), ...errors(...GUARDED, 400, 404) }
    }
  }, async (request, reply) => {
    const secret = newSecret()
    const until = new Date(Date.now() + PREVIOUS_SECRET_MS).toISOString()
    if (!await fastify.storage.webhooks.rotate(request.params.id, ownerOf(request), secret, until)) throw notFound(request.params.id)
    reply.code(201)
    return { secret }
  })

  allowOnly(fastify, '/:id/deliveries', ['GET'])
  fastify.get('/:id/deliveries', {
    config,
    schema: {
      operationId: 'listWebhookDeliveries',
      summary: 'The log of one of your webhooks\' deliveries',
      description: 'Each change made a delivery of, newest first by default: its status, attempts, the receiver\'s last ' +
        'status code or error, and the next attempt. Filter by status (`status=failed`), sort, page.',
      tags,
      security: BEARER,
      params: Type.Object({ id: Id }),
      querystring: Type.Object({
        status: Type.Optional(DeliverySchema.properties.status),
        sortby: Type.String({ enum: ['id', 'next_attempt_at'], default: 'id' }),
        order: Type.String({ enum: ['asc', 'desc'], default: 'desc' }),
        ...Paging
      }, { additionalProperties: false }),
      response: { 200: withHeaders(Type.Array(DeliverySchema), 'X-Total-Count'), ...errors(...GUARDED, 400, 404) }
    }
  }, async (request, reply) => {
    const { status, sortby, order, limit, offset } = request.query
    const page = await fastify.storage.webhooks.deliveries(request.params.id, ownerOf(request), {
      status: status as DeliveryStatus | undefined, sort: sortby as 'id' | 'next_attempt_at', descending: order === 'desc', limit, offset
    })
    if (page === undefined) throw notFound(request.params.id)
    reply.header('X-Total-Count', page.total)
    return page.items
  })

  allowOnly(fastify, '/:id/deliveries/:delivery_id/retry', ['POST'])
  fastify.post('/:id/deliveries/:delivery_id/retry', {
    config,
    schema: {
      operationId: 'retryWebhookDelivery',
      summary: 'Send a failed delivery again',
      description: 'The delivery is pending again and sent at once, with its retries counted anew from there; 409 when it ' +
        'has not failed.',
      tags,
      security: BEARER,
      params: Type.Object({ id: Id, delivery_id: SafeInteger({ minimum: 1 }) }),
      response: { 202: DeliverySchema, ...errors(...GUARDED, 400, 404, 409) }
    }
  }, async (request, reply) => {
    const { id, delivery_id: deliveryId } = request.params
    const retried = await fastify.storage.webhooks.retry(id, deliveryId, ownerOf(request))
    if (retried === undefined) throw new HttpError(404, `No delivery ${deliveryId} of webhook ${id}`)
    if (retried === 'not failed') throw new HttpError(409, `Delivery ${deliveryId} has not failed: only a failed delivery is sent again`)
    fastify.webhooks.wake()
    reply.code(202)
    return retried
  })
}
