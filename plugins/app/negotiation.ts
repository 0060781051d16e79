import fp from 'fastify-plugin'
import { HttpError } from '../../http/errors.js'

/** Every answer is JSON: a request whose Accept header rules JSON out gets 406. */
export default fp(async function negotiation (fastify) {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.headers.accept !== undefined && request.accepts().type(['application/json']) === false) {
      throw new HttpError(406, `This API answers only application/json; Accept was "${request.headers.accept}"`)
    }
    done()
  })
}, { name: 'negotiation', dependencies: ['@fastify/accepts'] })
