import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../../http/errors.ts'
import { canonicalPreferences } from '../../http/prefer.ts'
import { digest } from '../../auth/secrets.ts'
import type { Claim } from '../../store/storage.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request holds an Idempotency-Key: its answer is recorded for retries. */
    idempotencyKey: { owner: string, key: string } | null
  }
}

/** What a replay must repeat besides the status and body. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag', 'preference-applied']

/** JSON with object keys sorted: the same body sent with its members in another order is the same request. */
function canonical (value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map(k => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

const keyed = (request: FastifyRequest): boolean =>
  request.headers['idempotency-key'] !== undefined &&
  (request.method === 'POST' || request.method === 'PATCH') &&
  (request.routeOptions.config.collection !== undefined || request.routeOptions.config.write === true)

/**
 * Idempotency-Key on POST and PATCH: a retry with the same key and request gets the
 * first answer again (`Idempotent-Replayed: true`), the same key with another request 422, and
 * while the first is still in flight 409. Keys are per user (issuer, client and subject) and live 24 hours. Checked after
 * authentication and validation, so a refused request holds no key.
 */
export default fp(async function idempotency (fastify) {
  const store = fastify.storage.idempotency
  fastify.decorateRequest('idempotencyKey', null)

  // Callback hooks: every request passes them, nearly all without a key, at no cost of a promise.
  fastify.addHook('preHandler', (request, reply, done) => {
    if (!keyed(request)) return done()
    // Its form (1 to 255 visible ASCII characters) was checked with the route's headers (schemas/responses.ts).
    const key = String(request.headers['idempotency-key'])
    const principal = request.principal
    if (principal === null) return done()
    // The token's subject too: two users of one client must not replay each other's answers.
    const owner = JSON.stringify([principal.issuer, principal.clientId, principal.subject])
    // Prefer is part of the request: a dry run (tx=rollback) and the change itself are two.
    const prefer = canonicalPreferences(request.headers.prefer)
    // What the token's access rules let it see and write (their claims, its scopes) too: a key used
    // under other rules, its claims changed or by an unrestricted token of the same user, replays nothing.
    const access = request.records.accessKey
    const fingerprint = digest(canonical([request.method, request.url, request.body, ...prefer === undefined ? [] : [prefer],
      ...access === '' ? [] : [access]]))
    // The claim writes: a token that no longer stands claims nothing.
    Promise.resolve(request.standing?.settle()).then(() => store.claim(owner, key, fingerprint)).then((claim: Claim) => {
      switch (claim.outcome) {
        case 'claimed':
          request.idempotencyKey = { owner, key }
          return done()
        case 'in_flight':
          return done(new HttpError(409, 'A request with this Idempotency-Key is still in progress; retry later'))
        case 'mismatch':
          return done(new HttpError(422, 'This Idempotency-Key was used with another request; use a new key for a new request'))
        case 'replay':
          reply.code(claim.answer.status).headers(claim.answer.headers).header('Idempotent-Replayed', 'true').send(claim.answer.body)
      }
    }, done)
  })

  fastify.addHook('onSend', (request, reply, payload, done) => {
    const held = request.idempotencyKey
    // undefined, not null, on routes whose context was made before this plugin decorated
    // requests: those of plugins/external (the documentation UI's).
    if (held == null) return done(null, payload)
    request.idempotencyKey = null
    let recorded: Promise<void>
    // A fault, or 429 (too many jobs waiting): not an answer to the request, but "not now"; the
    // key is free for the retry.
    if (reply.statusCode >= 500 || reply.statusCode === 429) {
      recorded = store.release(held.owner, held.key)
    } else {
      const headers = Object.fromEntries(REPLAYED_HEADERS
        .filter(name => reply.hasHeader(name))
        .map(name => [name, String(reply.getHeader(name))]))
      const body = typeof payload === 'string' ? payload : ''
      recorded = store.complete(held.owner, held.key, { status: reply.statusCode, headers, body })
    }
    // The answer is recorded before it is sent: a retry that arrives once the client has it finds it.
    recorded.then(() => done(null, payload), done)
  })

  // A client gone before the answer: the key is free for its retry.
  fastify.addHook('onRequestAbort', async (request) => {
    const held = request.idempotencyKey
    if (held != null) await store.release(held.owner, held.key)
  })
}, { name: 'idempotency', dependencies: ['storage', 'bearer-guard'] })
