import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { batchRoute } from '../../../collections/batch.ts'
import { allowOnly } from '../../../http/method-not-allowed.ts'

/** POST /v1/batch: several writes in one transaction (collections/batch.ts). */
const batch: FastifyPluginAsyncTypebox = async fastify => {
  allowOnly(fastify, '/', ['POST'])
  batchRoute(fastify)
}

export default batch
