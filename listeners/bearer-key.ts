import { createHash, timingSafeEqual } from 'node:crypto'
import fp from 'fastify-plugin'
import { HttpError } from '../http/errors.ts'

export interface BearerKeyOptions {
  key: string
  /** The setting that holds the key, which the answer to a request without it names. */
  setting: string
  /** The realm of the challenge: which listener's key is asked for. */
  realm: string
}

/** SHA-256: a key's digest has one length whatever was sent, so comparing two takes the same time. */
const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

/**
 * `Authorization: Bearer <key>` on every request of the scope it is registered in: the local tool
 * server's LOCAL_API_KEY, the metrics listener's METRICS_TOKEN.
 */
export default fp<BearerKeyOptions>(async function bearerKey (fastify, { key, setting, realm }) {
  const expected = digest(key)
  fastify.addHook('onRequest', async (request) => {
    const authorization = request.headers.authorization
    if (authorization === undefined) {
      throw new HttpError(
        401,
        `Authorization required: send Authorization: Bearer <${setting}>`,
        {},
        { 'WWW-Authenticate': `Bearer realm="${realm}"` }
      )
    }
    const match = /^Bearer ([^\s]+)$/i.exec(authorization)
    if (match === null || !timingSafeEqual(digest(match[1] as string), expected)) {
      throw new HttpError(401, 'Wrong API key', {}, { 'WWW-Authenticate': `Bearer realm="${realm}", error="invalid_token"` })
    }
  })
}, { name: 'bearer-key' })
