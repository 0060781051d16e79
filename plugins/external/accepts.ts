import accepts from '@fastify/accepts'

export default accepts
