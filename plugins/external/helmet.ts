import helmet, { type FastifyHelmetOptions } from '@fastify/helmet'

export const autoConfig: FastifyHelmetOptions = {
  // A JSON API serves no documents to frame or scripts to run: the strictest policy costs nothing.
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  hsts: { maxAge: 31536000, includeSubDomains: true }
}

export default helmet
