import { timingSafeEqual } from 'node:crypto'
import fp from 'fastify-plugin'
import { digest } from '../../auth/secrets.ts'
import { HttpError } from '../../http/errors.ts'

export interface ApiKeyOptions {
  key: string
}

/** `Authorization: Bearer <LOCAL_API_KEY>` on every request of the scope it is registered in. */
export default fp<ApiKeyOptions>(async function apiKey (fastify, { key }) {
  // Digests have one length, so the comparison takes the same time whatever was sent.
  const expected = Buffer.from(digest(key))
  fastify.addHook('onRequest', async (request) => {
    const authorization = request.headers.authorization
    if (authorization === undefined) {
      throw new HttpError(
        401,
        'Authorization required: send Authorization: Bearer <LOCAL_API_KEY>',
        {},
        { 'WWW-Authenticate': 'Bearer realm="zoo-local"' }
      )
    }
    const match = /^Bearer ([^\s]+)$/i.exec(authorization)
    if (match === null || !timingSafeEqual(Buffer.from(digest(match[1] as string)), expected)) {
      throw new HttpError(401, 'Wrong API key', {}, { 'WWW-Authenticate': 'Bearer realm="zoo-local", error="invalid_token"' })
    }
  })
}, { name: 'local-api-key' })
