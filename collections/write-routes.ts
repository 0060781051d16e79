import { Type, type TSchema } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { bulkPreferences } from '../http/prefer.ts'
import { capitalize, type ResourceRecord } from '../model/resource.ts'
import { SafeInteger } from '../model/values.ts'
import { accepted, BODY_READ, empty, errors, GUARDED, requestHeaders, withHeaders } from '../schemas/responses.ts'
import { inMergePatchScope, MERGE_PATCH, writeHandler, type Collection, type Instance } from './collection.ts'
import { accessNote } from './access-notes.ts'
import { createdAtMost, inputsOf, MAX_REPRESENTED, refuseNullBytes } from './write-plan.ts'

/*
 * The write routes of a collection: what each documents and declares. What each does is planned
 * in collections/write-plan.ts, the same for a route, an operation of a batch and a job.
 */

/**
 * The config of a write: the token's standing may be asked with the write's first statement
 * (PostgreSQL: the read of the record, the create itself, or the start of a transaction); what
 * would write before it (an Idempotency-Key, a queued job) asks it first.
 */
const WRITE = { standingAlongside: true } as const
/** A write that chooses its records by the query's filters: it needs the read scope too (auth/scopes.ts). */
const SELECTING_WRITE = { ...WRITE, selects: true } as const

/** How a write says what Prefer may ask of its answer. */
const RETURN_PREFERENCE = 'Prefer: return=minimal answers the same status and headers without a body; '

/** A body schema as it is validated, typed as the record it holds. */
const input = <T = ResourceRecord>(schema: TSchema) => Type.Unsafe<T>(schema)

/** The preValidation of every write with a body: no null byte in its text, before it could be queued as a job. */
async function refuseNullBytesIn (request: FastifyRequest): Promise<void> {
  refuseNullBytes(request.body)
}

/** The preValidation of a change of many records: a Prefer it cannot read is 400 before the change is queued as a job. */
async function refuseBadPreferences (request: FastifyRequest): Promise<void> {
  bulkPreferences(request.headers.prefer)
}

export function createRoute (fastify: Instance, collection: Collection): void {
  const { resource, nesting, of, RecordSchema } = collection
  const created = Type.Union([RecordSchema, Type.Array(RecordSchema)])
  const { body, query } = inputsOf(collection.mount, 'POST', false)
  fastify.post('/', {
    config: WRITE,
    schema: {
      operationId: `create${capitalize(resource.singular)}${of}`,
      summary: `Create ${collection.one}, or several at once from an array (all or none)`,
      description: `An object creates one ${resource.singular}: 201 with its Location and ETag. ` +
        `An array creates up to ${createdAtMost(fastify.config.writeMaxRecords)} (WRITE_MAX_RECORDS), all or none: ` +
        '201 with the array. ' +
        `${nesting === undefined ? '' : `${nesting.field} is taken from the path. `}` +
        `Idempotency-Key makes a retry safe. ${RETURN_PREFERENCE}Prefer: respond-async queues the write as a background job (202).` +
        accessNote(resource, 'write'),
      tags: [resource.name],
      params: collection.CollectionParams,
      querystring: query,
      headers: requestHeaders('Idempotency-Key', 'Prefer'),
      body: input<ResourceRecord | ResourceRecord[]>(body),
      response: {
        201: withHeaders({
          ...created,
          description: 'Created: the record (with Location and ETag), or the array of records (none with return=minimal)'
        }, 'Location', 'ETag', 'Idempotent-Replayed', 'Preference-Applied'),
        ...accepted,
        ...errors(...GUARDED, ...BODY_READ, 409, 422, ...collection.parentErrors)
      }
    },
    preValidation: refuseNullBytesIn
  }, writeHandler(collection, 'POST'))
}

/**
 * PUT replaces every writable field, PATCH changes some; both answer 201 with the record. PATCH
 * also takes a JSON Merge Patch, which for a record of fields with no members of their own says
 * exactly what a PATCH in JSON says (null clears a nullable field; on a required one it is 422, as
 * the schema says): the same parser and schema, registered in a scope of its own so that no other
 * route takes that media type.
 */
export async function updateRoutes (fastify: Instance, collection: Collection): Promise<void> {
  const { resource, RecordSchema } = collection
  const updates = [
    {
      method: 'PUT',
      verb: 'replace',
      summary: `Replace ${collection.one}: every writable field (read-only ones are ignored)`,
      description: 'The body holds every writable field; id, created_at and updated_at are ignored, ' +
        'so a body read with GET can be sent back. ',
      headers: requestHeaders('If-Match', 'Prefer')
    },
    {
      method: 'PATCH',
      verb: 'update',
      summary: `Change some fields of ${collection.one}`,
      description: 'The body holds only the fields to change, as JSON or as a JSON Merge Patch (application/merge-patch+json), ' +
        'where null clears a field that may be empty. Idempotency-Key makes a retry safe. ',
      headers: requestHeaders('If-Match', 'Idempotency-Key', 'Prefer')
    }
  ] as const
  for (const { method, verb, summary, description, headers } of updates) {
    const patch = method === 'PATCH'
    const replayed = patch ? ['Idempotent-Replayed' as const] : []
    const { body, query } = inputsOf(collection.mount, method, true)
    const register = (scope: Instance): void => {
      scope.route({
        method,
        url: '/:id',
        config: patch ? { ...WRITE, bodyTypes: [MERGE_PATCH] } : WRITE,
        schema: {
          operationId: `${verb}${capitalize(resource.singular)}`,
          summary,
          description: `${description}201 with the complete record and its new ETag. ${RETURN_PREFERENCE}` +
          'If-Match makes the write conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).' +
          accessNote(resource, 'write'),
          tags: [resource.name],
          params: collection.ItemParams,
          querystring: query,
          headers,
          body: input(body),
          ...(patch ? { consumes: ['application/json', MERGE_PATCH] } : {}),
          response: {
            201: withHeaders({ ...RecordSchema, description: 'Changed: the complete record (none with return=minimal)' },
              'ETag', 'Location', 'Preference-Applied', ...replayed),
            ...accepted,
            ...errors(...GUARDED, ...BODY_READ, 404, 409, 410, 412, 422)
          }
        },
        preValidation: refuseNullBytesIn,
        handler: writeHandler(collection, method)
      })
    }
    if (patch) await inMergePatchScope(fastify, register)
    else register(fastify)
  }
}

export function deleteRoute (fastify: Instance, collection: Collection): void {
  const { resource, of } = collection
  const referrers = fastify.collections.resources.filter(r => Object.values(r.references).includes(resource.name)).map(r => r.name)
  const conflict = referrers.length === 0
    ? ''
    : ` A ${resource.singular} that ${referrers.join(' or ')} still name is 409, and nothing is deleted.`
  fastify.delete('/:id', {
    config: WRITE,
    schema: {
      operationId: `delete${capitalize(resource.singular)}${of}`,
      summary: `Delete ${collection.one}`,
      description: `204; its id is never used again and answers 410 from then on.${conflict} ` +
        'If-Match makes it conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).' +
        accessNote(resource, 'write'),
      tags: [resource.name],
      params: collection.ItemParams,
      querystring: inputsOf(collection.mount, 'DELETE', true).query,
      headers: requestHeaders('If-Match', 'Prefer'),
      response: { 204: empty('Deleted'), ...accepted, ...errors(...GUARDED, ...BODY_READ, 404, 409, 410, 412) }
    }
  }, writeHandler(collection, 'DELETE'))
}

/**
 * PATCH and DELETE of a collection's path change every record its query's filters match (the list's
 * filters and q; at least one, so that no request changes a whole collection by omission), in one
 * transaction, each record under the rules of its own write (references, unique values, 409 for a
 * record still named): all or none. 200 with how many; Prefer says how many at most
 * (max-affected), whether to undo it all and answer what it would have done (tx=rollback), and
 * whether to answer the records (return=representation).
 */
export async function bulkRoutes (fastify: Instance, collection: Collection): Promise<void> {
  const { resource, of, RecordSchema } = collection
  const answer = withHeaders(Type.Object({
    affected: SafeInteger({ minimum: 0, description: 'How many records were changed (with tx=rollback: would have been)' }),
    records: Type.Optional(Type.Array(RecordSchema, {
      maxItems: MAX_REPRESENTED,
      description: `With Prefer: return=representation, the first ${MAX_REPRESENTED} of them in id order: ` +
        'as written, or as they were before a delete'
    }))
  }, { additionalProperties: false, description: 'Changed' }), 'Preference-Applied')
  const description = `Every ${resource.singular}${collection.within} the query's filters match (at least one filter), in one ` +
    'transaction, each under the rules of its own write: all or none. Needs the read scope as well as the write scope. ' +
    `More than ${fastify.config.writeMaxRecords} matches (WRITE_MAX_RECORDS) is 422, and so is more than Prefer: max-affected=N ` +
    'allows; tx=rollback answers what it would do and changes nothing; return=representation adds the records (at most ' +
    `${MAX_REPRESENTED}); a max-affected or tx that cannot be read is 400.` +
    (resource.access === undefined
      ? ''
      : ' Access rules: only the records the token sees and may write are changed, and counted; ' +
      'a change that would move one outside those it may write, or that gives a field the rules hide or set, is 403.')
  const common = {
    tags: [resource.name],
    params: collection.CollectionParams,
    querystring: inputsOf(collection.mount, 'DELETE', false).query,
    headers: requestHeaders('Idempotency-Key', 'Prefer')
  }
  const patch = (scope: Instance): void => {
    scope.patch('/', {
      config: { ...SELECTING_WRITE, bodyTypes: [MERGE_PATCH] },
      schema: {
        ...common,
        operationId: `update${capitalize(resource.name)}${of}`,
        summary: `Change some fields of every ${resource.singular}${collection.within} the filters match`,
        description: `${description} The body holds the fields to change, as JSON or as a JSON Merge Patch.`,
        body: input(inputsOf(collection.mount, 'PATCH', false).body),
        consumes: ['application/json', MERGE_PATCH],
        response: { 200: answer, ...accepted, ...errors(...GUARDED, ...BODY_READ, 409, 422, ...collection.parentErrors) }
      },
      preValidation: [refuseNullBytesIn, refuseBadPreferences]
    }, writeHandler(collection, 'PATCH'))
  }
  await inMergePatchScope(fastify, patch)
  fastify.delete('/', {
    config: SELECTING_WRITE,
    preValidation: refuseBadPreferences,
    schema: {
      ...common,
      operationId: `delete${capitalize(resource.name)}${of}`,
      summary: `Delete every ${resource.singular}${collection.within} the filters match`,
      description: `${description} A record that others still name refuses it all (409).`,
      response: { 200: answer, ...accepted, ...errors(...GUARDED, ...BODY_READ, 409, 422, ...collection.parentErrors) }
    }
  }, writeHandler(collection, 'DELETE'))
}
