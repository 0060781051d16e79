import fp from 'fastify-plugin'
import { negotiate } from '../../http/negotiation.ts'

/** Content negotiation of every answer (http/negotiation.ts): 406 when JSON is ruled out. */
export default fp(async function negotiation (fastify) {
  fastify.addHook('onRequest', negotiate)
}, { name: 'negotiation', dependencies: ['@fastify/accepts'] })
